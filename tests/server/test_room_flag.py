"""A flag that has fallen before the room's timer saw it (RULES.md 10): the player's next
intent finds it, is refused, and the fall is recorded."""

from __future__ import annotations

import asyncio

import pytest
from tests.server.test_room_store_failure import FlakyStore, Viewer

from tavla.match.actions import ActionKind, MatchAction
from tavla.match.clock import ClockSettings
from tavla.match.settings import MatchSettings
from tavla.match.state import new_state
from tavla.server.live import room as room_module
from tavla.server.live.changes import Change
from tavla.server.live.dicefeed import DiceFeed
from tavla.server.live.room import Room, SeatInfo

pytestmark = pytest.mark.timeout(30)


async def _late_intent() -> tuple[Room, FlakyStore, Viewer]:
    store = FlakyStore()
    settings = MatchSettings(
        game="tabla", names=("ayse", "ivan"), clock=ClockSettings(move_ms=0, reserve_ms=100)
    )
    room = Room(
        "g4",
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
    await asyncio.sleep(0.3)  # the reserve is spent; the room's timer waits out its long margin
    assert not room.state.over
    await room.intent(viewer, 1, room.book.version, {"kind": "step", "step": room.builder.legal_steps()[0]})
    room.close()
    return room, store, viewer


def test_an_intent_after_the_time_ran_out_records_the_fall_and_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(room_module, "FLAG_MARGIN_MS", 60_000)
    room, store, viewer = asyncio.run(_late_intent())
    refusal = viewer.messages[-1]
    assert isinstance(refusal, dict)
    assert (refusal["code"], refusal["message"]) == ("illegal", "your time ran out: the flag fell")
    assert room.state.over and [result.reason for result in room.state.results] == ["flag"]
    assert store.stored[-1].actions[-1].kind == ActionKind.FLAG
    assert room.pending_steps == []  # the step itself was not taken
