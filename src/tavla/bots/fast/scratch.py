"""The compiled searches' working memory, kept between calls and grown on demand.

A search's sets of rows live in a store (see :mod:`tavla.bots.fast.store`):
allocating and clearing one per call would cost more than the search of an
ordinary roll, so each thread keeps one and reuses it. A search that reports
``OVERFLOW`` is rerun on a store four times larger: the searches are pure
functions of their arguments, so a rerun gives what an unbounded store would.
"""

from __future__ import annotations

import threading

import numpy as np

from tavla.bots.fast.store import Cells, Rows, Table

SLOTS = 6
"""Sets per store: five for a search's levels or depths, one for a level or a memo."""
WIDTH = 64
"""Bytes per row (store.ROW_BYTES)."""
FIRST_CAPACITY = 4096


class Scratch:
    """One thread's store: ``rows``, ``table``, ``stamps`` and ``counts`` (plus a flag)."""

    def __init__(self, capacity: int = FIRST_CAPACITY) -> None:
        self.capacity = capacity
        self.rows: Rows = np.zeros((SLOTS, capacity, WIDTH), dtype=np.int8)
        self.table: Table = np.zeros((SLOTS, 2 * capacity), dtype=np.int64)
        self.stamps: Cells = np.ones(SLOTS, dtype=np.int64)
        # counts[SLOTS] is the overflow flag a search raises and its caller resets.
        self.counts: Cells = np.zeros(SLOTS + 1, dtype=np.int64)

    def grow(self) -> None:
        """Four times the capacity (after an overflow): the next search starts afresh."""
        self.__init__(self.capacity * 4)  # type: ignore[misc]


_local = threading.local()


def scratch() -> Scratch:
    """This thread's store."""
    found: Scratch | None = getattr(_local, "scratch", None)
    if found is None:
        found = _local.scratch = Scratch()
    return found
