"""Clocks (RULES.md 10, 8.3, 11.4): an immutable value driven by a fake time source."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.match.match_helpers import FakeTime, new_match

from tavla.core.errors import NotationError
from tavla.match.actions import ActionKind, MatchAction, apply_action
from tavla.match.clock import Clock, ClockSettings, parse_clock_spec, parse_duration_ms
from tavla.match.errors import ClockError, MatchError, TimeForfeitError
from tavla.match.state import BREAK_MS

W, B = 0, 1
SETTINGS = ClockSettings(move_ms=12_000, reserve_ms=60_000)


def test_allowance_runs_first_then_the_reserve() -> None:
    clock = Clock.new(SETTINGS).start(W, 0)
    assert clock.remaining(W, 5_000) == (7_000, 60_000)
    assert clock.remaining(W, 12_000) == (0, 60_000)
    assert clock.remaining(W, 20_000) == (0, 52_000)
    assert clock.remaining(B, 20_000) == (0, 60_000)


def test_reserve_is_not_restored_and_allowance_is_fresh_each_time() -> None:
    clock = Clock.new(SETTINGS).start(W, 0).start(B, 20_000)  # White used 8 s of reserve
    assert clock.reserve_ms == (52_000, 60_000)
    clock = clock.start(W, 21_000)  # Black within his allowance: nothing charged
    assert clock.reserve_ms == (52_000, 60_000)
    assert clock.remaining(W, 21_000) == (12_000, 52_000)
    clock = clock.start(B, 35_000)  # White 14 s: 2 s more from the reserve
    assert clock.reserve_ms == (50_000, 60_000)


def test_clock_is_a_value() -> None:
    clock = Clock.new(SETTINGS)
    started = clock.start(W, 100)
    assert clock.running is None and started.running == W
    assert started == Clock.new(SETTINGS).start(W, 100)


def test_flag_falls_when_allowance_and_reserve_are_used() -> None:
    clock = Clock.new(SETTINGS).start(B, 0)
    assert clock.flagged(71_999) is None
    assert clock.flagged(72_000) == B
    assert clock.stop(100_000).reserve_ms == (60_000, 0)
    assert Clock.new(SETTINGS).flagged(10**9) is None  # a stopped clock never flags


def test_time_cannot_run_backwards() -> None:
    clock = Clock.new(SETTINGS).start(W, 5_000)
    with pytest.raises(ClockError):
        clock.remaining(W, 4_999)


def test_new_game_restores_the_reserve_only_per_game() -> None:
    used = Clock.new(SETTINGS).start(W, 0).stop(30_000)
    assert used.reserve_ms == (42_000, 60_000)
    assert used.new_game().reserve_ms == (60_000, 60_000)
    sudden = Clock.new(ClockSettings.sudden_death(60_000)).start(W, 0).stop(30_000)
    assert sudden.new_game().reserve_ms == (30_000, 60_000)


def test_clock_specs() -> None:
    """RULES.md 10 defaults: 12 s a move, 2 min of reserve per match point."""
    assert parse_clock_spec("12s+2m", 7) == ClockSettings(12_000, 14 * 60_000, True, "game")
    assert parse_clock_spec("12s+2m", 0).reserve_ms == 120_000  # a single game: 2 min
    assert parse_duration_ms("1500ms") == 1500
    assert parse_duration_ms("90") == 90_000
    for bad in ("12", "12x+2m", "s+2m"):
        with pytest.raises(NotationError):
            parse_clock_spec(bad, 3)
    with pytest.raises(ClockError):
        ClockSettings(flag_loses="set")


def test_clock_follows_the_player_who_acts() -> None:
    """RULES.md 10 (decision): the answer to a double is charged to the one who answers."""
    time = FakeTime()
    match = new_match(time, length=5, clock=ClockSettings(12_000, 60_000))
    assert match.state.clock is not None and match.state.clock.running is None  # before the opening
    match.roll((5, 2))
    assert match.state.clock.running == W
    time.advance(20_000)
    match.move(W, "13/8 13/11")
    assert match.state.clock.running == B and match.state.clock.reserve_ms == (52_000, 60_000)
    time.advance(1_000)
    match.double(B)
    assert match.state.clock.running == W
    time.advance(15_000)
    match.take(W)
    assert match.state.clock.running == B
    assert match.state.clock.reserve_ms == (49_000, 60_000)


def test_flag_loses_the_game_at_the_top_score() -> None:
    """RULES.md 10: running out of reserve loses the game for 3 x the cube."""
    time = FakeTime()
    match = new_match(time, length=9, clock=ClockSettings(12_000, 60_000))
    match.roll((5, 2))
    match.move(W, "13/8 13/11")
    match.double(B)
    match.take(W)
    time.advance(72_000)
    before = len(match.actions)
    with pytest.raises(TimeForfeitError) as raised:
        match.roll((3, 1))
    assert raised.value.seat == B
    assert len(match.actions) == before + 1 and match.actions[-1].kind == "flag"
    result = match.state.result
    assert result is not None and (result.winner, result.points, result.reason) == (W, 6, "flag")
    assert match.state.score == (6, 0) and not match.state.over


def test_flag_can_lose_the_match_and_check_time_records_it() -> None:
    time = FakeTime()
    match = new_match(time, length=9, clock=ClockSettings(12_000, 60_000, True, "match"))
    match.roll((5, 2))
    time.advance(71_999)
    assert match.check_time() is None
    time.advance(1)
    assert match.check_time() == W
    assert match.state.over and match.state.winner == B and match.state.score == (0, 3)


def test_breaks_between_games_stop_the_clock() -> None:
    """RULES.md 11.4: one break up to 11 points, 5 minutes, clocks stopped meanwhile."""
    time = FakeTime()
    settings = ClockSettings(12_000, 600_000, per_game=False)  # keep reserves across games to see it
    match = new_match(time, length=7, clock=settings)
    match.roll((5, 2))
    time.advance(30_000)
    match.move(W, "13/8 13/11")
    time.advance(2_000)
    match.resign(B, "single")
    match.accept(W)
    reserves = match.state.clock.reserve_ms  # type: ignore[union-attr]
    assert reserves == (582_000, 600_000) and match.state.clock.running is None  # type: ignore[union-attr]
    match.take_break(B)
    time.advance(BREAK_MS - 1)
    with pytest.raises(MatchError):
        match.start_next_game()
    with pytest.raises(MatchError):
        match.take_break(B)  # one break per player up to 11 points
    time.advance(1)
    match.start_next_game()
    assert match.state.clock.reserve_ms == reserves  # type: ignore[union-attr]
    match.roll((6, 1))
    assert match.state.clock.running == W  # type: ignore[union-attr]


def test_two_breaks_from_thirteen_points() -> None:
    match = new_match(length=13)
    assert match.state.breaks_allowed == 2
    assert replace(match.state, settings=replace(match.settings, length=11)).breaks_allowed == 1


def test_a_stopped_clock_counts_from_the_moment_it_stopped() -> None:
    """RULES.md 10: stopping charges the runner and marks the stop as the clock's time."""
    stopped = Clock.new(SETTINGS).start(W, 1_000).stop(31_000)
    assert (stopped.running, stopped.since_ms, stopped.reserve_ms) == (None, 31_000, (42_000, 60_000))


def test_no_action_may_come_before_the_end_of_the_game_it_follows() -> None:
    """RULES.md 10, 11.4: the clock stops when a game ends; an action stamped before
    that moment is time running backwards."""
    time = FakeTime(1_000)
    match = new_match(time, length=3, clock=ClockSettings())
    match.roll((5, 2))
    time.advance(5_000)
    match.move(W, "13/8 13/11")
    time.advance(3_000)
    match.resign(B, "single")
    time.advance(4_000)
    match.accept(W)
    state = match.state
    assert state.phase == "between" and state.clock is not None
    assert (state.clock.running, state.clock.since_ms) == (None, 13_000)
    with pytest.raises(MatchError, match=r"^break at 12999 ms: time went backwards$"):
        apply_action(state, MatchAction(ActionKind.BREAK, W, "", 12_999))
    assert apply_action(state, MatchAction(ActionKind.BREAK, W, "", 13_000))[0].breaks_used == (1, 0)
