"""The tabla family's whole-turn generator, compiled: the same boards in the same order.

A port of :mod:`tavla.rules.backgammon.turngen` to loops over int64 arrays,
function by function, so that every roll lists the resulting Boards exactly as
``turn_boards`` / ``turn_boards_within`` do, in the same (first found) order:
``legal_turns()`` lists its turns in that order and the bots' feature rows
follow it. The docstrings of ``turngen`` say why each search is complete; only
the bookkeeping differs here: a found board goes into a slot of the store
(depth ``d`` of a double into slot ``d``) instead of a dict, and no step path
is kept (the pure-Python generator rebuilds the turns when someone asks).

Boards are the generator's (see ``movegen``): ``b[0]`` the mover's off,
``b[1..24]`` signed point counts, ``b[25]`` his bar, ``b[26]`` the opponent's.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavla.bots.fast.jit import jit, jit_inline
from tavla.bots.fast.store import OVERFLOW, ROW_BYTES, Cells, Rows, Table, clear, insert

BAR = 25
OPP_BAR = 26
CELLS = 27
KEY = 32
"""A Board's key in the store: its 27 cells and 5 zero cells (``store.key_size``)."""
LEVEL = 5
"""The store slot holding chelebi's level between groups of four dice."""
TOO_MANY = -1
"""Status: more positions than the limit (``turn_boards_within`` gives None)."""

Features = npt.NDArray[np.float32]


@jit_inline
def _add(rows: Rows, table: Table, stamps: Cells, counts: Cells, slot: int, b: Rows) -> None:
    if insert(rows, table, stamps, counts, slot, b, KEY) == OVERFLOW:
        counts[counts.shape[0] - 1] = 1


@jit_inline
def _far_from_home(b: Rows, steps: int) -> bool:
    if b[BAR]:
        return False
    outside = 0
    for point in range(24, 6, -1):
        n = b[point]
        if n > 0:
            outside += n
            if outside >= steps:
                return True
    return False


@jit_inline
def _legal_moves(b: Rows, die: int, top: int, sources: Cells, targets: Cells) -> int:
    """``turngen._legal_moves`` into ``sources``/``targets``: how many."""
    if b[BAR]:
        target = BAR - die
        if b[target] >= -1:
            sources[0] = BAR
            targets[0] = target
            return 1
        return 0
    high = 24
    while high and b[high] <= 0:
        high -= 1
    count = 0
    if high > 6:
        for point in range(high if high < top else top, die, -1):
            if b[point] > 0 and b[point - die] >= -1:
                sources[count] = point
                targets[count] = point - die
                count += 1
        return count
    for point in range(high if high < top else top, 0, -1):
        if b[point] > 0:
            target = point - die
            if target > 0:
                if b[target] >= -1:
                    sources[count] = point
                    targets[count] = target
                    count += 1
            elif target == 0 or point == high:
                sources[count] = point
                targets[count] = 0
                count += 1
    return count


@jit_inline
def _move(b: Rows, point: int, target: int) -> int:
    """Play ``point`` -> ``target`` (0 off) on ``b``: the target's count before, for undo."""
    x = b[target]
    b[point] -= 1
    if target == 0:
        b[0] = x + 1
    elif x == -1:
        b[target] = 1
        b[OPP_BAR] += 1
    else:
        b[target] = x + 1
    return int(x)


@jit_inline
def _undo(b: Rows, point: int, target: int, x: int) -> None:
    b[target] = x
    b[point] += 1
    if x == -1 and target:
        b[OPP_BAR] -= 1


