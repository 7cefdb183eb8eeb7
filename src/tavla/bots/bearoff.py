"""Exact bear-offs: a one-sided table for tabla's bear-off rules (RULES.md 2), which
tapa (RULES.md 5) shares.

For every placing of up to 15 checkers on the six home points (54,264 of them) the
table holds the chance of bearing them all off in exactly ``n`` rolls, each roll
played to finish in the fewest rolls on average, and the chance that the first
checker comes off at roll ``n``, each roll played for that. Two such
distributions give a race's chances exactly when both sides bear off with no
contact left (:func:`race_chances`): the side on roll wins if it needs no more
rolls than the other, and wins a gammon if the other, with none off yet, takes
no checker off in the rolls it gets meanwhile.

Why it exists: where checkers pile up on the lowest points, who finishes first
turns on the stacks' parities (how many rolls each needs), a staircase that the
networks' inputs cannot draw; docs/bots.md measures how far off they are there.

The table is built once per process, level by level in pip count (every die
lowers it), with numpy: five to ten seconds on this machine.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import numpy.typing as npt

POINTS = 6
MOST = 15
ROLLS_KEPT = 40
"""Rolls the distributions run to: the slowest placing, 15 checkers on the 6-point (90
pips), can need 30 (a 2-1 every time)."""

Counts = tuple[int, ...]
"""Checkers on the home points 1 to 6, lowest first."""
Distribution = npt.NDArray[np.float64]


def _die_results(counts: Counts, die: int) -> list[Counts]:
    """The placings one die can leave (RULES.md 2): a checker borne off from the die's
    point, or moved down inside the board, or, when no checker stands on the die's point
    or above it, the highest one borne off. No checker left: nothing changes."""
    if not any(counts):
        return [counts]
    results = []
    highest = max(point for point in range(POINTS) if counts[point])
    for point in range(die - 1, POINTS):
        if not counts[point]:
            continue
        after = list(counts)
        after[point] -= 1
        if point >= die:
            after[point - die] += 1
        results.append(tuple(after))
    if highest < die - 1:
        after = list(counts)
        after[highest] -= 1
        results.append(tuple(after))
    return results


def _padded(children: list[list[int]]) -> npt.NDArray[np.int64]:
    """Child lists as one array, short lists filled with their own first child (a
    minimum over a row is unchanged by repeats)."""
    width = max(len(row) for row in children)
    return np.array([row + [row[0]] * (width - len(row)) for row in children], dtype=np.int64)


class BearOffTable:
    """The one-sided table: :meth:`off_in` and :meth:`first_off_in` by placing."""

    def __init__(self) -> None:
        placings = [
            counts for counts in itertools.product(range(MOST + 1), repeat=POINTS) if sum(counts) <= MOST
        ]
        placings.sort(key=lambda counts: (pips(counts), counts))
        self.placings: list[Counts] = placings
        self.index: dict[Counts, int] = {counts: number for number, counts in enumerate(placings)}
        size = len(placings)
        moves = [
            _padded([[self.index[after] for after in _die_results(counts, die)] for counts in placings])
            for die in range(1, POINTS + 1)
        ]
        checkers = np.array([sum(counts) for counts in placings])
        levels = np.array([pips(counts) for counts in placings])
        self._all_off: Distribution = np.zeros((size, ROLLS_KEPT))
        self._first_off: Distribution = np.zeros((size, ROLLS_KEPT))
        self._all_off[0, 0] = 1.0  # nothing left: off in no rolls
        self._first_off[0, 0] = 1.0
        self.expected_rolls = np.zeros(size)
        expected_first = np.zeros(size)
        for level in range(1, int(levels.max()) + 1):
            rows = np.flatnonzero(levels == level)
            finals = _best_after_each_roll(moves, rows, self.expected_rolls)
            self.expected_rolls[rows], self._all_off[rows] = _step(finals, self.expected_rolls, self._all_off)
            # For the first checker off, a placing with fewer checkers than the start is done.
            finals = _best_after_each_roll(moves, rows, expected_first, checkers)
            first = _first_step(finals, rows, checkers, expected_first, self._first_off)
            expected_first[rows], self._first_off[rows] = first

    def off_in(self, counts: Counts) -> Distribution:
        """Chance of bearing ``counts`` off in exactly ``n`` rolls, for ``n`` from 0."""
        row: Distribution = self._all_off[self.index[counts]]
        return row

    def first_off_in(self, counts: Counts) -> Distribution:
        """Chance that ``counts``' first checker comes off at roll ``n``, for ``n`` from 0."""
        row: Distribution = self._first_off[self.index[counts]]
        return row


