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

from tavla.bots.fast.jit import jit

Rows = npt.NDArray[np.int8]
Table = npt.NDArray[np.int64]
Cells = npt.NDArray[np.int64]

INDEX_BITS = 24
INDEX_MASK = (1 << INDEX_BITS) - 1
OVERFLOW = -2
"""Returned by :func:`insert` when the slot is full."""
ADDED_BEFORE = -1
"""Returned by :func:`insert` for a row the slot already holds."""


@jit
def clear(table: Table, stamps: Cells, counts: Cells, slot: int) -> None:
    """Empty ``slot`` (a new stamp: older table entries read as free)."""
    stamps[slot] += 1
    counts[slot] = 0


@jit
def _hash(row: Cells, size: int) -> int:
    code = 0
    for cell in range(size):
        code = code * 1_000_003 + row[cell] + 128
    return code ^ (code >> 17)


@jit
def find(rows: Rows, table: Table, stamps: Cells, slot: int, row: Cells, size: int) -> int:
    """The index of the row of ``slot`` that begins with ``row[:size]``, or -1."""
    mask = table.shape[1] - 1
    place = _hash(row, size) & mask
    stamp = stamps[slot]
    while True:
        entry = table[slot, place]
        if entry >> INDEX_BITS != stamp:
            return -1
        index = entry & INDEX_MASK
        same = True
        for cell in range(size):
            if rows[slot, index, cell] != row[cell]:
                same = False
                break
        if same:
            return int(index)
        place = (place + 1) & mask


@jit
def insert(
    rows: Rows, table: Table, stamps: Cells, counts: Cells, slot: int, row: Cells, size: int, width: int
) -> int:
    """Add ``row[:width]`` to ``slot`` unless a row with the same key ``row[:size]`` is there.

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
            for cell in range(width):
                rows[slot, count, cell] = row[cell]
            table[slot, place] = (stamp << INDEX_BITS) | count
            counts[slot] = count + 1
            return int(count)
        index = entry & INDEX_MASK
        same = True
        for cell in range(size):
            if rows[slot, index, cell] != row[cell]:
                same = False
                break
        if same:
            return ADDED_BEFORE
        place = (place + 1) & mask