@jit
def _plain_far(b: Rows, high: int, low: int, rows: Rows, table: Table, stamps: Cells, counts: Cells) -> int:
    """``turngen._plain_far`` into slot 0: dice played."""
    legal_high = np.empty(24, dtype=np.int64)
    legal_low = np.empty(24, dtype=np.int64)
    n_high = 0
    n_low = 0
    for point in range(24, 0, -1):
        if b[point] > 0:
            if point > high and b[point - high] >= -1:
                legal_high[n_high] = point
                n_high += 1
            if point > low and b[point - low] >= -1:
                legal_low[n_low] = point
                n_low += 1
    clear(table, stamps, counts, 0)
    for low_first in range(2):
        first = low if low_first else high
        second = high if low_first else low
        firsts = legal_low if low_first else legal_high
        n_firsts = n_low if low_first else n_high
        for i in range(n_firsts):
            point = firsts[i]
            target = point - first
            n = b[point]
            x = b[target]
            b[point] = n - 1
            if x == -1:
                b[target] = 1
                b[OPP_BAR] += 1
            else:
                b[target] = x + 1
            if x <= 0:
                # The checker on ``target`` is new: its own second step, if open.
                to = target - second
                if to > 0 and b[to] >= -1:
                    y = b[to]
                    b[target] = 0
                    if y == -1:
                        b[to] = 1
                        b[OPP_BAR] += 1
                        _add(rows, table, stamps, counts, 0, b)
                        b[OPP_BAR] -= 1
                    else:
                        b[to] = y + 1
                        _add(rows, table, stamps, counts, 0, b)
                    b[to] = y
                    b[target] = 1
            if not low_first:
                for j in range(n_low):
                    other = legal_low[j]
                    m = b[other]
                    if m <= 0:
                        continue
                    to = other - second
                    y = b[to]
                    b[other] = m - 1
                    if y == -1:
                        b[to] = 1
                        b[OPP_BAR] += 1
                        _add(rows, table, stamps, counts, 0, b)
                        b[OPP_BAR] -= 1
                    else:
                        b[to] = y + 1
                        _add(rows, table, stamps, counts, 0, b)
                    b[to] = y
                    b[other] = m
            b[target] = x
            b[point] = n
            if x == -1:
                b[OPP_BAR] -= 1
    if counts[0]:
        return 2
    # One die at most: the high one if it can be played (RULES.md 1.3).
    for low_first in range(2):
        die = low if low_first else high
        singles = legal_low if low_first else legal_high
        n_singles = n_low if low_first else n_high
        if n_singles:
            for i in range(n_singles):
                point = singles[i]
                x = _move(b, point, point - die)
                _add(rows, table, stamps, counts, 0, b)
                _undo(b, point, point - die, x)
            return 1
    _add(rows, table, stamps, counts, 0, b)
    return 0


@jit
def _plain(b: Rows, high: int, low: int, rows: Rows, table: Table, stamps: Cells, counts: Cells) -> int:
    """``turngen._plain`` into slot 0 (slots 1 and 2 hold the single-die turns): dice played."""
    sources1 = np.empty(26, dtype=np.int64)
    targets1 = np.empty(26, dtype=np.int64)
    sources2 = np.empty(26, dtype=np.int64)
    targets2 = np.empty(26, dtype=np.int64)
    for slot in range(3):
        clear(table, stamps, counts, slot)
    for low_first in range(2):
        first = low if low_first else high
        second = high if low_first else low
        n_firsts = _legal_moves(b, first, BAR, sources1, targets1)
        for i in range(n_firsts):
            point = sources1[i]
            target = targets1[i]
            x = _move(b, point, target)
            n_seconds = _legal_moves(b, second, BAR, sources2, targets2)
            for j in range(n_seconds):
                y = _move(b, sources2[j], targets2[j])
                _add(rows, table, stamps, counts, 0, b)
                _undo(b, sources2[j], targets2[j], y)
            if n_seconds == 0 and counts[0] == 0:
                _add(rows, table, stamps, counts, 1 + low_first, b)
            _undo(b, point, target, x)
    if counts[0]:
        return 2
    # One die at most: the high one if it can be played (RULES.md 1.3).
    for slot in (1, 2):
        if counts[slot]:
            _copy_slot(rows, table, stamps, counts, slot, 0)
            return 1
    _add(rows, table, stamps, counts, 0, b)
    return 0


@jit
def _copy_slot(rows: Rows, table: Table, stamps: Cells, counts: Cells, source: int, target: int) -> None:
    """Slot ``target`` := slot ``source`` (rows and order)."""
    clear(table, stamps, counts, target)
    for index in range(counts[source]):
        _add(rows, table, stamps, counts, target, rows[source, index])


