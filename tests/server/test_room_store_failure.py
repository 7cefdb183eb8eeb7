"""A change the database refuses is neither adopted, acknowledged nor shown (docs/API.md 6);
the changes of the server's own (a flag, a bot's move) are tried again, a bot's a few times."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

from tavla.match.actions import ActionKind, MatchAction
from tavla.match.clock import ClockSettings
from tavla.match.settings import MatchSettings
from tavla.match.state import new_state
from tavla.server.gameplay import finish_running, whole
from tavla.server.live import room as room_module
from tavla.server.live.bots import BotChooser
from tavla.server.live.changes import Change
from tavla.server.live.dicefeed import DiceFeed
from tavla.server.live.room import Room, SeatInfo
from tavla.server.live.thinking import BotThinking


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
        self.refused = 0
        self.stored: list[Change] = []

    async def __call__(self, room: Room, change: Change) -> None:
        if self.fail:
            self.refused += 1
            raise OSError("disk full")
        self.stored.append(change)


PEOPLE = (SeatInfo("ayse", 1, None), SeatInfo("ivan", 2, None))
BOTS = (SeatInfo("bot one", None, "medium"), SeatInfo("bot two", None, "medium"))


def a_room(
    game_id: str,
    seats: tuple[SeatInfo, SeatInfo],
    store: Any,
    clock: ClockSettings | None = None,
    **options: Any,
) -> Room:
    """A room of a new tabla match between ``seats`` on ``clock``, storing through
    ``store``; ``options`` are the room's."""
    settings = MatchSettings(game="tabla", names=(seats[0].name, seats[1].name), clock=clock)
    feed = DiceFeed(("a", "b"), [], "ab" * 32)
    return Room(game_id, settings, seats, new_state(settings), [], feed, save=store, **options)


async def start(room: Room) -> None:
    """The match begins: the opening roll is made and stored."""
    async with room.lock:
        started = Change(state=room.state)
        room._apply(started, MatchAction(ActionKind.START, None, "", room.now()))
        room._advance(started)
        await room._commit(started)


async def _scenario() -> None:
    store = FlakyStore()
    room = a_room("g1", PEOPLE, store)
    await start(room)
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
    assert refusal["message"] == "the server could not store this; nothing changed, try again"
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
    # A chat line the database refused: the writer is told, and nothing is shown.
    await room.say(viewer, 3, "merhaba")
    refusal = viewer.messages[-1]
    assert isinstance(refusal, dict) and (refusal["code"], refusal["seq"]) == ("unavailable", 3)
    assert room.chat == []
    store.fail = False
    await room.say(viewer, 3, "merhaba")
    assert [line.text for line in room.chat] == ["merhaba"]
    # An older line than the last accepted is refused; the same one again is acknowledged.
    await room.say(viewer, 2, "eski")
    assert isinstance(viewer.messages[-1], dict) and viewer.messages[-1]["code"] == "old_seq"
    await room.say(viewer, 3, "merhaba")
    assert viewer.messages[-1] == {"type": "ack", "seq": 3, "v": room.book.version}
    assert [line.text for line in room.chat] == ["merhaba"]
    room.close()


def test_a_refused_store_changes_nothing_and_the_same_intent_succeeds_later() -> None:
    asyncio.run(_scenario())


async def _until(condition: Callable[[], bool], within_s: float = 10.0) -> None:
    """Wait for an outcome rather than a fixed time: on a loaded machine the loop's
    timers come late."""
    deadline = time.monotonic() + within_s
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(0.01)


async def _flag_scenario() -> None:
    store = FlakyStore()
    # Loaded an hour into the match: the timer counts from the room's clock, not from 0.
    room = a_room("g2", PEOPLE, store, ClockSettings(move_ms=0, reserve_ms=200), clock_base_ms=3_600_000)
    await start(room)
    assert room.state.actor is not None and not room.state.over
    store.fail = True  # the database is away when the flag falls
    await _until(lambda: store.refused > 0)
    assert not room.state.over
    store.fail = False
    await _until(lambda: room.state.over)
    assert room.state.over and [result.reason for result in room.state.results] == ["flag"]
    assert store.stored[-1].actions[-1].kind == ActionKind.FLAG
    room.close()


