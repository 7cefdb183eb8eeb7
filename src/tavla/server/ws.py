"""The websockets: ``/ws/game/{id}`` (play or watch) and ``/ws/lobby`` (docs/API.md).

The handler only translates and authorises: it reads a message, checks who sent
it, and hands it to the game's room; the room decides and answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Coroutine, Iterator
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from tavla.server.accounts import SessionInfo, session_of
from tavla.server.deps import SESSION_COOKIE, same_origin
from tavla.server.federations.games import GameAccess, can_moderate_chat, can_observe, can_warn
from tavla.server.federations.observing import MAY_NOT_WARN, NOT_A_TOURNAMENT_GAME
from tavla.server.federations.standing import Standing, standing_of
from tavla.server.i18n import LANGUAGE_COOKIE, N_, choose_language, translate
from tavla.server.limits import Limit, client_address
from tavla.server.live.room import Refused, Room, official, reads_chat
from tavla.server.lobby import LOBBY_TOPIC, user_topic
from tavla.server.platform import Platform
from tavla.server.security import RateLimiter

router = APIRouter()

MAX_MESSAGE = 4096
"""The longest message a client may send (the longest intent is far shorter)."""
QUEUE_LIMIT = 256
"""Messages waiting for a slow client before it is cut off (it reconnects and syncs)."""


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

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message: an object, or its JSON text already made."""
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)

    async def writer(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                with contextlib.suppress(Exception):
                    await self.socket.close(code=1013)
                return
            text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
            await self.socket.send_text(text)


RATE_LIMITED = 4429
"""The close code of a connection refused because its address or account opened too many."""


async def _handshake(socket: WebSocket) -> tuple[Platform, SessionInfo | None] | None:
    platform: Platform = socket.app.state.platform
    origin = socket.headers.get("origin")
    if origin is not None and not same_origin(socket, origin, platform):  # type: ignore[arg-type]
        await socket.close(code=1008, reason="origin not allowed")
        return None
    limits = platform.limits
    if await _refused_too_often(socket, None, limits.connections_by_address, _address(socket)):
        return None
    async with platform.sessions() as db:
        info = await session_of(db, socket.cookies.get(SESSION_COOKIE), platform.settings.signing_key)
    if info is not None and await _refused_too_often(
        socket, info, limits.connections_by_account, f"user:{info.user.id}"
    ):
        return None
    return platform, info


def _address(socket: WebSocket) -> str:
    platform: Platform = socket.app.state.platform
    peer = socket.client.host if socket.client else None
    return client_address(peer, socket.headers, platform.settings.trusted_proxies)


async def _refused_too_often(socket: WebSocket, info: SessionInfo | None, limit: Limit, key: str) -> bool:
    wait = await limit.retry_after(key)
    if not wait:
        return False
    reason = translate(
        _language(socket, info), N_("too many connections; try again in {seconds} s"), {"seconds": wait}
    )
    # A close frame's reason is at most 123 bytes.
    await socket.close(code=RATE_LIMITED, reason=reason.encode()[:123].decode(errors="ignore"))
    return True


async def _receive_text(socket: WebSocket) -> str | None:
    """The next text frame; None for a binary one (never a message here)."""
    frame = await socket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
    text = frame.get("text")
    return text if isinstance(text, str) else None


def _parse(text: str) -> object:
    """The JSON value of a message; ValueError when it is not JSON, or nests so deep
    that reading it would exhaust the stack."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None


async def _whole(work: Coroutine[Any, Any, None]) -> None:
    """Run a room's step to its end even if this connection's handler is cancelled
    meanwhile (a dropped client): a change is stored and adopted whole, or not at all.
    The server waits for such steps before it closes the database."""
    task = asyncio.ensure_future(work)
    _running.add(task)
    task.add_done_callback(_running.discard)
    await asyncio.shield(task)


_running: set[asyncio.Task[None]] = set()


async def finish_running(timeout_s: float = 5.0) -> None:
    """Wait for the room steps still running (at shutdown)."""
    if _running:
        await asyncio.wait(list(_running), timeout=timeout_s)


def _error(
    connection: Connection, code: str, template: str, seq: object = None, /, **params: object
) -> dict[str, Any]:
    message = translate(connection.language, template, params)
    return {"type": "error", "seq": seq if type(seq) is int else None, "code": code, "message": message}


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
    room = await platform.rooms.get(game_id)
    if room is None:
        await socket.close(code=4404, reason="no live game with this id")
        return
    seat = None
    if info is not None:
        seat = next(
            (i for i, s in enumerate(room.seats) if s.user_id == info.user.id and s.bot is None), None
        )
    who = await _standing(platform, info)
    if seat is None and not can_observe(who, game_access(room)):
        await socket.close(code=4403, reason="the players do not allow spectators")
        return
    await socket.accept()
    access = game_access(room)
    connection = Connection(
        socket,
        seat,
        _language(socket, info),
        arbiter=can_moderate_chat(who, access),
        may_warn=can_warn(who, access),
    )
    writer = asyncio.create_task(connection.writer())
    limiter = RateLimiter(platform.settings.messages_per_second, 1.0)
    account = f"user:{info.user.id}" if info is not None else f"address:{_address(socket)}"
    await _whole(room.join(connection))
    try:
        while not connection.closed:
            text = await _receive_text(socket)
            if text is None:
                connection.send(_error(connection, "malformed", N_("a message is one JSON object")))
                continue
            if len(text) > MAX_MESSAGE:
                connection.send(
                    _error(
                        connection, "malformed", N_("a message is at most {limit} bytes"), limit=MAX_MESSAGE
                    )
                )
                continue
            if limiter.retry_after("socket") or await platform.limits.actions_by_account.retry_after(account):
                connection.send(_error(connection, "rate_limited", N_("too many messages; slow down")))
                continue
            try:
                message = _parse(text)
            except ValueError:
                connection.send(_error(connection, "malformed", N_("a message is one JSON object")))
                continue
            if not isinstance(message, dict):
                connection.send(_error(connection, "malformed", N_("a message is one JSON object")))
                continue
            kind = message.get("type")
            if kind == "intent":
                await _whole(
                    room.intent(connection, message.get("seq"), message.get("v"), message.get("action"))
                )
            elif kind == "chat":
                await _whole(room.say(connection, message.get("seq"), message.get("text")))
            elif kind == "close_chat":
                await _close_chat(platform, info, room, connection, message.get("seq"))
            elif kind == "warn":
                decision = room.warn(message.get("seat"), message.get("note", ""))
                await _officiate(platform, info, room, connection, message, decision)
            elif kind == "forfeit":
                decision = room.forfeit(message.get("seat"), message.get("note", ""))
                await _officiate(platform, info, room, connection, message, decision)
            elif kind == "sync":
                connection.send(
                    room.view(
                        connection.seat, reads_chat=reads_chat(connection), official=official(connection)
                    )
                )
            else:
                connection.send(
                    _error(
                        connection,
                        "malformed",
                        N_("unknown message type {kind}"),
                        message.get("seq"),
                        kind=repr(kind),
                    )
                )
    except WebSocketDisconnect:
        pass
    finally:
        connection.closed = True
        writer.cancel()
        await _whole(room.leave(connection))


def game_access(room: Room) -> GameAccess:
    """What the rules of watching read of a live game (federations/games.py)."""
    users = tuple(None if seat.bot is not None else seat.user_id for seat in room.seats)
    return GameAccess((users[0], users[1]), room.spectators, room.federation_id)


async def _standing(platform: Platform, info: SessionInfo | None) -> Standing:
    async with platform.sessions() as db:
        return await standing_of(db, None if info is None else info.user)


async def _close_chat(
    platform: Platform, info: SessionInfo | None, room: Room, connection: Connection, seq: object
) -> None:
    # The standing is read again: an arbiter dismissed since he connected closes nothing.
    if not connection.arbiter or not can_moderate_chat(await _standing(platform, info), game_access(room)):
        connection.send(
            _error(
                connection,
                "forbidden",
                N_("only an arbiter of this game's federation may close its chat"),
                seq,
            )
        )
        return
    await _whole(room.close_chat())
    connection.send({"type": "ack", "seq": seq if type(seq) is int else None, "v": room.book.version})


async def _officiate(
    platform: Platform,
    info: SessionInfo | None,
    room: Room,
    connection: Connection,
    message: dict[str, Any],
    decision: Coroutine[Any, Any, None],
) -> None:
    """An official's warning or forfeit from the board (RULES.md 8.3, 11.4): run only for
    an arbiter or administrator of the game's federation, whose standing is read again,
    as for closing the chat."""
    seq = message.get("seq")
    if room.federation_id is None:
        decision.close()
        connection.send(_error(connection, "forbidden", NOT_A_TOURNAMENT_GAME, seq))
        return
    if not connection.may_warn or not can_warn(await _standing(platform, info), game_access(room)):
        decision.close()
        connection.send(_error(connection, "forbidden", MAY_NOT_WARN, seq))
        return
    try:
        await _whole(decision)
    except Refused as refused:
        connection.send(_error(connection, refused.code, refused.template, seq, **refused.params))
        return
    connection.send({"type": "ack", "seq": seq if type(seq) is int else None, "v": room.book.version})


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
            await _receive_text(socket)  # the lobby socket only listens; anything sent is ignored
    except WebSocketDisconnect:
        pass
    finally:
        unsubscribe()
        unsubscribe_own()
        writer.cancel()
