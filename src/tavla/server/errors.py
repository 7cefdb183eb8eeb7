"""Refusals the server answers with one stable code and one readable sentence."""

from __future__ import annotations


class ApiError(Exception):
    """An HTTP request refused: ``status``, a ``code`` for programs, a message for people."""

    def __init__(self, status: int, code: str, message: str, *, retry_after_s: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after_s = retry_after_s


def not_found(what: str) -> ApiError:
    return ApiError(404, "not_found", f"{what} not found")


def forbidden(message: str) -> ApiError:
    return ApiError(403, "forbidden", message)


def invalid(message: str) -> ApiError:
    return ApiError(422, "invalid", message)
