"""The five chances' convention: flipping sides, equity, results as targets, masks."""

from __future__ import annotations

import numpy as np
import pytest

from tavla.bots.outcomes import equity, flip, outcome_estimate, output_mask
from tavla.core.protocol import Outcome, OutcomeReason


def test_flip_swaps_the_sides_and_is_its_own_inverse() -> None:
    estimate = np.array([0.7, 0.2, 0.05, 0.1, 0.01])
    assert flip(estimate) == pytest.approx([0.3, 0.1, 0.01, 0.2, 0.05])
    assert flip(flip(estimate)) == pytest.approx(estimate)
    rows = np.stack([estimate, flip(estimate)])
    assert flip(rows) == pytest.approx(rows[::-1])


def test_equity_is_cubeless_points_per_game() -> None:
    assert equity(np.array([0.7, 0.2, 0.05, 0.1, 0.01])) == pytest.approx(
        2 * 0.7 - 1 + 0.2 - 0.1 + 0.05 - 0.01
    )
    assert equity(np.array([1.0, 1.0, 1.0, 0.0, 0.0])) == pytest.approx(3.0)
    assert equity(np.array([0.0, 0.0, 0.0, 1.0, 0.0])) == pytest.approx(-2.0)
    # Equity from the other side is its negative.
    estimate = np.array([0.6, 0.3, 0.1, 0.2, 0.05])
    assert equity(flip(estimate)) == pytest.approx(-equity(estimate))


@pytest.mark.parametrize(
    ("outcome", "player", "expected"),
    [
        (Outcome(0, 1, OutcomeReason.SINGLE), 0, [1, 0, 0, 0, 0]),
        (Outcome(0, 2, OutcomeReason.GAMMON), 0, [1, 1, 0, 0, 0]),
        (Outcome(0, 3, OutcomeReason.BACKGAMMON), 1, [0, 0, 0, 1, 1]),
        (Outcome(1, 2, OutcomeReason.MOTHER_PINNED), 1, [1, 1, 0, 0, 0]),
        (Outcome(None, 0, OutcomeReason.VOID), 0, [0.5, 0, 0, 0, 0]),
    ],
)
def test_a_result_as_a_certain_estimate(outcome: Outcome, player: int, expected: list[float]) -> None:
    assert outcome_estimate(outcome, player) == pytest.approx(expected)
    assert equity(outcome_estimate(outcome, player)) == pytest.approx(
        0 if outcome.winner is None else outcome.points * (1 if outcome.winner == player else -1)
    )


def test_only_indiyka_has_no_gammons() -> None:
    assert output_mask("indiyka") == pytest.approx([1, 0, 0, 0, 0])
    for game in ("tabla", "antitabla", "chelebi", "tapa", "gulbara"):
        assert output_mask(game) == pytest.approx([1, 1, 1, 1, 1])