@jit
def _run_far(b: Rows, die: int, rows: Rows, table: Table, stamps: Cells, counts: Cells) -> None:
    """``turngen._run_far``: four dice of ``die`` far from home, depth d into slot d."""
    candidate = np.zeros(25, dtype=np.bool_)
    for point in range(24, die, -1):
        if b[point] > 0:
            stop = point - 4 * die
            if stop < die:
                stop = die
            for reach in range(point, stop, -die):
                candidate[reach] = True
    moves = np.empty(24, dtype=np.int64)
    end = 0
    for point in range(24, 0, -1):
        if candidate[point] and b[point - die] >= -1:
            moves[end] = point
            end += 1
    moved1 = False
    for i1 in range(end):
        q1 = moves[i1]
        if b[q1] <= 0:
            continue
        moved1 = True
        x1 = _move(b, q1, q1 - die)
        moved2 = False
        for i2 in range(i1, end):
            q2 = moves[i2]
            if b[q2] <= 0:
                continue
            moved2 = True
            x2 = _move(b, q2, q2 - die)
            moved3 = False
            for i3 in range(i2, end):
                q3 = moves[i3]
                if b[q3] <= 0:
                    continue
                moved3 = True
                x3 = _move(b, q3, q3 - die)
                moved4 = False
                for i4 in range(i3, end):
                    q4 = moves[i4]
                    if b[q4] <= 0:
                        continue
                    moved4 = True
                    x4 = _move(b, q4, q4 - die)
                    _add(rows, table, stamps, counts, 4, b)
                    _undo(b, q4, q4 - die, x4)
                if not moved4:
                    _add(rows, table, stamps, counts, 3, b)
                _undo(b, q3, q3 - die, x3)
            if not moved3:
                _add(rows, table, stamps, counts, 2, b)
            _undo(b, q2, q2 - die, x2)
        if not moved2:
            _add(rows, table, stamps, counts, 1, b)
        _undo(b, q1, q1 - die, x1)
    if not moved1:
        _add(rows, table, stamps, counts, 0, b)


@jit
def _double_search(b: Rows, die: int, rows: Rows, table: Table, stamps: Cells, counts: Cells) -> None:
    """``turngen._double_search``, its four levels unrolled: depth d into slot d."""
    moves = np.empty((4, 2, 26), dtype=np.int64)
    n1 = _legal_moves(b, die, BAR, moves[0, 0], moves[0, 1])
    if n1 == 0:
        _add(rows, table, stamps, counts, 0, b)
        return
    for i1 in range(n1):
        p1, t1 = moves[0, 0, i1], moves[0, 1, i1]
        x1 = _move(b, p1, t1)
        n2 = _legal_moves(b, die, p1, moves[1, 0], moves[1, 1])
        if n2 == 0:
            _add(rows, table, stamps, counts, 1, b)
        for i2 in range(n2):
            p2, t2 = moves[1, 0, i2], moves[1, 1, i2]
            x2 = _move(b, p2, t2)
            n3 = _legal_moves(b, die, p2, moves[2, 0], moves[2, 1])
            if n3 == 0:
                _add(rows, table, stamps, counts, 2, b)
            for i3 in range(n3):
                p3, t3 = moves[2, 0, i3], moves[2, 1, i3]
                x3 = _move(b, p3, t3)
                n4 = _legal_moves(b, die, p3, moves[3, 0], moves[3, 1])
                if n4 == 0:
                    _add(rows, table, stamps, counts, 3, b)
                for i4 in range(n4):
                    p4, t4 = moves[3, 0, i4], moves[3, 1, i4]
                    x4 = _move(b, p4, t4)
                    _add(rows, table, stamps, counts, 4, b)
                    _undo(b, p4, t4, x4)
                _undo(b, p3, t3, x3)
            _undo(b, p2, t2, x2)
        _undo(b, p1, t1, x1)


@jit
def _four(b: Rows, die: int, rows: Rows, table: Table, stamps: Cells, counts: Cells) -> None:
    """Four dice of ``die`` from ``b``, adding depth d's boards to slot d."""
    if _far_from_home(b, 4):
        _run_far(b, die, rows, table, stamps, counts)
    else:
        _double_search(b, die, rows, table, stamps, counts)


