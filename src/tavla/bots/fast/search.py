"""The framework's turn search and step planner, compiled, for any kind of :mod:`steps`.

- :func:`turn_states` is ``turns.turn_states_within``: breadth-first over the dice
  of each sequence, de-duplicated after every die, then the turns that play the
  most dice (``turns._maximal``): the same states in the same order.
- :func:`reach` and :func:`planner_steps` are ``turns.Reach`` and
  ``StepPlanner.legal_steps`` for a single sequence of dice (a progressive double
  or a gulbara completion, the only turns too large to list): the steps that keep
  a turn of the most dice reachable, in the step function's order.

Slots of the store: a sequence's levels alternate between slots 0 and 1 (the
second sequence's between 2 and 3), the merged result goes to slot 4, and slot 5
is :func:`reach`'s memo: a row is a state, the number of dice still to play, and
(not part of the key) how many of them can be played.
"""

from __future__ import annotations

import numpy as np

from tavla.bots.fast.jit import jit
from tavla.bots.fast.steps import MAX_STEPS, successors
from tavla.bots.fast.store import OVERFLOW, Cells, Rows, Table, clear, find, insert

TOO_MANY = -1
MERGED = 4
MEMO = 5


@jit
def _row(rows: Rows, slot: int, index: int, width: int) -> Cells:
    row = np.empty(width, dtype=np.int64)
    for cell in range(width):
        row[cell] = rows[slot, index, cell]
    return row


@jit
def _sequence(
    kind: int, width: int, start: Cells, dice: Cells, length: int, limit: int, first_slot: int,
    rows: Rows, table: Table, stamps: Cells, counts: Cells,
) -> tuple[int, int]:  # fmt: skip
    """One sequence breadth-first: (dice played or TOO_MANY or OVERFLOW, the final level's slot)."""
    current = first_slot
    clear(table, stamps, counts, current)
    insert(rows, table, stamps, counts, current, start, width, width)
    out = np.empty((MAX_STEPS, width), dtype=np.int64)
    depth = 0
    for position in range(length):
        following = first_slot + 1 - (current - first_slot)
        clear(table, stamps, counts, following)
        for index in range(counts[current]):
            state = _row(rows, current, index, width)
            for step in range(successors(kind, state, dice[position], out)):
                if insert(rows, table, stamps, counts, following, out[step], width, width) == OVERFLOW:
                    return OVERFLOW, current
            if 0 <= limit < counts[following]:
                return TOO_MANY, current
        if counts[following] == 0:
            break
        current = following
        depth += 1
    return depth, current


@jit
def turn_states(
    kind: int, width: int, start: Cells, dice: Cells, lengths: Cells, limit: int, prefer_first: bool,
    rows: Rows, table: Table, stamps: Cells, counts: Cells,
) -> tuple[int, int, int]:  # fmt: skip
    """(number of states or TOO_MANY or OVERFLOW, dice played, slot of the states).

    ``dice[s, :lengths[s]]`` is sequence ``s`` (one or two sequences).
    """
    played0, slot0 = _sequence(kind, width, start, dice[0], lengths[0], limit, 0, rows, table, stamps, counts)
    if played0 < 0:
        return played0, 0, slot0
    if lengths.shape[0] == 1:
        return counts[slot0], played0, slot0
    played1, slot1 = _sequence(kind, width, start, dice[1], lengths[1], limit, 2, rows, table, stamps, counts)
    if played1 < 0:
        return played1, 0, slot1
    best = max(played0, played1)
    if prefer_first and best == 1 and played0 == 1:
        return counts[slot0], 1, slot0
    if played0 != best:
        return counts[slot1], best, slot1
    if played1 != best:
        return counts[slot0], best, slot0
    clear(table, stamps, counts, MERGED)
    for slot in (slot0, slot1):
        for index in range(counts[slot]):
            added = insert(rows, table, stamps, counts, MERGED, _row(rows, slot, index, width), width, width)
            if added == OVERFLOW:
                return OVERFLOW, 0, MERGED
    return counts[MERGED], best, MERGED


@jit
def reach(
    kind: int, width: int, state: Cells, dice: Cells, position: int, length: int,
    rows: Rows, table: Table, stamps: Cells, counts: Cells,
) -> int:  # fmt: skip
    """How many of ``dice[position:length]`` can be played in order from ``state``, memoised."""
    if position == length:
        return 0
    key = np.empty(width + 2, dtype=np.int64)
    for cell in range(width):
        key[cell] = state[cell]
    key[width] = length - position
    found = find(rows, table, stamps, MEMO, key, width + 1)
    if found >= 0:
        return int(rows[MEMO, found, width + 1])
    out = np.empty((MAX_STEPS, width), dtype=np.int64)
    best = 0
    for step in range(successors(kind, state, dice[position], out)):
        got = 1 + reach(kind, width, out[step], dice, position + 1, length, rows, table, stamps, counts)
        if got > best:
            best = got
            if best == length - position:
                break
    key[width + 1] = best
    if insert(rows, table, stamps, counts, MEMO, key, width + 1, width + 2) == OVERFLOW:
        # A memo only saves time: start it afresh rather than fail.
        clear(table, stamps, counts, MEMO)
        insert(rows, table, stamps, counts, MEMO, key, width + 1, width + 2)
    return best


@jit
def planner_steps(
    kind: int, width: int, state: Cells, dice: Cells, position: int, length: int, need: int, out: Cells,
    rows: Rows, table: Table, stamps: Cells, counts: Cells,
) -> int:  # fmt: skip
    """``StepPlanner.legal_steps`` with ``position`` dice played of one sequence: the
    states after the steps of ``dice[position]`` that keep ``need`` dice playable in all,
    in step order, into ``out``; how many."""
    steps = np.empty((MAX_STEPS, width), dtype=np.int64)
    count = 0
    for step in range(successors(kind, state, dice[position], steps)):
        seen = False
        for earlier in range(count):
            same = True
            for cell in range(width):
                if out[earlier, cell] != steps[step, cell]:
                    same = False
                    break
            if same:
                seen = True
                break
        if seen:
            continue
        got = reach(kind, width, steps[step], dice, position + 1, length, rows, table, stamps, counts)
        if 1 + got >= need:
            for cell in range(width):
                out[count, cell] = steps[step, cell]
            count += 1
    return count
