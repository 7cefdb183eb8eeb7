"""The websockets: ``/ws/game/{id}`` (play or watch) and ``/ws/lobby`` (docs/API.md).

The handler only translates and authorises: it reads a message, checks who sent
it, and hands it to the game's room; the room decides and answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from tavla.server.accounts import SessionInfo, session_of
from tavla.server.deps import SESSION_COOKIE, same_origin
from tavla.server.federations.games import GameAccess, can_moderate_chat, can_observe, can_warn
from tavla.server.federations.standing import Standing, standing_of
from tavla.server.gameplay import dispatch, error, game_access, whole
from tavla.server.i18n import LANGUAGE_COOKIE, N_, choose_language
from tavla.server.live.room import official, reads_chat
from tavla.server.lobby import LOBBY_TOPIC, user_topic
from tavla.server.nul import NUL_REFUSED, holds_nul
from tavla.server.platform import Platform
from tavla.server.security import RateLimiter
from tavla.server.ws_guard import address_of, parse, receive_text, refused_too_often
from tavla.storage.models import LiveGame

router = APIRouter()

MAX_MESSAGE = 4096
"""The longest message a client may send (the longest intent is far shorter)."""
QUEUE_LIMIT = 256
"""Messages waiting for a slow client before it is cut off (it reconnects and syncs)."""
WRITER_GRACE_S = 1.0
"""How long a dropped socket's writer may take to send what was queued and the close."""


class Connection:
    """One websocket: a seat (or None), the language its refusals are written in, and a
    queue its writer task empties in order."""

    def __init__(
        self,
        socket: WebSocket,
        seat: int | None,
        language: str = "en",
        *,
        arbiter: bool = False,
        may_warn: bool = False,
    ) -> None:
        self.socket = socket
        self.seat = seat
        self.language = language
        self.arbiter = arbiter
        self.may_warn = may_warn
        self.queue: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1013
        self.relay_id = ""
        """Its name in the relay, when another process owns its game (relay.py)."""

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message: an object, or its JSON text already made."""
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.drop(1013)
            return
        self.queue.put_nowait(message)

    def drop(self, code: int = 1012) -> None:
        """Close the socket after what is queued: 1012, its game moved to another
        process (the client reconnects); 1013, it read too slowly."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.queue.put_nowait(None)

    async def writer(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                with contextlib.suppress(Exception):
                    await self.socket.close(code=self.close_code)
                return
            text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
            await self.socket.send_text(text)


async def let_the_writer_finish(connection: Connection, writer: asyncio.Task[None]) -> None:
    """A dropped socket's writer sends what was queued and the close that tells the client
    to come back. It has ``WRITER_GRACE_S`` for it: a client that stopped reading, or a
    socket that fails under it, must not keep the handler from leaving the room."""
    if connection.closed and not writer.done():
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(writer), WRITER_GRACE_S)


async def _handshake(socket: WebSocket) -> tuple[Platform, SessionInfo | None] | None:
    platform: Platform = socket.app.state.platform
    origin = socket.headers.get("origin")
    if origin is not None and not same_origin(socket, origin, platform):  # type: ignore[arg-type]
        await socket.close(code=1008, reason="origin not allowed")
        return None
    limits, address = platform.limits, address_of(socket, platform.settings)
    if await refused_too_often(socket, limits.connections_by_address, address, _language(socket, None)):
        return None
    async with platform.sessions() as db:
        info = await session_of(db, socket.cookies.get(SESSION_COOKIE), platform.settings.signing_key)
    if info is not None and await refused_too_often(
        socket, limits.connections_by_account, f"user:{info.user.id}", _language(socket, info)
    ):
        return None
    return platform, info


def _language(socket: WebSocket, info: SessionInfo | None) -> str:
    """The connection's language: the account's, else the page's choice, else the browser's."""
    return choose_language(
        None if info is None else info.user,
        socket.cookies.get(LANGUAGE_COOKIE),
        socket.headers.get("accept-language", ""),
    )


def _tracked(platform: Platform) -> contextlib.AbstractContextManager[None]:
    """Counts the calling handler among the platform's running handlers."""

    @contextlib.contextmanager
    def tracking() -> Iterator[None]:
        task = asyncio.current_task()
        if task is not None:
            platform.handlers.add(task)
        try:
            yield
        finally:
            if task is not None:
                platform.handlers.discard(task)

    return tracking()


@router.websocket("/ws/game/{game_id}")
async def game_socket(socket: WebSocket, game_id: str) -> None:
    with _tracked(socket.app.state.platform):
        await _game_socket(socket, game_id)


