"""Insertion-ordered sets of small int8 rows, for the compiled turn searches.

The pure-Python generators keep turns in dicts keyed by the resulting position,
first found first; the compiled ones need the same order and the same
de-duplication without Python objects. A *store* holds several such sets
(*slots*), each an array of rows in insertion order plus an open-addressing hash
table of row indices:

- ``rows[slot, i, :width]`` the i-th row added to ``slot``;
- ``table[slot, h]`` a row index in its low :data:`INDEX_BITS` bits and the
  slot's *stamp* above them; ``stamps[slot]`` the slot's current stamp and
  ``counts[slot]`` its number of rows.

Emptying a slot only bumps its stamp: every table entry with an older stamp
reads as free, so a search that starts with empty sets clears nothing. The table
has twice the rows' capacity (a power of two), so probing stays short. A slot
that would outgrow its capacity reports :data:`OVERFLOW`, and the caller retries
with a larger store (:class:`tavla.bots.fast.scratch.Scratch`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavla.bots.fast.jit import jit_inline

Rows = npt.NDArray[np.int8]
Table = npt.NDArray[np.int64]
Cells = npt.NDArray[np.int64]

ROW_BYTES = 64
"""Cells of a row: a state of at most 63 cells, zero-padded."""
INDEX_BITS = 24
INDEX_MASK = (1 << INDEX_BITS) - 1
OVERFLOW = -2
"""Returned by :func:`insert` when the slot is full."""
ADDED_BEFORE = -1
"""Returned by :func:`insert` for a row the slot already holds."""


def key_size(width: int) -> int:
    """Cells of the key of a state of ``width`` cells: the cells and one more (a memo's
    count of dice left, see ``search.reach``), rounded up to a multiple of 8."""
    return (width + 1 + 7) // 8 * 8


@jit_inline
def clear(table: Table, stamps: Cells, counts: Cells, slot: int) -> None:
    """Empty ``slot`` (a new stamp: older table entries read as free)."""
    stamps[slot] += 1
    counts[slot] = 0


_MULTIPLIERS = np.random.default_rng(20261124).integers(1, 1 << 62, size=ROW_BYTES, dtype=np.int64) | 1
"""One odd multiplier per cell. The loops below run over whole keys with no early
exit (a weighted sum, an OR of differences): the compiler turns them into vector
instructions, which beats stopping at the first difference."""


@jit_inline
def _hash(row: Rows, size: int) -> int:
    code = 0
    for cell in range(size):
        code += row[cell] * _MULTIPLIERS[cell]
    return code ^ (code >> 29)


@jit_inline
def same_key(rows: Rows, slot: int, index: int, row: Rows, size: int) -> bool:
    """Whether row ``index`` of ``slot`` begins with ``row[:size]``."""
    difference = 0
    for cell in range(size):
        difference |= rows[slot, index, cell] ^ row[cell]
    return difference == 0


@jit_inline
def find(rows: Rows, table: Table, stamps: Cells, slot: int, row: Rows, size: int) -> int:
    """The index of the row of ``slot`` whose first ``size`` cells are ``row``'s, or -1."""
    mask = table.shape[1] - 1
    place = _hash(row, size) & mask
    stamp = stamps[slot]
    while True:
        entry = table[slot, place]
        if entry >> INDEX_BITS != stamp:
            return -1
        index = entry & INDEX_MASK
        if same_key(rows, slot, index, row, size):
            return int(index)
        place = (place + 1) & mask


@jit_inline
def insert(rows: Rows, table: Table, stamps: Cells, counts: Cells, slot: int, row: Rows, size: int) -> int:
    """Add ``row`` (ROW_BYTES cells) to ``slot`` unless a row with the same first ``size``
    cells (its key) is there.

    Returns the new row's index, or ADDED_BEFORE, or OVERFLOW. (A key shorter than
    the row leaves cells for a value, as the memo of ``search.reach`` does.)
    """
    mask = table.shape[1] - 1
    place = _hash(row, size) & mask
    stamp = stamps[slot]
    while True:
        entry = table[slot, place]
        if entry >> INDEX_BITS != stamp:
            count = counts[slot]
            if count >= rows.shape[1]:
                return OVERFLOW
            for cell in range(ROW_BYTES):
                rows[slot, count, cell] = row[cell]
            table[slot, place] = (stamp << INDEX_BITS) | count
            counts[slot] = count + 1
            return int(count)
        if same_key(rows, slot, entry & INDEX_MASK, row, size):
            return ADDED_BEFORE
        place = (place + 1) & mask
