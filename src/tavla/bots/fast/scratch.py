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

from tavla.bots.fast.store import ROW_BYTES, Cells, Rows, Table

SLOTS = 6
"""Sets per store: five for a search's levels or depths, one for a level."""
FIRST_CAPACITY = 4096
MEMO_CAPACITY = 16384
"""A random playout's long doubles need up to about 9,000 memo rows (measured, gulbara);
a turn whose memo fills up is planned again on one four times larger."""
BEAM_CAPACITY = 1 << 17
"""A bot's beam over a huge double plans every die of it from many states: chelebi's
1-1 from some positions needs more than 16,384 memo rows (measured)."""


class Scratch:
    """A store: ``rows``, ``table``, ``stamps`` and ``counts`` (plus an overflow flag)."""

    def __init__(self, slots: int = SLOTS, capacity: int = FIRST_CAPACITY) -> None:
        self.slots = slots
        self.capacity = capacity
        self.rows: Rows = np.zeros((slots, capacity, ROW_BYTES), dtype=np.int8)
        self.table: Table = np.zeros((slots, 2 * capacity), dtype=np.int64)
        self.stamps: Cells = np.ones(slots, dtype=np.int64)
        # counts[slots] is the overflow flag a search raises and its caller resets.
        self.counts: Cells = np.zeros(slots + 1, dtype=np.int64)

    def arrays(self) -> tuple[Rows, Table, Cells, Cells]:
        return self.rows, self.table, self.stamps, self.counts

    def grow(self) -> None:
        """Four times the capacity (after an overflow): the next search starts afresh."""
        self.__init__(self.slots, self.capacity * 4)  # type: ignore[misc]


_local = threading.local()


def search_store() -> Scratch:
    """This thread's store for the turn searches."""
    found: Scratch | None = getattr(_local, "search", None)
    if found is None:
        found = _local.search = Scratch()
    return found


def memo_store() -> Scratch:
    """This thread's memo of ``search.reach`` (one slot, grown apart from the searches')."""
    found: Scratch | None = getattr(_local, "memo", None)
    if found is None:
        found = _local.memo = Scratch(1, MEMO_CAPACITY)
    return found


def beam_store() -> Scratch:
    """This thread's memo of ``search.reach`` for the beam searches (one slot), kept apart
    from the playouts' so that each grows to what its searches need."""
    found: Scratch | None = getattr(_local, "beam", None)
    if found is None:
        found = _local.beam = Scratch(1, BEAM_CAPACITY)
    return found