async def _game_socket(socket: WebSocket, game_id: str) -> None:
    shook = await _handshake(socket)
    if shook is None:
        return
    platform, info = shook
    # The game's room is here, or this process relays to the one that owns it.
    room, owner = await platform.rooms.locate(game_id)
    # A match that ended is shown as it ended, wherever its room ran, to who may see it.
    final = None if room is not None or owner is not None else await platform.rooms.final(game_id)
    shown = room or final
    access = game_access(shown) if shown is not None else await _stored_access(platform, game_id)
    if access is None or (shown is None and owner is None):
        await socket.close(code=4404, reason="no live game with this id")
        return
    user_id = None if info is None else info.user.id
    seat = (
        None
        if user_id is None
        else next((i for i, user in enumerate(access.seat_user_ids) if user == user_id), None)
    )
    who = await _standing(platform, info)
    if seat is None and not can_observe(who, access):
        await socket.close(code=4403, reason="the players do not allow spectators")
        return
    await socket.accept()
    connection = Connection(
        socket,
        seat,
        _language(socket, info),
        arbiter=can_moderate_chat(who, access),
        may_warn=can_warn(who, access),
    )
    writer = asyncio.create_task(connection.writer())
    limiter = RateLimiter(platform.settings.messages_per_second, 1.0)
    # Messages count per account over all its sockets (per address for a spectator without one).
    account = f"user:{user_id}" if user_id is not None else f"address:{address_of(socket, platform.settings)}"
    relay = platform.relay
    if final is not None:
        connection.send(final.view(seat, reads_chat=reads_chat(connection), official=official(connection)))
    elif room is not None:
        await whole(room.join(connection))
    elif owner is None or not await relay.attach(game_id, owner, connection, seat, user_id):
        connection.drop()
    try:
        while not connection.closed:
            text = await receive_text(socket)
            # Every frame counts, binary and oversized ones too: a flood of any kind is slowed.
            if limiter.retry_after("socket") or await platform.limits.actions_by_account.retry_after(account):
                connection.send(error(connection, "rate_limited", N_("too many messages; slow down")))
                continue
            if text is None:
                connection.send(error(connection, "malformed", N_("a message is one JSON object")))
                continue
            if len(text) > MAX_MESSAGE:
                connection.send(
                    error(
                        connection, "malformed", N_("a message is at most {limit} bytes"), limit=MAX_MESSAGE
                    )
                )
                continue
            try:
                message = parse(text)
            except ValueError:
                connection.send(error(connection, "malformed", N_("a message is one JSON object")))
                continue
            if not isinstance(message, dict):
                connection.send(error(connection, "malformed", N_("a message is one JSON object")))
                continue
            # (JSON's reader lets a NUL into a string only through this escape.)
            if "\\u0000" in text and holds_nul(message):
                connection.send(error(connection, "malformed", NUL_REFUSED))
                continue
            if shown is not None:
                # (A finished room refuses every action as over; it stores nothing.)
                await dispatch(platform, shown, connection, user_id, message)
            else:
                relay.forward(connection, message)
    except WebSocketDisconnect:
        pass
    finally:
        await let_the_writer_finish(connection, writer)
        connection.closed = True
        writer.cancel()
        if room is not None:
            await whole(room.leave(connection))
        elif final is None:
            relay.detach(connection)


async def _stored_access(platform: Platform, game_id: str) -> GameAccess | None:
    """The watching rules of a live game another process runs, as stored."""
    async with platform.sessions() as db:
        row = await db.get(LiveGame, game_id)
    if row is None or row.status != "live":
        return None
    users = (
        None if row.seat0_bot is not None else row.seat0_user_id,
        None if row.seat1_bot is not None else row.seat1_user_id,
    )
    return GameAccess(users, row.spectators, row.federation_id)


async def _standing(platform: Platform, info: SessionInfo | None) -> Standing:
    async with platform.sessions() as db:
        return await standing_of(db, None if info is None else info.user)


@router.websocket("/ws/lobby")
async def lobby_socket(socket: WebSocket) -> None:
    shook = await _handshake(socket)
    if shook is None:
        return
    platform, info = shook
    await socket.accept()
    connection = Connection(socket, None)
    writer = asyncio.create_task(connection.writer())
    unsubscribe = platform.hub.subscribe(LOBBY_TOPIC, connection.send)
    # A signed-in player hears, here, that somebody accepted their offer.
    unsubscribe_own = (
        platform.hub.subscribe(user_topic(info.user.id), connection.send)
        if info is not None
        else lambda: None
    )
    connection.send(await platform.lobby.snapshot())
    try:
        while True:
            await receive_text(socket)  # the lobby socket only listens; anything sent is ignored
    except WebSocketDisconnect:
        pass
    finally:
        unsubscribe()
        unsubscribe_own()
        writer.cancel()
