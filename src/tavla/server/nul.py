"""NUL characters are refused where requests come in.

PostgreSQL's text cannot hold one: a request carrying one would fail in the database
instead of being refused, and SQLite would store it. No name, chat line, seed or
address needs one, so the site refuses them alike on both (docs/API.md 9).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse

from tavla.server.i18n import LANGUAGE_COOKIE, N_, choose_language, translate

NUL_REFUSED = N_("a text may not hold a NUL character")


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


class RefuseNulAddresses:
    """ASGI middleware: a request or websocket whose path or query holds a NUL is
    refused before any route sees it (422 ``invalid``; a websocket is closed unopened)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and _nul_in_address(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            asker = HTTPConnection(scope)
            language = choose_language(
                None, asker.cookies.get(LANGUAGE_COOKIE), asker.headers.get("accept-language", "")
            )
            message = translate(language, NUL_REFUSED, {})
            await JSONResponse({"error": {"code": "invalid", "message": message}}, status_code=422)(
                scope, receive, send
            )
            return
        await self.app(scope, receive, send)


def _nul_in_address(scope: Any) -> bool:
    query = scope.get("query_string", b"")
    return "\x00" in scope.get("path", "") or b"%00" in query or b"\x00" in query
