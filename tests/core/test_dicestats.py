"""Dice statistics for player profiles: counts, expectations, and chi-square p-values
checked against the tables' critical values."""

from __future__ import annotations

import itertools
import math

import pytest

from tavla.core.dicestats import chi_square, chi_square_p_value, dice_stats

# (statistic, degrees of freedom, upper tail): the 5% and 1% critical values of the
# chi-square tables, and values with simple closed forms.
KNOWN = [
    (11.07, 5, 0.05),
    (15.086, 5, 0.01),
    (3.841, 1, 0.05),
    (6.635, 1, 0.01),
    (5.991, 2, 0.05),
    (7.815, 3, 0.05),
    (9.488, 4, 0.05),
    (18.307, 10, 0.05),
    (2.0, 2, math.exp(-1)),
    (1.0, 1, math.erfc(math.sqrt(0.5))),
]


@pytest.mark.parametrize(("statistic", "dof", "tail"), KNOWN)
def test_p_values_match_the_tables(statistic: float, dof: int, tail: float) -> None:
    assert chi_square_p_value(statistic, dof) == pytest.approx(tail, abs=2e-4)


def test_p_value_edges() -> None:
    assert chi_square_p_value(0.0, 5) == 1.0
    assert chi_square_p_value(-1.0, 1) == 1.0
    assert 0 <= chi_square_p_value(1e4, 5) < 1e-300
    with pytest.raises(ValueError):
        chi_square_p_value(1.0, 0)


def test_p_values_fall_as_the_statistic_grows() -> None:
    for dof in (1, 2, 5, 9):
        tails = [chi_square_p_value(x / 2, dof) for x in range(1, 80)]
        assert all(a > b for a, b in itertools.pairwise(tails))


def test_counts_and_expectations() -> None:
    rolls = [(1, 1), (6, 5), (3, 3), (2, 4), (6, 6), (5, 1)]
    stats = dice_stats(rolls)
    assert stats.rolls == 6 and stats.dice == 12 and stats.doubles == 3
    assert stats.faces == (3, 1, 2, 1, 2, 3)
    assert stats.expected_doubles == 1.0 and stats.expected_per_face == 2.0
    assert stats.chi_square == pytest.approx(chi_square(stats.faces, [2.0] * 6)) == pytest.approx(2.0)
    assert stats.p_value == pytest.approx(chi_square_p_value(2.0, 5))
    # Doubles 3 of 6 against 1 expected: (3-1)^2/1 + (3-5)^2/5 = 4.8.
    assert stats.doubles_chi_square == pytest.approx(4.8)
    assert sum(stats.face_shares) == pytest.approx(1.0)


def test_perfectly_even_dice_and_no_dice() -> None:
    even = dice_stats([(face, face % 6 + 1) for face in range(1, 7)] * 5)
    assert even.chi_square == 0 and even.p_value == 1.0 and even.doubles == 0
    empty = dice_stats([])
    assert empty.rolls == 0 and empty.chi_square == 0 and empty.p_value == 1.0
    assert empty.face_shares == (0.0,) * 6 and empty.doubles_p_value == 1.0


def test_loaded_dice_get_a_tiny_p_value() -> None:
    loaded = dice_stats([(6, 6)] * 50 + [(1, 2)] * 50)
    assert loaded.p_value < 1e-10 and loaded.doubles_p_value < 1e-10


def test_a_die_outside_one_to_six_is_refused() -> None:
    with pytest.raises(ValueError, match="not 7"):
        dice_stats([(1, 7)])
