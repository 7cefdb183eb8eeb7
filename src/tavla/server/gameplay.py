"""What a game's connection may ask of its room, decided in the process that owns the
game: for a socket of this process (ws.py), or one another process relays (relay.py).

A message has been read as one JSON object before it comes here; this checks who
may make it and hands it to the room, which decides and answers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from tavla.server.federations.games import GameAccess, can_moderate_chat, can_warn
from tavla.server.federations.observing import MAY_NOT_WARN, NOT_A_TOURNAMENT_GAME
from tavla.server.federations.standing import Standing, standing_of
from tavla.server.i18n import N_, translate
from tavla.server.live.basics import Viewer
from tavla.server.live.room import Refused, Room, official, reads_chat
from tavla.storage.models import User

if TYPE_CHECKING:
    from tavla.server.platform import Platform


async def whole(work: Coroutine[Any, Any, None]) -> None:
    """Run a room's step to its end even if the connection's handler is cancelled
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


def error(
    viewer: Viewer, code: str, template: str, seq: object = None, /, **params: object
) -> dict[str, Any]:
    message = translate(viewer.language, template, params)
    return {"type": "error", "seq": seq if type(seq) is int else None, "code": code, "message": message}


def game_access(room: Room) -> GameAccess:
    """What the rules of watching read of a live game (federations/games.py)."""
    users = tuple(None if seat.bot is not None else seat.user_id for seat in room.seats)
    return GameAccess((users[0], users[1]), room.spectators, room.federation_id)


async def standing(platform: Platform, user_id: int | None) -> Standing:
    """The standing the database holds now (read again for every official's act: an
    arbiter dismissed since he connected acts no more)."""
    async with platform.sessions() as db:
        user = None if user_id is None else await db.get(User, user_id)
        return await standing_of(db, user)


async def dispatch(
    platform: Platform, room: Room, viewer: Viewer, user_id: int | None, message: dict[str, Any]
) -> None:
    """Answer one message of the game's socket (docs/API.md) on the room that owns it."""
    kind = message.get("type")
    if kind == "intent":
        await whole(room.intent(viewer, message.get("seq"), message.get("v"), message.get("action")))
    elif kind == "chat":
        await whole(room.say(viewer, message.get("seq"), message.get("text")))
    elif kind == "close_chat":
        await _close_chat(platform, user_id, room, viewer, message.get("seq"))
    elif kind == "warn":
        decision = room.warn(message.get("seat"), message.get("note", ""))
        await _officiate(platform, user_id, room, viewer, message, decision)
    elif kind == "forfeit":
        decision = room.forfeit(message.get("seat"), message.get("note", ""))
        await _officiate(platform, user_id, room, viewer, message, decision)
    elif kind == "sync":
        viewer.send(room.view(viewer.seat, reads_chat=reads_chat(viewer), official=official(viewer)))
    else:
        viewer.send(
            error(viewer, "malformed", N_("unknown message type {kind}"), message.get("seq"), kind=repr(kind))
        )


async def _close_chat(
    platform: Platform, user_id: int | None, room: Room, viewer: Viewer, seq: object
) -> None:
    if not viewer.arbiter or not can_moderate_chat(await standing(platform, user_id), game_access(room)):
        viewer.send(
            error(
                viewer, "forbidden", N_("only an arbiter of this game's federation may close its chat"), seq
            )
        )
        return
    await whole(room.close_chat())
    viewer.send({"type": "ack", "seq": seq if type(seq) is int else None, "v": room.book.version})


async def _officiate(
    platform: Platform,
    user_id: int | None,
    room: Room,
    viewer: Viewer,
    message: dict[str, Any],
    decision: Coroutine[Any, Any, None],
) -> None:
    """An official's warning or forfeit from the board (RULES.md 8.3, 11.4): run only for
    an arbiter or administrator of the game's federation, whose standing is read again,
    as for closing the chat."""
    seq = message.get("seq")
    if room.federation_id is None:
        decision.close()
        viewer.send(error(viewer, "forbidden", NOT_A_TOURNAMENT_GAME, seq))
        return
    if not viewer.may_warn or not can_warn(await standing(platform, user_id), game_access(room)):
        decision.close()
        viewer.send(error(viewer, "forbidden", MAY_NOT_WARN, seq))
        return
    try:
        await whole(decision)
    except Refused as refused:
        viewer.send(error(viewer, refused.code, refused.template, seq, **refused.params))
        return
    viewer.send({"type": "ack", "seq": seq if type(seq) is int else None, "v": room.book.version})
