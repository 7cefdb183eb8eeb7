"""Arbiter warnings: the third warning loses the match (RULES.md 8.3, 11.4)."""

from __future__ import annotations

import random

import pytest
from tests.match.match_helpers import FakeTime, new_match
from tests.match.test_records import NoSmallDoubles

from tavla.core.registry import find_game, game_names
from tavla.match.actions import WARNING_NOTE_LIMIT
from tavla.match.clock import parse_clock_spec
from tavla.match.errors import MatchError, WrongPlayerError
from tavla.match.mat import export_mat, import_mat
from tavla.match.match import Match
from tavla.match.players import RandomPlayer, play
from tavla.match.record import MatchRecord, replay, replay_states
from tavla.match.settings import MatchSettings

W, B = 0, 1


def refused(
    match: Match, seat: int | None, note: str, error: type[Exception], message: str | None = None
) -> None:
    """The warning raises ``error`` (saying ``message`` where given) and changes nothing."""
    before_state, before_actions = match.state, list(match.actions)
    with pytest.raises(error) as raised:
        match.act("warn", seat, note)
    if message is not None:
        assert str(raised.value) == message
    assert match.state is before_state
    assert match.actions == before_actions


def test_two_warnings_are_counted_and_play_goes_on() -> None:
    """RULES.md 11.4: an arbiter may warn a player; the first two cost nothing."""
    match = new_match(length=5)
    match.roll((5, 2))
    match.warn(B, "slow play")
    match.move(W, "13/8 13/11")
    match.warn(B)
    assert match.state.warnings == (0, 2)
    assert not match.state.over
    assert match.state.phase == "roll" and match.state.actor == B
    assert match.actions[-1].value == ""
    assert [a.value for a in match.actions if a.kind == "warn"] == ["slow play", ""]


def test_third_warning_during_a_game_loses_the_match_and_keeps_the_score() -> None:
    """RULES.md 11.4: the penalty for a third warning is the loss of the match."""
    match = new_match(length=5)
    match.roll((5, 2))
    match.move(W, "13/8 13/11")
    match.double(B)
    for _ in range(3):
        match.warn(W, "conduct")
    state = match.state
    assert state.over and state.winner == B and state.forfeit == "warnings"
    assert state.score == (0, 0)
    assert state.result is not None
    assert (state.result.winner, state.result.points, state.result.reason) == (B, 0, "warnings")
    assert state.cube.offer is None
    refused(match, W, "", MatchError)  # the match is over


def test_third_warning_between_games_ends_the_match() -> None:
    """RULES.md 11.4: a warning may come between games; the third still loses the match."""
    match = new_match(length=3)
    match.roll((6, 1))
    match.move(W, "13/7 8/7")
    match.resign(B, "single")
    match.accept(W)
    assert match.state.phase == "between"
    match.warn(B)
    match.warn(B)
    match.warn(B)
    assert match.state.over and match.state.winner == W and match.state.forfeit == "warnings"
    assert match.state.score == (1, 0)
    assert len(match.state.results) == 1


def test_warnings_in_an_abluka_match() -> None:
    """RULES.md 8.3: a third warning loses the Abluka match (round)."""
    match = new_match(game="abluka", sets=3)
    match.move(B, "d2/e5")
    match.warn(W)
    match.warn(B)
    match.warn(W)
    assert not match.state.over
    match.warn(W)
    assert match.state.over and match.state.winner == B and match.state.forfeit == "warnings"


def test_bad_warnings_are_refused_and_change_nothing() -> None:
    """RULES.md 11.4: a warning names the player; the note is short."""
    match = new_match(length=5)
    refused(match, None, "", WrongPlayerError, "warn: say which player (0 or 1) the arbiter warns")
    refused(match, 2, "", WrongPlayerError, "warn: player 2 is not 0 or 1")
    refused(
        match, W, "x" * (WARNING_NOTE_LIMIT + 1), MatchError, "warn: the note has 201 characters; at most 200"
    )


def test_a_note_of_exactly_the_limit_is_kept() -> None:
    """RULES.md 11.4: the arbiter's note may use all of its WARNING_NOTE_LIMIT characters."""
    match = new_match(length=5)
    note = "n" * WARNING_NOTE_LIMIT
    match.warn(B, note)
    assert match.state.warnings == (0, 1)
    assert match.actions[-1].value == note


def test_warnings_replay_from_json_and_clocks_keep_running() -> None:
    """RULES.md 9.4: warnings are actions of the record and replay exactly."""
    time = FakeTime()
    match = new_match(time, length=3, clock=parse_clock_spec("12s+2m", 3))
    match.roll((4, 1))
    time.advance(3_000)
    match.warn(W, "touching the board")
    match.move(W, "24/23 13/9")
    match.warn(W)
    match.warn(W)
    record = MatchRecord.from_json(MatchRecord.of(match).to_json())
    assert replay(record) == match.state
    assert list(replay_states(record)) == match.states
    assert match.state.clock is not None and match.state.clock.running is None


def test_a_forfeited_match_exports_to_mat_without_a_points_line() -> None:
    """RULES.md 9.4: .mat has no warnings; the stopped game has no 'Wins' line."""
    match = new_match(length=3)
    match.roll((6, 1))
    match.move(W, "13/7 8/7")
    for _ in range(3):
        match.warn(B)
    text = export_mat(MatchRecord.of(match))
    assert "Wins" not in text
    imported = replay(import_mat(text))
    assert imported.position == match.state.position
    assert imported.score == (0, 0)


def arbiter_match(game: str, seed: int) -> Match:
    """A random match in which an arbiter warns a random player now and then."""
    rng = random.Random(seed)
    length = 3 if find_game(game).start().is_chance else 0
    match = Match(MatchSettings(game=game, length=length), dice=NoSmallDoubles(seed), now=lambda: 0)
    players = (RandomPlayer(random.Random(seed)), RandomPlayer(random.Random(~seed)))
    while not match.state.over:
        phase = match.state.phase
        if rng.random() < 0.05:
            match.warn(rng.randrange(2), rng.choice(["", "slow play", "conduct"]))
        elif phase == "opening":
            match.roll()
        elif phase == "between":
            match.start_next_game()
        else:
            actor = match.state.actor
            assert actor is not None
            play(match, players[actor].choose(match.state))
    return match


@pytest.mark.parametrize("game", game_names())
def test_random_matches_with_warnings_replay_exactly(game: str) -> None:
    """RULES.md 9.4: warnings at any moment, between games too, replay exactly."""
    warnings = forfeits = 0
    for seed in range(6):
        match = arbiter_match(game, seed)
        record = MatchRecord.from_json(MatchRecord.of(match).to_json())
        assert list(replay_states(record)) == match.states
        state = match.state
        warnings += sum(action.kind == "warn" for action in match.actions)
        if state.forfeit == "warnings":
            forfeits += 1
            assert state.winner is not None and state.warnings[1 - state.winner] == 3
        else:
            assert max(state.warnings) < 3
    assert warnings > 0 and forfeits > 0