@jit_inline
def _deepest(counts: Cells) -> int:
    for depth in range(4, -1, -1):
        if counts[depth]:
            return depth
    return 0  # pragma: no cover - a search always records its start


@jit
def turn_boards(
    start: Rows,
    high: int,
    low: int,
    progressive: bool,
    limit: int,
    rows: Rows,
    table: Table,
    stamps: Cells,
    counts: Cells,
) -> tuple[int, int]:
    """Every maximal turn of the roll ``high``-``low`` from ``start``: (status, dice played).

    ``status`` is the number of boards, found in slot 0 in ``turn_boards``'
    order, or TOO_MANY past ``limit`` (negative: no limit), or OVERFLOW (grow the
    store and retry). ``progressive``: a double is chelebi's (RULES.md 4): four
    of it, then four of each higher number up to 6, de-duplicated after each group.
    """
    counts[counts.shape[0] - 1] = 0
    b = np.zeros(ROW_BYTES, dtype=np.int8)
    b[:CELLS] = start
    if high != low:
        if _far_from_home(b, 2):
            played = _plain_far(b, high, low, rows, table, stamps, counts)
        else:
            played = _plain(b, high, low, rows, table, stamps, counts)
    else:
        for slot in range(5):
            clear(table, stamps, counts, slot)
        _four(b, high, rows, table, stamps, counts)
        played = _deepest(counts)
        if progressive and played == 4:
            played = _progressive_rest(high, limit, rows, table, stamps, counts)
        elif played:
            _copy_slot(rows, table, stamps, counts, played, 0)
    if counts[counts.shape[0] - 1]:
        return OVERFLOW, 0
    if 0 <= limit < counts[0]:
        return TOO_MANY, played
    return counts[0], played


@jit
def _progressive_rest(first: int, limit: int, rows: Rows, table: Table, stamps: Cells, counts: Cells) -> int:
    """Chelebi after a first group of four: ``turngen._sequence_search`` (slot 4 holds the
    first group's boards), the result in slot 0. Dice played, or TOO_MANY's count in slot 0."""
    played = 4
    _copy_slot(rows, table, stamps, counts, 4, LEVEL)
    if 0 <= limit < counts[LEVEL]:
        _copy_slot(rows, table, stamps, counts, LEVEL, 0)
        return played
    b = np.empty(ROW_BYTES, dtype=np.int8)
    for die in range(first + 1, 7):
        for slot in range(5):
            clear(table, stamps, counts, slot)
        for index in range(counts[LEVEL]):
            b[:] = rows[LEVEL, index]
            _four(b, die, rows, table, stamps, counts)
            if 0 <= limit < counts[4] or counts[counts.shape[0] - 1]:
                _copy_slot(rows, table, stamps, counts, 4, 0)
                return played
        got = _deepest(counts)
        if got == 0:
            break
        played += got
        _copy_slot(rows, table, stamps, counts, got, LEVEL)
        if got < 4:
            break
    _copy_slot(rows, table, stamps, counts, LEVEL, 0)
    return played


@jit
def encode(boards: Rows, opponent_off: int, units: Features, tail_scale: Features) -> Features:
    """``encoding.tabla.encode_boards(boards, opponent_off, False)``: the mover just moved.

    ``units`` is ``signed_count_table()``, ``tail_scale`` the bars' and off's scales:
    the same float32 operations as the numpy encoder, so the rows are equal bit for bit.
    """
    count = boards.shape[0]
    out = np.empty((count, 198), dtype=np.float32)
    theirs_off = np.float32(opponent_off / 15)
    for index in range(count):
        for point in range(1, 25):
            value = boards[index, point] & 0xFF
            base = (point - 1) * 8
            for unit in range(8):
                out[index, base + unit] = units[value, unit]
        out[index, 192] = np.float32(boards[index, BAR]) * tail_scale[0]
        out[index, 193] = np.float32(boards[index, OPP_BAR]) * tail_scale[1]
        out[index, 194] = np.float32(boards[index, 0]) * tail_scale[2]
        out[index, 195] = theirs_off
        out[index, 196] = 0.0
        out[index, 197] = 1.0
    return out
