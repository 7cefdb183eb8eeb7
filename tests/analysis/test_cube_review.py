"""Reviews of cube decisions (tavla.analysis.cube; RULES.md 9.2) with exact chances.

White has two checkers (his 6 and 5 points) against Black's last checker on Black's
1 point: White wins only if this roll bears both off (6-5, 6-6, 5-5, 4-4: 5 of 36),
else Black bears off. Doubling is a blunder, and Black's take is right.
"""

from __future__ import annotations

import pytest
from tests.bots.exact_bearoff import ExactBearOff, bear_off, every_position

from tavla.analysis.cube import CubeReviewer
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.rules.backgammon.gnubg_id import MatchInfo, to_gnubg_ids


@pytest.fixture(scope="module")
def exact() -> ExactBearOff:
    return ExactBearOff(every_position())


def last_roll(answer: str) -> MatchRecord:
    match = Match.from_ids(*to_gnubg_ids(bear_off((6, 5), (1,))))
    match.double(0)
    getattr(match, answer)(1)
    if answer == "take":
        match.roll((2, 1))
        match.move(0, match.state.position.legal_turns()[0])
    return MatchRecord.of(match)


def test_a_double_with_five_rolls_of_36_is_a_blunder_and_the_take_is_right(exact: ExactBearOff) -> None:
    double, answer = list(CubeReviewer(lambda game: exact).review(last_roll("take")))
    assert (double.kind, double.seat, double.chosen, double.right) == ("double", 0, "double", "no double")
    assert double.mark == "blunder"
    assert double.equities["no double"] > double.equities["double, take"]
    assert (answer.kind, answer.seat, answer.chosen, answer.right) == ("answer", 1, "take", "take")
    assert answer.loss == 0 and answer.mark == ""


def test_passing_there_throws_the_game_away(exact: ExactBearOff) -> None:
    reviews = list(CubeReviewer(lambda game: exact).review(last_roll("drop")))
    answer = reviews[-1]
    assert (answer.chosen, answer.right) == ("pass", "take")
    # Black wins 31 of 36 with the cube at 2 when he takes; passing gives up 1 point.
    assert answer.equities["pass"] == pytest.approx(-1.0)
    assert answer.loss > 0.5 and answer.mark == "blunder"


def test_a_position_far_from_a_double_is_no_decision(exact: ExactBearOff) -> None:
    """Nobody doubled, and doubling would have been far wrong: nothing to review."""
    match = Match.from_ids(*to_gnubg_ids(bear_off((6, 5), (1,))))
    match.roll((2, 1))
    match.move(0, match.state.position.legal_turns()[0])
    assert list(CubeReviewer(lambda game: exact).review(MatchRecord.of(match))) == []


def test_at_double_match_point_the_cube_decides_nothing(exact: ExactBearOff) -> None:
    """RULES.md 9.2, in a 1-point match: a taken double wins what the game wins, so doubling
    and not doubling are worth the same; neither is reviewed. Three points to play, the
    same position is a decision (doubling loses 0.135)."""

    def reviews(length: int) -> list[str]:
        match = Match.from_ids(*to_gnubg_ids(bear_off((6, 5), (1,)), MatchInfo(match_length=length)))
        match.roll((2, 1))
        match.move(0, match.state.position.legal_turns()[0])
        return [review.chosen for review in CubeReviewer(lambda game: exact).review(MatchRecord.of(match))]

    assert reviews(1) == []
    assert reviews(3) == ["no double"]
