"""A change the database refuses is neither adopted, acknowledged nor shown (docs/API.md 6)."""

from __future__ import annotations

import asyncio
from typing import Any

from tavla.match.actions import ActionKind, MatchAction
from tavla.match.clock import ClockSettings
from tavla.match.settings import MatchSettings
from tavla.match.state import new_state
from tavla.server.live.changes import Change
from tavla.server.live.dicefeed import DiceFeed
from tavla.server.live.room import STORE_RETRY_S, Room, SeatInfo


class Viewer:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.language = "en"
        self.arbiter = False
        self.may_warn = False
        self.messages: list[dict[str, Any] | str] = []  # a broadcast comes as its JSON text

    def send(self, message: dict[str, Any] | str) -> None:
        self.messages.append(message)


class FlakyStore:
    def __init__(self) -> None:
        self.fail = False
        self.stored: list[Change] = []

    async def __call__(self, room: Room, change: Change) -> None:
        if self.fail:
            raise OSError("disk full")
        self.stored.append(change)


async def _scenario() -> None:
    store = FlakyStore()
    settings = MatchSettings(game="tabla", names=("ayse", "ivan"))
    room = Room(
        "g1",
        settings,
        (SeatInfo("ayse", 1, None), SeatInfo("ivan", 2, None)),
        new_state(settings),
        [],
        DiceFeed(("a", "b"), [], "ab" * 32),
        save=store,
    )
    async with room.lock:
        start = Change(state=room.state)
        room._apply(start, MatchAction(ActionKind.START, None, "", room.now()))
        room._advance(start)
        await room._commit(start)
    seat = room.state.actor
    assert seat is not None and room.builder is not None
    viewer = Viewer(seat)
    room.viewers.append(viewer)
    step = room.builder.legal_steps()[0]
    before = (room.book.version, list(room.book.last_seq), room.pending_steps, room.state)

    store.fail = True
    await room.intent(viewer, 1, room.book.version, {"kind": "step", "step": step})
    refusal = viewer.messages[-1]
    assert isinstance(refusal, dict) and refusal["type"] == "error" and refusal["code"] == "unavailable"
    assert (room.book.version, list(room.book.last_seq), room.pending_steps, room.state) == before

    store.fail = False
    await room.intent(viewer, 1, room.book.version, {"kind": "step", "step": step})
    assert viewer.messages[-2] == {"type": "ack", "seq": 1, "v": before[0] + 1}
    assert room.pending_steps == [step]

    store.fail = True
    await room.intent(viewer, 2, room.book.version, {"kind": "undo"})
    refusal = viewer.messages[-1]
    assert isinstance(refusal, dict) and refusal["code"] == "unavailable"
    assert room.pending_steps == [step]  # the undo was taken back
    room.close()


def test_a_refused_store_changes_nothing_and_the_same_intent_succeeds_later() -> None:
    asyncio.run(_scenario())


async def _flag_scenario() -> None:
    store = FlakyStore()
    clock = ClockSettings(move_ms=0, reserve_ms=200)
    settings = MatchSettings(game="tabla", names=("ayse", "ivan"), clock=clock)
    room = Room(
        "g2",
        settings,
        (SeatInfo("ayse", 1, None), SeatInfo("ivan", 2, None)),
        new_state(settings),
        [],
        DiceFeed(("a", "b"), [], "ab" * 32),
        save=store,
    )
    async with room.lock:
        start = Change(state=room.state)
        room._apply(start, MatchAction(ActionKind.START, None, "", room.now()))
        room._advance(start)
        await room._commit(start)
    assert room.state.actor is not None and not room.state.over
    store.fail = True  # the database is away when the flag falls
    await asyncio.sleep(0.5)
    assert not room.state.over
    store.fail = False
    await asyncio.sleep(2 * STORE_RETRY_S + 0.2)
    assert room.state.over and [result.reason for result in room.state.results] == ["flag"]
    assert store.stored[-1].actions[-1].kind == ActionKind.FLAG
    room.close()


def test_a_flag_the_database_refused_falls_once_it_is_back() -> None:
    """The timer's own changes have nobody to ask for them again: the room retries."""
    asyncio.run(_flag_scenario())
