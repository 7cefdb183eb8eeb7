"""Refusals the server answers with one stable code and one readable sentence.

The sentence is an English template marked with ``N_`` and its named parameters; it
is translated into the asker's language when the refusal is answered (app.py).
"""

from __future__ import annotations

from typing import Any

from tavla.server.i18n import translate


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
