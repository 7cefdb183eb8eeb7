"""Chances of the next roll read off whole arrays of boards: that a side hits a blot,
that a checker gets past a blockade. They are board terms (:mod:`tavla.bots.terms`)
a network can be given, counted over the 36 rolls as a player counts shots.

A side is described as it moves: cell 0 is its bar, 1-24 the points in the order it
travels them. A row of cells is held as the bits of one integer, so the cells a die
reaches are a shift of it: all 21 rolls of all boards are a few dozen array
operations, fast enough for every candidate turn of a move.

What is left out, as in the counts a player makes: whether the hitter could then
legally finish the roll, and a double's steps shared between an entered checker and
another.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Board = npt.NDArray[np.bool_]
"""Rows of 25 cells: a side's bar, then its points in the order it moves."""
Chances = npt.NDArray[np.float64]
Masks = npt.NDArray[np.int64]
"""Rows of cells as bits (bit k: cell k), so moving a die's pips is a shift."""

CELLS = 25
_BITS = np.int64(1) << np.arange(CELLS, dtype=np.int64)
_DIE_SHIFTS = np.arange(1, 7, dtype=np.int64)
_PAIRS = [(a, b) for a in range(6) for b in range(6) if a < b]
_FIRST, _SECOND = np.array([a for a, _ in _PAIRS]), np.array([b for _, b in _PAIRS])
ROLL_COUNTS = np.array([2.0] * len(_FIRST) + [1.0] * 6)
"""In how many of the 36 ways each roll of :func:`reached_by_roll`'s order comes: the 15
non-doubles a < b (1-2, 1-3, ... 5-6) twice, then the doubles 1-1 to 6-6 once."""
ROLL_WEIGHTS = ROLL_COUNTS / 36.0
"""The chance of each roll of :func:`reached_by_roll`'s order."""


def as_masks(cells: Board) -> Masks:
    """Each row of 25 cells as one integer."""
    return np.asarray(cells.astype(np.int64) @ _BITS)


def reached_by_roll(sources: Board, open_cells: Board, on_bar: npt.NDArray[np.int64]) -> Masks:
    """For each of the 21 rolls, the cells some checker of ``sources`` can land on with
    it, as masks ``[21, rows]``.

    ``open_cells`` are the cells a checker may land on (not held by the other side);
    ``on_bar`` is how many checkers wait on the bar (cell 0). While one does, it moves
    first and another checker may use the other die once it entered; while two or more
    do, a non-double enters two and goes no further, and a double takes a step of its
    four for each and leaves the rest to any checker.
    """
    source, board = as_masks(sources), as_masks(sources & (np.arange(CELLS) > 0))
    opened = as_masks(open_cells)
    first = np.where(on_bar > 0, source & 1, source)
    one = (first << _DIE_SHIFTS[:, None]) & opened  # [die, rows]
    two = (one[None, :, :] << _DIE_SHIFTS[:, None, None]) & opened  # [second, first, rows]
    dice = np.arange(6)
    same = two[dice, dice]
    three = (same << _DIE_SHIFTS[:, None]) & opened
    four = (three << _DIE_SHIFTS[:, None]) & opened
    others = (board << _DIE_SHIFTS[:, None]) & opened
    entered = one != 0  # for a waiting checker: the die enters it
    combined = np.where(on_bar >= 2, 0, two[_SECOND, _FIRST] | two[_FIRST, _SECOND])
    single = on_bar == 1
    combined |= one[_FIRST] | one[_SECOND]
    combined |= np.where(single & entered[_FIRST], others[_SECOND], 0)
    combined |= np.where(single & entered[_SECOND], others[_FIRST], 0)
    doubled = one | np.where(on_bar <= 3, same, 0) | np.where(on_bar <= 2, three, 0)
    doubled |= np.where(on_bar <= 1, four, 0)
    # A double that entered every waiting checker leaves 4 - waiting steps to any checker.
    others_two = (others << _DIE_SHIFTS[:, None]) & opened
    others_three = (others_two << _DIE_SHIFTS[:, None]) & opened
    freed = entered & (on_bar >= 1)
    doubled |= np.where(freed & (on_bar <= 3), others, 0)
    doubled |= np.where(freed & (on_bar <= 2), others_two, 0)
    doubled |= np.where(freed & (on_bar == 1), others_three, 0)
    return np.concatenate([combined, doubled])


def chance_to_land(
    sources: Board, open_cells: Board, on_bar: npt.NDArray[np.int64], targets: Board
) -> Chances:
    """Per row, the chance that the next roll lets some checker land on a target cell."""
    reached = reached_by_roll(sources, open_cells, on_bar)
    return np.asarray(ROLL_WEIGHTS @ ((reached & as_masks(targets)) != 0))


def escape_chance(
    sources: Board, open_cells: Board, on_bar: npt.NDArray[np.int64], reach: int = 8
) -> Chances:
    """Per row, the chance that the next roll takes the side's rearmost checker past the
    last cell held against it within ``reach`` pips in front; 1 where nothing is held
    there (the checker is free already), and 0 for a side with no checker left."""
    cells = np.arange(CELLS)
    present = sources.any(axis=1)
    back = np.where(present, sources.argmax(axis=1), 0)
    ahead = (cells > back[:, None]) & (cells <= back[:, None] + reach)
    held_ahead = ~open_cells & ahead
    last = np.where(held_ahead, cells, -1).max(axis=1)
    beyond = cells > last[:, None]
    chance = chance_to_land(cells == back[:, None], open_cells, on_bar, beyond)
    return np.where(present, np.where(held_ahead.any(axis=1), chance, 1.0), 0.0)
