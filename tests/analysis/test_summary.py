"""Each player's totals over an analysis (tavla.analysis.report.summarise): decisions,
losses, marks, luck and cube decisions, added up review by review."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tavla.analysis.checker import MoveReview, RolledLoss, RollLuck
from tavla.analysis.cube import CubeReview
from tavla.analysis.report import summarise


def turn(seat: int, lost: float, *, forced: bool = False) -> MoveReview:
    return MoveReview(1, 0, seat, "", "8/5 6/5", "13/10 13/10", 0.0, lost, (), forced, 0)


def cube(seat: int, loss: float) -> CubeReview:
    return CubeReview(1, 0, seat, "double", "", "no double", "double, take", {}, loss)


MOVES = [
    turn(0, 0.02),
    turn(0, 0.3),  # blunder
    turn(0, 0.3),  # blunder
    turn(0, 0.5, forced=True),  # a forced turn is no decision, whatever its figures
    turn(1, 0.1),  # error
    turn(1, 0.05),  # doubtful
]
LUCKS = [RollLuck(1, 0, 0, (6, 6), 0.4), RollLuck(1, 0, 0, (2, 1), -0.1), RollLuck(1, 0, 1, (3, 1), 0.25)]
CUBES = [cube(1, 0.2), cube(1, 0.2), cube(1, 0.0), cube(0, 0.09)]


@pytest.mark.timeout(10)
def test_each_player_adds_up_his_own_reviews() -> None:
    first, second = summarise(("Ayşe", "Boyan"), MOVES, LUCKS, CUBES)
    assert (first.seat, first.name, second.seat, second.name) == (0, "Ayşe", 1, "Boyan")
    assert (first.decisions, second.decisions) == (3, 2)
    assert first.total_loss == pytest.approx(0.62) and second.total_loss == pytest.approx(0.15)
    assert dict(first.marks) == {"blunder": 2} and dict(second.marks) == {"error": 1, "doubtful": 1}
    assert first.error_rate == pytest.approx(1000 * 0.62 / 3)
    assert first.luck == pytest.approx(0.3) and first.rolls == 2
    assert second.luck == pytest.approx(0.25) and second.rolls == 1
    assert (first.cube_decisions, second.cube_decisions) == (1, 3)
    assert [first.cube_loss, second.cube_loss] == pytest.approx([0.09, 0.4])
    assert dict(first.cube_marks) == {"error": 1} and dict(second.cube_marks) == {"blunder": 2}
    assert second.cube_error_rate == pytest.approx(1000 * 0.4 / 3)


@pytest.mark.timeout(10)
def test_a_player_without_decisions_has_no_error_rate() -> None:
    first, second = summarise(("Ayşe", "Boyan"), [turn(0, 0.3)], [], [])
    assert (second.decisions, second.error_rate, second.cube_error_rate) == (0, 0.0, 0.0)
    assert first.error_rate == pytest.approx(300.0) and first.cube_error_rate == 0.0


@pytest.mark.timeout(10)
def test_a_rolled_out_turn_counts_with_its_rollouts_loss() -> None:
    cleared = replace(turn(0, 0.3), rollout=RolledLoss(-0.01, 0.02, 36, "rollout 36x10 vr"))
    [first, _] = summarise(("Ayşe", "Boyan"), [cleared], [], [])
    assert (first.decisions, first.total_loss, dict(first.marks)) == (1, 0.0, {})