def test_a_flag_the_database_refused_falls_once_it_is_back() -> None:
    """The timer's own changes have nobody to ask for them again: the room retries."""
    asyncio.run(_flag_scenario())


class FailingBot:
    """A bot whose thinking fails ``failures`` times, then plays as the site's bot does."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0
        self.chooser = BotChooser(50, BotThinking(0))

    async def __call__(self, room: Room, seat: int) -> dict[str, Any] | None:
        self.calls += 1
        if self.calls <= self.failures:
            raise RuntimeError("the engine failed")
        return await self.chooser(room, seat)


async def _bot_scenario(failures: int, settled: Callable[[FailingBot, Room], bool]) -> tuple[int, int, int]:
    """(the bot's calls, the version before, the version once ``settled`` holds and a
    while longer than every retry's delay has passed).

    The scenario waits for the outcome rather than for a fixed time: on a loaded
    machine the loop's callbacks come late, and a fixed wait would cut the retries short."""
    room = a_room("g3", BOTS, FlakyStore())
    bot = FailingBot(failures)
    room.bot_chooser = bot
    await start(room)
    version = room.book.version
    await _until(lambda: settled(bot, room))
    await asyncio.sleep(0.1 + sum(room_module.BOT_RETRIES_S))
    after = room.book.version
    room.close()
    await bot.chooser.thinking.aclose()
    return bot.calls, version, after


def test_a_bot_whose_thinking_fails_tries_again_and_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(room_module, "BOT_RETRIES_S", (0.05, 0.1, 0.2))
    calls, version, after = asyncio.run(_bot_scenario(2, lambda bot, room: bot.calls > 3))
    assert calls > 3 and after > version  # two failures, then the bots play on


def test_a_bot_that_keeps_failing_stops_after_its_retries(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(room_module, "BOT_RETRIES_S", (0.01, 0.02, 0.03))
    calls, version, after = asyncio.run(_bot_scenario(100, lambda bot, room: bot.calls >= 4))
    assert (calls, after) == (4, version)  # the first try and three more, then nothing
    # The operator's log says the bot gave up (the game waits for an arbiter).
    assert any("gives up after 4 failures" in record.getMessage() for record in caplog.records)
    # Each failure is there with its game and its traceback.
    failed = [r for r in caplog.records if r.getMessage() == "bot of game g3 failed"]
    assert len(failed) == 4 and all(record.exc_info is not None for record in failed)


async def _bot_store_scenario() -> tuple[int, int, int]:
    """(the refused saves, the version once the database refused the bot's move, the
    version once it is back)."""
    store = FlakyStore()
    room = a_room("g5", BOTS, store)
    chooser = BotChooser(50, BotThinking(0))
    await start(room)
    store.fail = True  # the database is away as the first bot's move is ready
    room.bot_chooser = chooser
    room.schedule()
    await _until(lambda: store.refused > 0)
    refused_at = room.book.version
    store.fail = False
    await _until(lambda: room.book.version > refused_at)
    after = room.book.version
    room.close()
    await chooser.thinking.aclose()
    return store.refused, refused_at, after


def test_a_bot_s_move_the_database_refused_is_stored_once_it_is_back() -> None:
    refused, refused_at, after = asyncio.run(_bot_store_scenario())
    assert refused >= 1 and after > refused_at


def test_stopping_waits_for_the_room_steps_still_running_but_not_for_ever() -> None:
    """The server lets every change in flight be stored whole before it closes the
    database, and stops anyway after its grace when a step never ends."""

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        done: list[str] = []

        async def short_step() -> None:
            await asyncio.sleep(0.05)
            done.append("stored")

        stuck = asyncio.ensure_future(whole(asyncio.sleep(3600)))
        finishing = asyncio.ensure_future(whole(short_step()))
        await asyncio.sleep(0)
        began = loop.time()
        await asyncio.wait_for(finish_running(timeout_s=0.3), 5)
        assert done == ["stored"] and finishing.done()
        assert 0.25 <= loop.time() - began < 2
        stuck.cancel()

    asyncio.run(scenario())
