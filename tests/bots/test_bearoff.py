"""The one-sided bear-off table (tavla.bots.bearoff) against counting by hand, against
exact two-sided values found over the rules' own legal turns (RULES.md 2), and on the
stacks on the lowest points where the networks are furthest off (docs/bots.md)."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import pytest
from tests.bots.exact_bearoff import POINTS, bear_off, win_chance

import tavla
from tavla.bots.bearoff import ROLLS_KEPT, bear_off_table, pips, race_chances
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.backgammon import BackgammonPosition

pytestmark = pytest.mark.timeout(120)

STACK = (1, 0, 0, 0, 0, 0)


def on_ace(checkers: int) -> tuple[int, ...]:
    return (checkers, 0, 0, 0, 0, 0)


def counts_of(points: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(points.count(point) for point in POINTS)


@cache
def stacks_win(on_roll: int, other: int) -> float:
    """Both sides' checkers all on their 1-points: each roll takes two off, a double four.
    The chance that the side on roll (``on_roll`` checkers) finishes first."""
    total = 0.0
    for taken, chance in ((2, 5 / 6), (4, 1 / 6)):
        left = on_roll - taken
        total += chance * (1.0 if left <= 0 else 1.0 - stacks_win(other, left))
    return total


def test_the_table_holds_every_placing_each_with_proper_distributions() -> None:
    table = bear_off_table()
    assert len(table.placings) == 54_264 and table.placings[0] == (0,) * 6
    for counts in [
        (0,) * 6,
        (15, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 15),
        (2, 3, 1, 0, 4, 5),
        (0, 1, 0, 0, 0, 0),
    ]:
        all_off, first_off = table.off_in(counts), table.first_off_in(counts)
        assert all_off.sum() == pytest.approx(1.0) and first_off.sum() == pytest.approx(1.0)
        assert (all_off >= 0).all() and (first_off >= 0).all() and len(all_off) == ROLLS_KEPT
        expected = table.expected_rolls[table.index[counts]]
        assert float(np.arange(ROLLS_KEPT) @ all_off) == pytest.approx(expected)
        # No placing needs fewer rolls than its pips allow (at most 24 a roll).
        assert all_off[: -(-pips(counts) // 24)].sum() == 0.0


def test_counted_by_hand() -> None:
    table = bear_off_table()
    # One checker on point p comes off in one roll when the roll's pips reach p
    # (a double counts four times): from the 6-point, not with 1-1, 2-1, 3-1, 4-1, 3-2.
    for point in POINTS:
        single = tuple(1 if index == point else 0 for index in POINTS)
        reaching = [(a, b) for a in POINTS for b in POINTS if (4 * a if a == b else a + b) >= point]
        assert table.off_in(single)[1] == pytest.approx(len(reaching) / 36)
    assert table.off_in((0, 0, 0, 0, 0, 1))[1] == pytest.approx(27 / 36)
    # Three on the 1-point: a double takes them all, anything else leaves one.
    assert table.off_in(on_ace(3))[1:3] == pytest.approx([1 / 6, 5 / 6])
    # Fifteen on the 6-point: the first checker comes off at once with any 6, or with
    # 5-1, 4-2, 3-3 and 2-2, which carry one checker down and off: 17 rolls of 36.
    assert table.first_off_in((0, 0, 0, 0, 0, 15))[1] == pytest.approx(17 / 36)
    # Two on the 6-point need 12 pips in one roll: 3-3, 4-4, 5-5 or 6-6 (4-4: both down
    # to the 2-point, then no checker on the 4-point or above, so both come off).
    assert table.off_in((0, 0, 0, 0, 0, 2))[1] == pytest.approx(4 / 36)


@pytest.mark.parametrize(
    ("on_roll", "other"), [(4, 3), (3, 4), (6, 5), (5, 6), (7, 7), (11, 10), (15, 14), (2, 9)]
)
def test_stacks_on_the_lowest_points_are_exact(on_roll: int, other: int) -> None:
    chances = race_chances(on_ace(on_roll), 15 - on_roll, on_ace(other), 15 - other)
    assert chances[0] == pytest.approx(stacks_win(on_roll, other))
    # Both have checkers off, or the side on roll takes two off at once: no gammon.
    assert (chances[1:] == 0.0).all()


def test_two_checkers_a_side_agree_with_the_rules_exact_two_sided_values() -> None:
    """Every bear-off of two checkers a side, both sides to roll: the one-sided table's
    win chance equals the exact one found over the legal turns, playing to win."""
    pairs = list(combinations_with_replacement(POINTS, 2))
    worst = 0.0
    for white in pairs:
        for black in pairs:
            for side in (WHITE, BLACK):
                exact = win_chance(bear_off(white, black, side).notation())
                mine, theirs = (white, black) if side == WHITE else (black, white)
                table = race_chances(counts_of(mine), 13, counts_of(theirs), 13)[0]
                worst = max(worst, abs(table - exact))
    assert worst < 1e-9


def test_gammons_counted_by_hand() -> None:
    # I finish now; he has none off and cannot take one off before: a gammon.
    assert race_chances(STACK, 14, (0, 0, 0, 0, 0, 15), 0) == pytest.approx([1, 1, 0, 0, 0])
    # I cannot finish in one roll; he finishes on his. I lose a gammon unless my roll
    # takes a checker off (17 rolls of 36, above).
    assert race_chances((0, 0, 0, 0, 0, 15), 0, STACK, 14) == pytest.approx([0, 0, 0, 19 / 36, 0])
    # With a checker off already, no gammon.
    assert race_chances((0, 0, 0, 0, 0, 14), 1, STACK, 14)[3] == 0.0


def test_a_gammon_needs_him_to_take_nothing_off_in_the_rolls_he_gets() -> None:
    # My last checker on my 6-point: off at once in 27 rolls of 36, else surely on the
    # next. His 15 on his 6-point: his first roll takes one off in 17 rolls of 36.
    expected_gammon = 27 / 36 + 9 / 36 * 19 / 36
    chances = race_chances((0, 0, 0, 0, 0, 1), 14, (0, 0, 0, 0, 0, 15), 0)
    assert chances == pytest.approx([1, expected_gammon, 0, 0, 0])


def white_on(counts: tuple[int, ...]) -> str:
    """A tabla position, White to roll with ``counts`` on his points 1 to 6 and the rest
    off, Black's fifteen far away on his own 1-point: no contact, no gammon."""
    cells = [f"{count}w" if count else "-" for count in counts] + ["-"] * 17 + ["15b"]
    return f"tabla {'/'.join(cells)} 0,0 {15 - sum(counts)},0 w -"


@cache
def fewest_rolls(counts: tuple[int, ...]) -> float:
    """Expected rolls to bear ``counts`` off, each roll played among the rules' own
    legal turns to need the fewest afterwards."""
    if not any(counts):
        return 0.0
    position = tavla.from_notation(white_on(counts))
    assert isinstance(position, BackgammonPosition)
    total = 0.0
    for roll, weight in position.chance_outcomes():
        best = min(
            fewest_rolls(tuple(max(top, 0) for top in turn.after.points[:6]))
            for turn in position.with_roll(roll).legal_turns()
        )
        total += float(weight) * best
    return 1.0 + total


def test_expected_rolls_agree_with_the_rules_legal_turns() -> None:
    table = bear_off_table()
    small = [counts for counts in table.placings if sum(counts) <= 3]
    assert len(small) == 84
    for counts in small:
        assert table.expected_rolls[table.index[counts]] == pytest.approx(fewest_rolls(counts)), counts
