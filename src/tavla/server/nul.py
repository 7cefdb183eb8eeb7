"""NUL characters are refused where requests come in.

PostgreSQL's text cannot hold one: a request carrying one would fail in the database
instead of being refused, and SQLite would store it. No name, chat line, seed or
address needs one, so the site refuses them alike on both (docs/API.md 9): in an
address, a query, a JSON request body and a websocket message.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse

from tavla.server.i18n import LANGUAGE_COOKIE, N_, choose_language, translate

NUL_REFUSED = N_("a text may not hold a NUL character")
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods whose JSON body the routes read (a GET's body is never read)."""


def holds_nul(value: object) -> bool:
    """Whether a JSON value holds a NUL character in any string, key or value. A walk
    with a list, not a recursion: the value may nest as deep as JSON's reader allows."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def json_body_holds_nul(body: bytes) -> bool:
    """Whether a request body, read as JSON, holds a NUL character. JSON's reader lets
    one into a string only through the escape ``\\u0000``, and a body in UTF-16 or
    UTF-32 holds NUL bytes: a body with neither is passed without being read twice.
    A body that is not JSON holds no NUL here; the route refuses it as unreadable."""
    if b"\\u0000" not in body and b"\x00" not in body:
        return False
    try:
        return holds_nul(json.loads(body))
    except (ValueError, RecursionError):
        return False


class RefuseNul:
    """ASGI middleware: a request or websocket whose path or query holds a NUL, or a
    request whose JSON body does, is refused before any route sees it (422 ``invalid``;
    a websocket is closed unopened). Websocket messages are checked as they come
    (ws.py)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if _nul_in_address(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            await _refuse(scope, receive, send)
            return
        if scope["type"] == "http" and scope.get("method") in BODY_METHODS and _json_request(scope):
            body, more = await _read_body(receive)
            if json_body_holds_nul(body):
                await _refuse(scope, receive, send)
                return
            receive = _replay(body, more, receive)
        await self.app(scope, receive, send)


async def _refuse(scope: Any, receive: Any, send: Any) -> None:
    asker = HTTPConnection(scope)
    language = choose_language(
        None, asker.cookies.get(LANGUAGE_COOKIE), asker.headers.get("accept-language", "")
    )
    message = translate(language, NUL_REFUSED, {})
    await JSONResponse({"error": {"code": "invalid", "message": message}}, status_code=422)(
        scope, receive, send
    )


def _nul_in_address(scope: Any) -> bool:
    query = scope.get("query_string", b"")
    return "\x00" in scope.get("path", "") or b"%00" in query or b"\x00" in query


def _json_request(scope: Any) -> bool:
    """Whether the framework would read the body as JSON: no type named, or a JSON one
    (``application/json``, ``application/*+json``)."""
    named = HTTPConnection(scope).headers.get("content-type", "")
    media = named.split(";", 1)[0].strip().lower()
    return media in ("", "application/json") or (media.startswith("application/") and media.endswith("+json"))


async def _read_body(receive: Any) -> tuple[bytes, list[Any]]:
    """The request's whole body, and any message that came instead of more of it (the
    client went away)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), [message]
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), []


def _replay(body: bytes, after: list[Any], receive: Any) -> Any:
    """A ``receive`` that gives the body already read as one message, then what came
    after it, then whatever the client sends next (its going away)."""
    pending: list[Any] = [{"type": "http.request", "body": body, "more_body": False}, *after]

    async def replayed() -> Any:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed
