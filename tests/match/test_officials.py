"""The officials' actions: the no-show procedure's credits (RULES.md 11.4), a forfeited
match (a withdrawal, an arbiter's decision) and a void match (RULES.md 12)."""

from __future__ import annotations

import random

import pytest
from tests.match.match_helpers import FakeTime

from tavla.core.dice import SeededDice
from tavla.core.errors import TavlaError
from tavla.match.errors import MatchError, WrongPlayerError
from tavla.match.mat import export_mat
from tavla.match.match import Match
from tavla.match.officials import NOTE_LIMIT, credit_due_ms, forfeit_points
from tavla.match.players import RandomPlayer, play
from tavla.match.record import MatchRecord, replay_states
from tavla.match.settings import MatchSettings

W, B = 0, 1

pytestmark = pytest.mark.timeout(60)


def waiting(game: str = "tabla", length: int = 7, **options: object) -> Match:
    """A match whose first game has not begun: the players are awaited."""
    settings = MatchSettings(game, length, **options)  # type: ignore[arg-type]
    return Match(settings, dice=SeededDice(3), now=FakeTime(), start=False)


def finish(match: Match, seed: int = 1) -> None:
    players = (RandomPlayer(random.Random(seed)), RandomPlayer(random.Random(~seed)))
    while not match.state.over:
        phase = match.state.phase
        if phase == "opening":
            match.roll()
        elif phase == "between":
            match.start_next_game()
        else:
            actor = match.state.actor
            assert actor is not None
            play(match, players[actor].choose(match.state))


def refused(
    match: Match, kind: str, seat: int | None, value: str, error: type[Exception], message: str
) -> None:
    before_state, before_actions = match.state, list(match.actions)
    with pytest.raises(error) as raised:
        match.act(kind, seat, value)
    assert str(raised.value) == message
    assert match.state is before_state and match.actions == before_actions


@pytest.mark.parametrize(
    ("length", "points"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (7, 4), (11, 6), (13, 7)]
)
def test_the_no_show_forfeit_comes_at_half_the_length_rounded_up(length: int, points: int) -> None:
    """RULES.md 11.4: a point per five minutes, a forfeit win at half the length rounded up."""
    match = waiting(length=length)
    assert forfeit_points(match.state) == points
    for credited in range(1, points):
        match.absent(B)
        assert match.state.score == (credited, 0) and not match.state.over
    match.absent(B)
    state = match.state
    assert state.over and state.winner == W and state.forfeit == "absent"
    assert state.score == (points, 0) and state.results == ()


def test_abluka_counts_sets() -> None:
    """Three sets (RULES.md 8.3): the no-show gives one set at a time, two decide."""
    match = waiting("abluka", 0, sets=3)
    match.absent(W)
    assert match.state.score == (0, 1) and not match.state.over
    match.absent(W)
    assert match.state.over and match.state.winner == B and match.state.forfeit == "absent"


def test_credited_points_stand_when_the_late_player_comes() -> None:
    """RULES.md 11.4: what the present player was credited is his when play begins."""
    match = waiting(length=5)
    match.absent(B)
    match.absent(B)
    match.start_next_game()
    assert match.state.score == (2, 0) and match.state.game_number == 1
    assert not match.state.crawford  # the first game is never the Crawford game
    finish(match)
    record = MatchRecord.from_json(MatchRecord.of(match).to_json())
    assert list(replay_states(record)) == match.states
    assert sum(r.points for r in match.state.results if r.winner == W) == match.state.score[W] - 2
    # A .mat file says the credited score in its first game's header.
    assert "White : 2                      Black : 0" in export_mat(MatchRecord.of(match))


def test_no_show_refusals_change_nothing() -> None:
    """The procedure runs before the first game, in a match to a length, for one absentee."""
    match = waiting(length=7)
    refused(match, "absent", None, "", WrongPlayerError, "absent: say which player (0 or 1) has not come")
    refused(match, "absent", 2, "", WrongPlayerError, "absent: player 2 is not 0 or 1")
    match.absent(B)
    refused(match, "absent", W, "", MatchError, "absent: player 0 was credited points as the present player")
    match.start_next_game()
    refused(match, "absent", B, "", MatchError, "absent: the first game has begun, so both players came")
    refused_break = waiting(length=7)
    refused(
        refused_break, "break", W, "", MatchError, "a break may only be taken between games (RULES.md 11.4)"
    )
    money = waiting(length=0)
    refused(
        money,
        "absent",
        B,
        "",
        MatchError,
        "absent: money play has no no-show procedure (RULES.md 11.4 is for matches)",
    )


@pytest.mark.parametrize("moment", ["waiting", "between", "opening", "move"])
def test_a_forfeit_ends_the_match_at_any_moment(moment: str) -> None:
    match = waiting(length=5)
    if moment != "waiting":
        match.start_next_game()
    if moment == "move":
        match.roll((5, 2))
    if moment == "between":
        match.roll((5, 2))
        resigner = match.state.actor or 0
        match.resign(resigner)
        match.accept(1 - resigner)
        assert match.state.phase == "between"
    score = match.state.score
    games = len(match.state.results)
    match.forfeit(B, "withdrew")
    state = match.state
    assert state.over and state.winner == W and state.forfeit == "forfeit"
    assert state.score == score  # no points: the match is decided, not a game
    if moment in ("opening", "move"):
        assert len(state.results) == games + 1
        last = state.results[-1]
        assert (last.winner, last.points, last.reason) == (W, 0, "forfeit")
    else:
        assert len(state.results) == games
    assert match.actions[-1].value == "withdrew"
    assert state.clock is None or state.clock.running is None
    record = MatchRecord.from_json(MatchRecord.of(match).to_json())
    assert list(replay_states(record)) == match.states
    refused(match, "roll", None, "", MatchError, "roll: the match is over")


def test_a_void_match_has_no_winner() -> None:
    """RULES.md 12: an abandoned or void game releases the stakes; nobody wins it."""
    match = Match(MatchSettings("tabla", 0), dice=SeededDice(5), now=FakeTime())
    match.roll((6, 1))
    match.void("abandoned")
    state = match.state
    assert state.over and state.winner is None and state.forfeit == "void"
    assert state.results[-1].winner is None and state.results[-1].points == 0
    record = MatchRecord.from_json(MatchRecord.of(match).to_json())
    assert list(replay_states(record)) == match.states


def test_forfeit_and_void_refusals_change_nothing() -> None:
    match = waiting(length=5)
    match.start_next_game()
    long_note = "x" * (NOTE_LIMIT + 1)
    refused(
        match, "forfeit", None, "", WrongPlayerError, "forfeit: say which player (0 or 1) loses the match"
    )
    refused(match, "forfeit", W, long_note, MatchError, "forfeit: the note has 201 characters; at most 200")
    refused(
        match, "void", W, "", WrongPlayerError, "void: a void match concerns both players; give no player"
    )
    refused(match, "void", None, long_note, MatchError, "void: the note has 201 characters; at most 200")
    match.void("x" * NOTE_LIMIT)
    for kind, seat in (("forfeit", W), ("void", None), ("absent", B)):
        with pytest.raises(TavlaError, match="the match is over"):
            match.act(kind, seat, "")


def test_the_terminal_tells_what_the_officials_did() -> None:
    """The replayed record reads as sentences (tavla replay, tavla match)."""
    from tavla.cli.match import describe, describe_match_end

    match = waiting(length=3, names=("Ayşe", "Mehmet"))
    match.absent(B)
    lines = [
        describe(a, b, after)
        for a, b, after in zip(match.actions, match.states[:-1], match.states[1:], strict=True)
    ]
    assert lines == ["Mehmet has not come: Ayşe is credited a point (1 now)."]
    sets = waiting("abluka", 0, sets=3, names=("Ayşe", "Mehmet"))
    sets.absent(W)
    assert describe(sets.actions[-1], sets.states[-2], sets.state) == (
        "Ayşe has not come: Mehmet is credited a set (1 now)."
    )
    match.absent(B)
    assert (
        describe_match_end(match.state)
        == "Ayşe wins the match (the opponent did not come): Ayşe 2 - Mehmet 0."
    )
    forfeited = waiting(length=3, names=("Ayşe", "Mehmet"))
    forfeited.forfeit(W, "withdrew")
    assert (
        describe(forfeited.actions[-1], forfeited.states[-2], forfeited.state)
        == "Ayşe forfeits the match: withdrew."
    )
    assert describe_match_end(forfeited.state) == "Mehmet wins the match (forfeit): Ayşe 0 - Mehmet 0."
    voided = waiting(length=3, names=("Ayşe", "Mehmet"))
    voided.void()
    assert describe(voided.actions[-1], voided.states[-2], voided.state) == "The match is void."
    assert describe_match_end(voided.state) == "The match is void: Ayşe 0 - Mehmet 0."


MINUTE = 60_000


@pytest.mark.parametrize(
    ("arrived_ms", "credited", "due_minute"),
    [
        (0, 0, 20),
        (0, 1, 25),
        (0, 3, 35),
        (14 * MINUTE, 0, 20),
        (20 * MINUTE, 0, 20),
        (20 * MINUTE + 1, 0, 25),
        (22 * MINUTE, 0, 25),
        (22 * MINUTE, 2, 35),
    ],
)
def test_points_fall_every_five_minutes_after_fifteen(
    arrived_ms: int, credited: int, due_minute: int
) -> None:
    """RULES.md 11.4: 15 minutes from the scheduled start, then a point per 5 minutes;
    a player who came late himself counts the marks from his arrival."""
    start = 7 * MINUTE
    assert credit_due_ms(start, start + arrived_ms, credited) == start + due_minute * MINUTE
