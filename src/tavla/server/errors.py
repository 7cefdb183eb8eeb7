"""Refusals the server answers with one stable code and one readable sentence.

The sentence is an English template marked with ``N_`` and its named parameters; it
is translated into the asker's language when the refusal is answered (app.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tavla.server.i18n import N_, Money, translate


class ApiError(Exception):
    """An HTTP request refused: ``status``, a ``code`` for programs, a message for people.

    ``message`` is the English text; ``template`` and ``params`` give it in any language
    (``text``)."""

    def __init__(
        self, status: int, code: str, template: str, *, retry_after_s: int | None = None, **params: object
    ) -> None:
        self.status = status
        self.code = code
        self.template = template
        self.params = params
        self.message = template.format(**params) if params else template
        self.retry_after_s = retry_after_s
        super().__init__(self.message)

    def text(self, language: str) -> str:
        return translate(language, self.template, self.params)


def not_found(template: str, **params: Any) -> ApiError:
    return ApiError(404, "not_found", template, **params)


def forbidden(template: str, **params: Any) -> ApiError:
    return ApiError(403, "forbidden", template, **params)


def invalid(template: str, **params: Any) -> ApiError:
    return ApiError(422, "invalid", template, **params)


AMOUNT_EXAMPLE = Money(123_450)
"""The amount a refusal of a typed amount shows as an example: 1,234.50 as the reader
writes it (1.234,50 in Turkish, 1 234,50 in Bulgarian)."""


def invalid_request(problem: Mapping[str, Any]) -> tuple[str, dict[str, object]]:
    """The sentence (an ``N_`` template and its parameters) for the first problem the
    request's schema found. An amount a person typed that the page could not read (it
    sends the text as it was typed: static/text.js ``cents``), or one out of bounds, is
    refused in words about money, the amounts in the reader's form; anything else in
    pydantic's own English words, inside a translated frame."""
    where = [str(part) for part in problem.get("loc", ()) if part != "body"]
    kind, typed = problem.get("type"), problem.get("input")
    if where and where[-1].endswith("_cents"):
        limits = problem.get("ctx") or {}
        if kind in ("int_type", "int_parsing") and isinstance(typed, str):
            return N_("not an amount of money: “{typed}”; write it as {example}"), {
                "typed": typed,
                "example": AMOUNT_EXAMPLE,
            }
        if kind == "greater_than_equal" and isinstance(limits.get("ge"), int):
            return N_("the amount must be at least {minimum}"), {"minimum": Money(limits["ge"])}
        if kind == "less_than_equal" and isinstance(limits.get("le"), int):
            return N_("the amount may be at most {maximum}"), {"maximum": Money(limits["le"])}
    message = str(problem.get("msg", "invalid request"))
    return N_("invalid request: {detail}"), {"detail": f"{'.'.join(where)}: {message}" if where else message}
