"""What the websockets refuse before a message reaches a room (docs/API.md 9): too many
connections from one address or account, binary frames, JSON nested too deep."""

from __future__ import annotations

import json

from fastapi import WebSocket, WebSocketDisconnect

from tavla.server.i18n import N_, translate
from tavla.server.limits import Limit, client_address
from tavla.server.settings import Settings

RATE_LIMITED = 4429
"""The close code of a connection refused because its address or account opened too many."""
CLOSE_REASON_BYTES = 123
"""The most a close frame's reason may hold."""


def address_of(socket: WebSocket, settings: Settings) -> str:
    peer = socket.client.host if socket.client else None
    return client_address(peer, socket.headers, settings.trusted_proxies)


async def refused_too_often(socket: WebSocket, limit: Limit, key: str, language: str) -> bool:
    """Close the socket before it opens (4429) when ``key`` opened too many; True then."""
    wait = await limit.retry_after(key)
    if not wait:
        return False
    reason = translate(language, N_("too many connections; try again in {seconds} s"), {"seconds": wait})
    await socket.close(code=RATE_LIMITED, reason=reason.encode()[:CLOSE_REASON_BYTES].decode(errors="ignore"))
    return True


async def receive_text(socket: WebSocket) -> str | None:
    """The next text frame; None for a binary one (never a message here)."""
    frame = await socket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
    text = frame.get("text")
    return text if isinstance(text, str) else None


def parse(text: str) -> object:
    """The JSON value of a message; ValueError when it is not JSON, or nests so deep
    that reading it would exhaust the stack."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None
