"""Breaks between games (RULES.md 11.4), the flag a clock check records (RULES.md 10),
and what the clock's text refusals say: the gaps the mutation run found here."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.match.match_helpers import FakeTime, new_match

from tavla.core.errors import NotationError
from tavla.core.protocol import OutcomeReason
from tavla.match.actions import ActionKind, MatchAction, apply_action
from tavla.match.clock import ClockSettings, parse_clock_spec, parse_duration_ms
from tavla.match.errors import MatchError, WrongPlayerError
from tavla.match.record import MatchRecord, replay
from tavla.match.settings import MatchSettings
from tavla.match.state import BREAK_MS, GameResult, MatchState, new_state


def after_a_game(settings: MatchSettings) -> MatchState:
    """The state between the first game and the second: the moment a break may be taken."""
    return replace(new_state(settings), game_number=1, result=GameResult(0, 1, OutcomeReason.SINGLE))


def take_break(state: MatchState, seat: int | None, t_ms: int = 5_000) -> MatchState:
    return apply_action(state, MatchAction(ActionKind.BREAK, seat, "", t_ms))[0]


def test_a_long_match_gives_each_player_two_breaks_counted_apart() -> None:
    state = after_a_game(MatchSettings(length=13))
    state = take_break(state, 0)
    assert state.breaks_used == (1, 0) and state.break_ends_ms == 5_000 + BREAK_MS
    state = take_break(state, 0, 6_000)
    assert state.breaks_used == (2, 0) and state.break_ends_ms == 6_000 + BREAK_MS
    with pytest.raises(MatchError, match=r"^player 0 has no break left \(2 per match\)$"):
        take_break(state, 0)
    state = take_break(state, 1)
    assert state.breaks_used == (2, 1)


def test_a_short_match_gives_one_break_and_money_play_none() -> None:
    state = take_break(after_a_game(MatchSettings(length=5)), 1)
    assert state.breaks_used == (0, 1)
    with pytest.raises(MatchError, match=r"^player 1 has no break left \(1 per match\)$"):
        take_break(state, 1)
    with pytest.raises(MatchError, match=r"\(0 per match\)"):
        take_break(after_a_game(MatchSettings(length=0)), 0)


def test_a_break_is_refused_during_a_game_and_without_a_player() -> None:
    match = new_match(length=5)
    match.roll()
    with pytest.raises(MatchError, match=r"^a break may only be taken between games \(RULES\.md 11\.4\)$"):
        take_break(match.state, 0, 10_000)
    with pytest.raises(WrongPlayerError, match=r"^a break is taken by player 0 or 1$"):
        take_break(after_a_game(MatchSettings(length=5)), None)


def test_a_clock_check_records_the_flag_of_the_player_whose_time_ran_out() -> None:
    time = FakeTime()
    match = new_match(time, length=3, clock=ClockSettings(move_ms=1_000, reserve_ms=2_000))
    match.roll()
    actor = match.state.actor
    assert actor is not None
    time.advance(2_999)
    assert match.check_time() is None and match.actions[-1].kind == ActionKind.ROLL
    time.advance(1)
    assert match.check_time() == actor
    assert match.actions[-1] == MatchAction(ActionKind.FLAG, actor, "", time.now_ms)
    record = MatchRecord.of(match)
    assert replay(MatchRecord.from_json(record.to_json())) == match.state


@pytest.mark.parametrize(
    ("text", "field", "reason"),
    [
        ("12s", "clock", "expected <move>+<reserve per point>, such as 12s+2m"),
        ("12s+2m+1s", "clock", "expected <move>+<reserve per point>, such as 12s+2m"),
        ("12x+2m", "clock", "'12x': expected a number with ms, s, m or h, such as 12s or 2m"),
    ],
)
def test_a_clock_text_that_cannot_be_read_says_where_and_why(text: str, field: str, reason: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_clock_spec(text, 5)
    assert (refused.value.field, refused.value.value, refused.value.reason) == (field, text, reason)


def test_a_duration_that_cannot_be_read_says_what_it_expects() -> None:
    with pytest.raises(NotationError) as refused:
        parse_duration_ms("soon")
    assert (refused.value.field, refused.value.value) == ("duration", "soon")
    assert refused.value.reason == "expected a number with ms, s, m or h, such as 12s or 2m"