def pips(counts: Counts) -> int:
    return sum((point + 1) * count for point, count in enumerate(counts))


ROLLS = [(high, low) for high in range(1, POINTS + 1) for low in range(1, high + 1)]
"""The 21 rolls, each with its chance below."""
ROLL_CHANCES = np.array([1 / 36 if high == low else 2 / 36 for high, low in ROLLS])


def _best_after_each_roll(
    moves: list[npt.NDArray[np.int64]],
    rows: npt.NDArray[np.int64],
    value: npt.NDArray[np.float64],
    checkers: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]:
    """For each placing in ``rows`` and each roll, the placing its best play leaves: the
    lowest ``value``, or, given ``checkers``, a placing with fewer checkers than the
    start first. Every placing reached lies on a lower level, whose values are known."""

    def score(reached: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        if checkers is None:
            return value[reached]
        return np.where(checkers[reached] < checkers[rows][:, None], 0.0, value[reached])

    local = np.arange(len(rows))
    finals = np.empty((len(rows), len(ROLLS)), dtype=np.int64)
    for number, (high, low) in enumerate(ROLLS):
        dice = [high] * 4 if high == low else [high, low]
        orders = [dice] if high == low else [dice, dice[::-1]]
        best_value = np.full(len(rows), np.inf)
        best = np.zeros(len(rows), dtype=np.int64)
        for order in orders:
            reached = rows[:, None]
            for die in order:
                reached = moves[die - 1][reached].reshape(len(rows), -1)
            values = score(reached)
            choice = np.argmin(values, axis=1)
            found = values[local, choice]
            better = found < best_value
            best_value[better] = found[better]
            best[better] = reached[local, choice][better]
        finals[:, number] = best
    return finals


def _step(
    finals: npt.NDArray[np.int64], expected: npt.NDArray[np.float64], table: Distribution
) -> tuple[npt.NDArray[np.float64], Distribution]:
    """One roll more than the placings each roll leaves: the expectation and the shifted
    distribution, weighted by the rolls' chances."""
    expected_rows = 1.0 + expected[finals] @ ROLL_CHANCES
    shifted = np.einsum("r,nrk->nk", ROLL_CHANCES, table[finals])
    out = np.zeros((len(finals), ROLLS_KEPT))
    out[:, 1:] = shifted[:, :-1]
    return expected_rows, out


def _first_step(
    finals: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    checkers: npt.NDArray[np.int64],
    expected: npt.NDArray[np.float64],
    table: Distribution,
) -> tuple[npt.NDArray[np.float64], Distribution]:
    """As :func:`_step`, where a roll that takes a checker off ends it."""
    off = checkers[finals] < checkers[rows][:, None]
    expected_rows = 1.0 + np.where(off, 0.0, expected[finals]) @ ROLL_CHANCES
    later = np.where(off[:, :, None], 0.0, table[finals])
    out = np.zeros((len(finals), ROLLS_KEPT))
    out[:, 1] = off.astype(np.float64) @ ROLL_CHANCES
    out[:, 1:] += np.einsum("r,nrk->nk", ROLL_CHANCES, later)[:, :-1]
    return expected_rows, out


@functools.cache
def bear_off_table() -> BearOffTable:
    """The table, built on first use and kept."""
    return BearOffTable()


def race_chances(on_roll: Counts, on_roll_off: int, other: Counts, other_off: int) -> Distribution:
    """Win, gammon and backgammon chances of both sides (tavla.bots.outcomes' order:
    win, win gammon, win backgammon, lose gammon, lose backgammon) for the side on roll,
    when both bear off from their home boards with no contact: ``on_roll`` and ``other``
    are the checkers on each side's points 1 to 6, ``*_off`` those already off. Nobody
    can be caught with a checker in the winner's home board: no backgammons."""
    table = bear_off_table()
    mine, theirs = table.off_in(on_roll), table.off_in(other)
    # I win if I finish at my roll n while he needs n or more of his.
    win = float(mine @ _from_on(theirs))
    gammon = lost_gammon = 0.0
    if other_off == 0:
        # He has none off after his first n - 1 rolls: his first comes off at roll n or later.
        gammon = float(mine @ _from_on(table.first_off_in(other)))
    if on_roll_off == 0:
        # He finishes at his roll n, after my n rolls, none of which took one off.
        lost_gammon = float(theirs[:-1] @ _from_on(table.first_off_in(on_roll))[1:])
    return np.array([win, gammon, 0.0, lost_gammon, 0.0])


def _from_on(distribution: Distribution) -> Distribution:
    """Chance of ``n`` rolls or more, for each ``n`` (sums from the tail: never below 0)."""
    return np.cumsum(distribution[::-1])[::-1]
