"""A change whose storing broke off with the connection (docs/API.md 6): stored or not,
nobody knows, so the room is not trusted; it is built again from the database, where
the player's intent sent again with the same seq is acknowledged once, or applied once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from tests.server.test_room_store_failure import Viewer

from tavla.match.settings import MatchSettings
from tavla.server.live.changes import Change
from tavla.server.live.room import Room, SeatInfo
from tavla.server.live.rooms import Rooms
from tavla.storage.database import migrate, open_engine, sessions

pytestmark = pytest.mark.timeout(60)


def last_answer(viewer: Viewer) -> dict[str, Any]:
    """The last ack or error (the states a room broadcasts come as ready JSON text)."""
    return next(m for m in reversed(viewer.messages) if isinstance(m, dict) and m["type"] in ("ack", "error"))


async def _scenario(folder: Path) -> None:
    engine = open_engine(f"sqlite:///{folder / 'tavla.db'}")
    await migrate(engine)
    rooms = Rooms(sessions(engine), one_writer=True)
    settings = MatchSettings(game="tabla", names=("ayse", "ivan"))
    seats = (SeatInfo("ayse", None, None), SeatInfo("ivan", None, None))
    room = await rooms.create(settings, seats, client_seeds=("a", "b"))
    seat = room.state.actor
    assert seat is not None and room.builder is not None
    viewer = Viewer(seat)
    room.viewers.append(viewer)
    seq = 0
    while not room.builder.complete:  # the whole turn but its commit
        seq += 1
        await room.intent(
            viewer, seq, room.book.version, {"kind": "step", "step": room.builder.legal_steps()[0]}
        )
        assert last_answer(viewer)["type"] == "ack"
    actions = len(room.actions)
    seq += 1
    await room.say(viewer, seq, "iyi oyunlar")
    assert last_answer(viewer)["type"] == "ack"

    store = rooms.rows.store

    async def stored_then_cut(room: Room, change: Change) -> None:
        await store(room, change)  # committed, but the answer never came back
        raise OperationalError(
            "COMMIT", {}, OSError("server closed the connection"), connection_invalidated=True
        )

    rooms.rows.store = stored_then_cut  # type: ignore[method-assign]
    seq += 1
    await room.intent(viewer, seq, room.book.version, {"kind": "commit"})
    assert last_answer(viewer)["code"] == "unavailable"
    rooms.rows.store = store  # type: ignore[method-assign]
    await asyncio.sleep(0)
    assert room.closed and room.game_id not in rooms.rooms

    # Nobody comes back, and yet the process builds the game again: it still holds it.
    await rooms.renew()
    again = rooms.rooms[room.game_id]
    assert again is not room and len(again.actions) == actions + 1
    assert again.book.last_seq[seat] == seq
    # The player's intent, sent again: the same ack, nothing applied twice.
    viewer.messages.clear()
    await again.intent(viewer, seq, again.book.version, {"kind": "commit"})
    assert last_answer(viewer) == {"type": "ack", "seq": seq, "v": again.book.version}
    assert len(again.actions) == actions + 1
    # What was said at the board is read back too, each line with its speaker.
    assert [(line.seat, line.text) for line in again.chat] == [
        (seat, "iyi oyunlar")
    ] and room.chat == again.chat
    rooms.close()
    await engine.dispose()


def test_a_change_cut_off_in_its_commit_is_read_back_not_guessed(tmp_path: Path) -> None:
    asyncio.run(_scenario(tmp_path))
