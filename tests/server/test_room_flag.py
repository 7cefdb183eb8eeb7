"""A flag that has fallen before the room's timer saw it (RULES.md 10): the player's next
intent finds it, is refused, and the fall is recorded."""

from __future__ import annotations

import asyncio

import pytest
from tests.server.test_room_store_failure import PEOPLE, FlakyStore, Viewer, a_room, start

from tavla.match.actions import ActionKind
from tavla.match.clock import ClockSettings
from tavla.server.live import room as room_module
from tavla.server.live.room import Room

pytestmark = pytest.mark.timeout(30)


async def _late_intent() -> tuple[Room, FlakyStore, Viewer]:
    store = FlakyStore()
    room = a_room("g4", PEOPLE, store, ClockSettings(move_ms=0, reserve_ms=100))
    await start(room)
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
