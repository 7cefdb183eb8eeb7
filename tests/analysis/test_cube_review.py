"""Reviews of cube decisions (tavla.analysis.cube; RULES.md 9.2) with exact chances.

White has two checkers (his 6 and 5 points) against Black's last checker on Black's
1 point: White wins only if this roll bears both off (6-5, 6-6, 5-5, 4-4: 5 of 36),
else Black bears off. Doubling is a blunder, and Black's take is right.
"""

from __future__ import annotations

import pytest
from tests.bots.exact_bearoff import ExactBearOff, bear_off, every_position

from tavla.analysis.cube import CubeReviewer
from tavla.bots.met import match_equity
from tavla.match.match import Match
from tavla.match.record import MatchRecord, replay_states
from tavla.match.settings import MatchSettings
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
    assert list(double.equities) == ["no double", "double, take", "double, pass"]  # no beavers
    assert double.equities["double, pass"] == 1.0
    start = bear_off((6, 5), (1,)).notation()
    assert (double.game_number, double.action_index, double.position) == (1, 0, start)
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


def doubled(info: MatchInfo, answer: str, settings: MatchSettings | None = None) -> MatchRecord:
    """The last-roll position above, under ``info``'s score and cube: White doubles and
    Black gives ``answer``."""
    match = Match.from_ids(*to_gnubg_ids(bear_off((6, 5), (1,)), info), settings)
    match.double(0)
    getattr(match, answer)(1)
    return MatchRecord.of(match)


WHITE = 1
"""White's number in gnubg's IDs (the player on roll in the bear-off position)."""


def test_money_losses_count_per_unit_of_the_cube_whatever_its_value(exact: ExactBearOff) -> None:
    """docs/analysis.md: a cube decision's loss is in points per game of a cube at 1. The
    same pass with the cube at 2 (White's to turn) gives up what it does at 1."""
    centred = list(CubeReviewer(lambda game: exact).review(doubled(MatchInfo(), "drop")))
    owned = list(CubeReviewer(lambda game: exact).review(doubled(MatchInfo(2, WHITE), "drop")))
    for double, answer in (centred, owned):
        assert double.loss == pytest.approx(double.equities["no double"] - double.equities["double, take"])
        assert answer.equities["pass"] == -1.0  # a pass gives up the cube's present value
        assert answer.loss == pytest.approx(answer.equities["take"] - answer.equities["pass"])
    assert owned[1].equities == pytest.approx(centred[1].equities)
    assert owned[1].loss == pytest.approx(centred[1].loss) and owned[1].loss > 2
    # Turning a cube White owns gives up more than turning a centred one: his ownership.
    assert owned[0].loss > centred[0].loss


@pytest.mark.parametrize("cube", [1, 2])
def test_a_match_loss_is_set_against_the_cubes_points_won_or_lost(exact: ExactBearOff, cube: int) -> None:
    """In a 7-point match at 0-0 Black's pass gives White the cube's points: his chance
    of the match falls to the table's, and the loss is normalised by what those points
    swing (gnubg's normalised equity)."""
    info = MatchInfo(cube, None if cube == 1 else WHITE, match_length=7)
    double, answer = CubeReviewer(lambda game: exact).review(doubled(info, "drop"))
    white_wins, white_loses = match_equity(7 - cube, 7), match_equity(7, 7 - cube)
    assert answer.equities["pass"] == pytest.approx(1 - white_wins)
    assert answer.loss == pytest.approx(
        2 * (answer.equities["take"] - answer.equities["pass"]) / (white_wins - white_loses)
    )
    assert double.loss == pytest.approx(
        2 * (double.equities["no double"] - double.equities["double, take"]) / (white_wins - white_loses)
    )


def test_a_beaver_is_reviewed_as_an_answer_of_its_own(exact: ExactBearOff) -> None:
    """RULES.md 9.2: with beavers allowed, Black, who wins 31 of 36, beavers at once: the
    right answer, losing nothing, and worth twice the take for money."""
    settings = MatchSettings(game="tabla", length=0, beavers=True, jacoby=True)
    record = doubled(MatchInfo(), "beaver", settings)
    double, answer = CubeReviewer(lambda game: exact).review(record)
    assert double.equities["double, beaver"] == pytest.approx(2 * double.equities["double, take"])
    assert list(double.equities) == ["no double", "double, take", "double, pass", "double, beaver"]
    # The beaver is the answer the double must expect: it loses what not doubling is above it.
    assert double.right == "no double"
    assert double.loss == pytest.approx(double.equities["no double"] - double.equities["double, beaver"])
    assert (answer.kind, answer.seat, answer.chosen, answer.right) == ("answer", 1, "beaver", "beaver")
    assert answer.equities["beaver"] == pytest.approx(2 * answer.equities["take"])
    assert answer.loss == 0 and answer.mark == ""
    states = list(replay_states(record))
    assert (answer.game_number, answer.action_index, answer.position) == (1, 1, states[1].position.notation())
