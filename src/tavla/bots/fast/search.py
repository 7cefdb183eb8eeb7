"""The framework's turn search and step planner, compiled, for any kind of :mod:`steps`.

- :func:`turn_states` is ``turns.turn_states_within``: breadth-first over the dice
  of each sequence, de-duplicated after every die, then the turns that play the
  most dice (``turns._maximal``): the same states in the same order.
- :func:`reach` and :func:`planner_steps` are ``turns.Reach`` and
  ``StepPlanner.legal_steps`` for a single sequence of dice (a progressive double
  or a gulbara completion, the only turns too large to list): the steps that keep
  a turn of the most dice reachable, in the step function's order.

Slots of the store: a sequence's levels alternate between slots 0 and 1 (the
second sequence's between 2 and 3), the merged result goes to slot 4 (slot 5 is
for ``tabla``'s chelebi levels). :func:`reach`'s memo is a store of its own
(one slot): a row is a state with the number of dice still to play in the last
cell of its key, and after the key (not part of it) how many of those dice can
be played. ``size`` is the kind's ``store.key_size``.
"""

from __future__ import annotations

import numpy as np

from tavla.bots.fast.jit import jit
from tavla.bots.fast.steps import MAX_STEPS, play, sources, successors
from tavla.bots.fast.store import OVERFLOW, ROW_BYTES, Cells, Rows, Table, clear, find, insert

TOO_MANY = -1
MERGED = 4
MEMO = 0
"""The memo's slot, in a store of its own."""
FULL = -2
"""What :func:`reach` and :func:`planner_steps` answer once the memo is full (its store's
overflow flag raised): the caller grows the memo and asks again. Emptying it and going
on instead searched the same states again and again, for minutes on some of chelebi's
and gulbara's long doubles (one of them: 178 s where a large enough memo takes 0.1 s)."""


@jit
def _sequence(
    kind: int,
    size: int,
    start: Rows,
    dice: Cells,
    length: int,
    limit: int,
    first_slot: int,
    last_slot: int,
    out: Rows,
    points: Cells,
    rows: Rows,
    table: Table,
    stamps: Cells,
    counts: Cells,
) -> tuple[int, int]:
    """One sequence breadth-first: (dice played or TOO_MANY or OVERFLOW, the final level's slot).

    Levels alternate between ``first_slot`` and the next one, except that the
    states after every die go to ``last_slot`` when it is not negative: adding
    them to another sequence's full turns there (kept first, each state once) is
    the merge of ``turns._maximal`` when that sequence played all its dice.
    """
    current = first_slot
    clear(table, stamps, counts, current)
    insert(rows, table, stamps, counts, current, start, size)
    depth = 0
    for position in range(length):
        following = first_slot + 1 - (current - first_slot)
        if position == length - 1 and last_slot >= 0:
            following = last_slot
            before = counts[following]
        else:
            clear(table, stamps, counts, following)
            before = 0
        for index in range(counts[current]):
            for step in range(successors(kind, rows[current, index], dice[position], out, points)):
                if insert(rows, table, stamps, counts, following, out[step], size) == OVERFLOW:
                    return OVERFLOW, current
            if 0 <= limit < counts[following] - before:
                return TOO_MANY, current
        if counts[following] == before:
            break
        current = following
        depth += 1
    return depth, current


