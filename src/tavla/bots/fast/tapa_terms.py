"""Tapa's board terms and pin chances, compiled: :func:`tavla.bots.terms.tapa_chance_terms`
row by row.

The numpy reference spends a hundred array operations on each call whatever the
number of rows, and a move calls it for a few dozen rows: in self-play it took half
of every turn. Here one pass over each row's 24 points does the same counts.
Every result is built as the reference builds it, from whole-number sums with one
division at the end, so the two agree to the last bit (``tests/bots/test_terms.py``).

A row is the tapa encoder's (``docs/features.md``): per point of mine, four count
units of my free checkers, four of his, then whether one of mine and one of his lie
pinned there; then the checkers off and the mothers pinned.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavla.bots.fast.jit import AVAILABLE, jit, jit_inline

__all__ = ["AVAILABLE", "TERMS", "tapa_chance_terms"]

TERMS = 16
"""The twelve board terms, then the four pin chances (``TAPA_CHANCE_NAMES``)."""
_NONDOUBLES = 15


@jit_inline
def _reached(sources: np.int64, opened: np.int64, out: npt.NDArray[np.int64]) -> None:
    """The cells some checker of ``sources`` lands on with each of the 21 rolls (the order
    of ``chances.ROLL_WEIGHTS``), no checker waiting on a bar (tapa has none)."""
    one = np.zeros(7, dtype=np.int64)
    for die in range(1, 7):
        one[die] = (sources << die) & opened
    roll = 0
    for low in range(1, 7):
        for high in range(low + 1, 7):
            out[roll] = one[low] | one[high] | ((one[low] << high) & opened) | ((one[high] << low) & opened)
            roll += 1
    for die in range(1, 7):
        two = (one[die] << die) & opened
        three = (two << die) & opened
        four = (three << die) & opened
        out[roll] = one[die] | two | three | four
        roll += 1


@jit_inline
def _pin_chance(reached: npt.NDArray[np.int64], targets: np.int64) -> float:
    """The chance (in 36ths, then divided) that a roll lands on one of ``targets``."""
    count = 0
    for roll in range(21):
        if reached[roll] & targets:
            count += 2 if roll < _NONDOUBLES else 1
    return count / 36.0


_INDIRECT = 1
_DIRECT = 2


@jit_inline
def _shot(shooters: npt.NDArray[np.float64], first: int, last: int, point: int) -> int:
    """How a lone checker on ``point`` can be shot at from ``shooters`` on points
    ``first``..``last``: ``_DIRECT`` from within 6 pips, else ``_INDIRECT`` from 7-11,
    else 0."""
    found = 0
    for q in range(first, last + 1):
        if shooters[q] > 0:
            if abs(point - q) <= 6:
                return _DIRECT
            found = _INDIRECT
    return found


@jit
def tapa_chance_terms(rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``tavla.bots.terms.tapa_chance_terms(rows)`` for rows of float64 features."""
    result = np.zeros((rows.shape[0], TERMS))
    mine = np.zeros(25)
    theirs = np.zeros(25)
    my_pinned = np.zeros(25)
    their_pinned = np.zeros(25)
    reached = np.zeros(21, dtype=np.int64)
    for r in range(rows.shape[0]):
        row = rows[r]
        for p in range(1, 25):
            base = 10 * (p - 1)
            mine[p] = row[base] + row[base + 1] + row[base + 2] + 2.0 * row[base + 3]
            theirs[p] = row[base + 4] + row[base + 5] + row[base + 6] + 2.0 * row[base + 7]
            my_pinned[p] = row[base + 8]
            their_pinned[p] = row[base + 9]
        my_pips = 0.0
        their_pips = 0.0
        his_pin_value = 0.0
        my_pin_value = 0.0
        made = 0.0
        mine_pinned_count = 0.0
        theirs_pinned_count = 0.0
        home = 0.0
        run = 0.0
        prime = 0.0
        for p in range(1, 25):
            my_pips += (mine[p] + my_pinned[p]) * p
            their_pips += (theirs[p] + their_pinned[p]) * (25 - p)
            his_pin_value += their_pinned[p] * (49 - p)
            my_pin_value += my_pinned[p] * (24 + p)
            mine_pinned_count += my_pinned[p]
            theirs_pinned_count += their_pinned[p]
            if mine[p] >= 2:
                made += 1.0
            held = mine[p] >= 2 or their_pinned[p] > 0
            if held:
                run += 1.0
                if p <= 6:
                    home += 1.0
            else:
                run = 0.0
            prime = max(prime, run)
        # Exposure: my lone free checkers within his reach (he moves up my points), his within mine.
        my_direct = 0.0
        my_indirect = 0.0
        his_direct = 0.0
        his_indirect = 0.0
        for p in range(1, 25):
            if mine[p] == 1 and their_pinned[p] == 0:
                shot = _shot(theirs, max(1, p - 11), p - 1, p)
                my_direct += shot == _DIRECT
                my_indirect += shot == _INDIRECT
            if theirs[p] == 1 and my_pinned[p] == 0:
                shot = _shot(mine, p + 1, min(24, p + 11), p)
                his_direct += shot == _DIRECT
                his_indirect += shot == _INDIRECT
        out = result[r]
        out[0] = (their_pips - my_pips) / 25.0
        out[1] = (his_pin_value - my_pin_value) / 24.0
        out[2] = row[243] - row[242]
        out[3] = my_direct + 0.4 * my_indirect
        out[4] = made
        out[5] = my_pips / 100.0
        out[6] = their_pips / 100.0
        out[7] = mine_pinned_count
        out[8] = theirs_pinned_count
        out[9] = his_direct + 0.4 * his_indirect
        out[10] = home / 6.0
        out[11] = prime / 6.0
        # The pin chances: his cells are my points 1-24 as he travels them, mine 25 - p.
        his_sources = np.int64(0)
        his_open = np.int64(0)
        my_lone = np.int64(0)
        my_sources = np.int64(0)
        my_open = np.int64(0)
        his_lone = np.int64(0)
        for p in range(1, 25):
            his_bit = np.int64(1) << p
            my_bit = np.int64(1) << (25 - p)
            if theirs[p] > 0:
                his_sources |= his_bit
            if not (mine[p] >= 2 or (mine[p] >= 1 and their_pinned[p] > 0)):
                his_open |= his_bit
            if mine[p] == 1:
                my_lone |= his_bit
            if mine[p] > 0:
                my_sources |= my_bit
            if not (theirs[p] >= 2 or (theirs[p] >= 1 and my_pinned[p] > 0)):
                my_open |= my_bit
            if theirs[p] == 1:
                his_lone |= my_bit
        mother = np.int64(1) << 24
        _reached(his_sources, his_open, reached)
        out[12] = _pin_chance(reached, my_lone)
        out[13] = _pin_chance(reached, my_lone & mother)
        _reached(my_sources, my_open, reached)
        out[14] = _pin_chance(reached, his_lone)
        out[15] = _pin_chance(reached, his_lone & mother)
    return result