@jit
def turn_states(
    kind: int,
    size: int,
    start: Rows,
    dice: Cells,
    lengths: Cells,
    limit: int,
    prefer_first: bool,
    rows: Rows,
    table: Table,
    stamps: Cells,
    counts: Cells,
) -> tuple[int, int, int]:
    """(number of states or TOO_MANY or OVERFLOW, dice played, slot of the states).

    ``start`` holds the state's cells only; ``dice[s, :lengths[s]]`` is sequence
    ``s`` (one or two sequences).
    """
    row = np.zeros(ROW_BYTES, dtype=np.int8)
    row[: start.shape[0]] = start
    out = np.zeros((MAX_STEPS, ROW_BYTES), dtype=np.int8)
    points = np.empty(MAX_STEPS, dtype=np.int64)
    played0, slot0 = _sequence(
        kind, size, row, dice[0], lengths[0], limit, 0, -1, out, points, rows, table, stamps, counts
    )
    if played0 < 0:
        return played0, 0, slot0
    if lengths.shape[0] == 1:
        return counts[slot0], played0, slot0
    # The second sequence's full turns join the first's when that played every die.
    merge_into = slot0 if played0 == lengths[0] >= lengths[1] and limit < 0 else -1
    played1, slot1 = _sequence(
        kind, size, row, dice[1], lengths[1], limit, 2, merge_into, out, points, rows, table, stamps, counts
    )
    if played1 < 0:
        return played1, 0, slot1
    if merge_into >= 0:
        return counts[slot0], max(played0, played1), slot0
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
            if insert(rows, table, stamps, counts, MERGED, rows[slot, index], size) == OVERFLOW:
                return OVERFLOW, 0, MERGED
    return counts[MERGED], best, MERGED


@jit
def reach(
    kind: int,
    size: int,
    state: Rows,
    dice: Cells,
    position: int,
    length: int,
    work: Rows,
    points: Cells,
    rows: Rows,
    table: Table,
    stamps: Cells,
    counts: Cells,
) -> int:
    """How many of ``dice[position:length]`` can be played in order from ``state``, memoised;
    :data:`FULL` once the memo has no room left.

    Depth-first, stopping as soon as every die is shown playable. ``work[position]``
    is this level's room: its row 0 the memo key (the state, the dice left, the
    answer), row 1 the state after the step being tried; ``points[position]`` the
    sources of this level's steps.
    """
    if position == length:
        return 0
    room = work[position]
    for cell in range(ROW_BYTES):
        room[0, cell] = state[cell]
    room[0, size - 1] = length - position  # a cell the state leaves free
    found = find(rows, table, stamps, MEMO, room[0], size)
    if found >= 0:
        return int(rows[MEMO, found, size])
    best = 0
    die = dice[position]
    level = points[position]
    for index in range(sources(kind, state, die, level)):
        play(kind, state, level[index], die, room, 1)
        got = reach(
            kind, size, room[1], dice, position + 1, length, work, points, rows, table, stamps, counts
        )
        if got == FULL:
            return FULL
        if got + 1 > best:
            best = got + 1
            if best == length - position:
                break
    room[0, size] = best
    if insert(rows, table, stamps, counts, MEMO, room[0], size) == OVERFLOW:
        counts[counts.shape[0] - 1] = 1  # the overflow flag: the caller grows the memo
        return FULL
    return best


@jit
def planner_steps(
    kind: int,
    size: int,
    state: Rows,
    dice: Cells,
    position: int,
    length: int,
    need: int,
    out: Rows,
    work: Rows,
    points: Cells,
    rows: Rows,
    table: Table,
    stamps: Cells,
    counts: Cells,
) -> int:
    """``StepPlanner.legal_steps`` with ``position`` dice played of one sequence: the
    states after the steps of ``dice[position]`` that keep ``need`` dice playable in all,
    in step order, into ``out``; how many (:data:`FULL`: the memo had no room left).
    ``work`` and ``points`` are :func:`reach`'s
    rooms (one level more than the dice)."""
    steps = work[length]
    die = dice[position]
    level = points[length]
    count = 0
    for index in range(sources(kind, state, die, level)):
        play(kind, state, level[index], die, steps, 0)
        if _listed(out, count, steps[0], size):
            continue  # the planner lists each (die, state) once
        got = reach(
            kind, size, steps[0], dice, position + 1, length, work, points, rows, table, stamps, counts
        )
        if got == FULL:
            return FULL
        if 1 + got >= need:
            out[count] = steps[0]
            count += 1
    return count


@jit
def _listed(out: Rows, count: int, row: Rows, size: int) -> bool:
    for earlier in range(count):
        difference = 0
        for cell in range(size):
            difference |= out[earlier, cell] ^ row[cell]
        if difference == 0:
            return True
    return False
