"""One die of movement per game, compiled: the rules' step functions on int8 rows.

Each kernel lists the states one die leads to, in the order of the pure-Python
step function it mirrors (the tests compare them), into ``out`` (one row per
step), and returns how many. A state is a row of ``store.ROW_BYTES`` int8
cells, zero past its width. The states are the framework's (``mover_state``),
except the tabla family's, which moves on the whole-turn generator's Board:

- ``TABLA``: a Board (see ``backgammon.movegen``), in the order of ``tabla_steps``;
- ``TAPA``: ``tapa.movegen``'s 49 cells, in the order of ``tapa_steps``;
- ``GULBARA``: ``gulbara.movegen``'s 25 cells, in the order of ``gulbara_steps``.

Once every checker of the mover is off (tapa, gulbara), the one step is a pass
that keeps the state: the dice left count as played.
"""

from __future__ import annotations

from tavla.bots.fast.jit import jit
from tavla.bots.fast.store import ROW_BYTES, Rows

TABLA = 0
TAPA = 1
GULBARA = 2
WIDTHS = (27, 49, 25)
"""Cells of a state, by kind."""
MAX_STEPS = 26
"""At most 24 points and a pass (or the bar) give a step: rows a kernel may write."""
CHECKERS = 15
BAR = 25
OPP_BAR = 26
PIN = 24


@jit
def _copy(state: Rows, out: Rows, row: int) -> None:
    """``out[row] = state``, a whole row (a fixed length: a vector copy)."""
    for cell in range(ROW_BYTES):
        out[row, cell] = state[cell]


@jit
def successors(kind: int, state: Rows, die: int, out: Rows) -> int:
    """The states after one step of ``die`` from ``state`` into ``out``: how many."""
    if kind == TABLA:
        return _tabla(state, die, out)
    if kind == TAPA:
        return _tapa(state, die, out)
    return _gulbara(state, die, out)


@jit
def _tabla(b: Rows, die: int, out: Rows) -> int:
    if b[BAR] > 0:
        target = BAR - die
        x = b[target]
        if x < -1:
            return 0
        _copy(b, out, 0)
        out[0, BAR] -= 1
        if x == -1:
            out[0, target] = 1
            out[0, OPP_BAR] += 1
        else:
            out[0, target] = x + 1
        return 1
    highest = 24
    while highest and b[highest] <= 0:
        highest -= 1
    bearing_off = highest <= 6
    count = 0
    for point in range(highest, 0, -1):
        if b[point] <= 0:
            continue
        target = point - die
        if target > 0:
            x = b[target]
            if x < -1:
                continue
            _copy(b, out, count)
            out[count, point] -= 1
            if x == -1:
                out[count, target] = 1
                out[count, OPP_BAR] += 1
            else:
                out[count, target] = x + 1
            count += 1
        elif bearing_off and (target == 0 or point == highest):
            _copy(b, out, count)
            out[count, point] -= 1
            out[count, 0] += 1
            count += 1
    return count


@jit
def _tapa(s: Rows, die: int, out: Rows) -> int:
    if s[0] == CHECKERS:
        _copy(s, out, 0)
        return 1
    highest = 24
    while highest and s[highest] <= 0:
        highest -= 1
    # Bearing off needs every remaining checker home and none of them pinned.
    bearing_off = highest <= 6
    for point in range(PIN + 1, 2 * PIN + 1):
        if s[point] == 1:
            bearing_off = False
    count = 0
    for point in range(highest, 0, -1):
        if s[point] <= 0:
            continue
        target = point - die
        if target <= 0 and not (bearing_off and (target == 0 or point == highest)):
            continue
        if target > 0:
            occupant = s[target]
            if occupant < 0 and (occupant != -1 or s[PIN + target]):
                continue  # an enemy stack, or a lone pinner which cannot be pinned
        _copy(s, out, count)
        out[count, point] -= 1
        if out[count, point] == 0 and out[count, PIN + point]:
            # The last pinner left: the pinned opponent's checker is free again.
            out[count, point] = out[count, PIN + point]
            out[count, PIN + point] = 0
        if target <= 0:
            out[count, 0] += 1
        else:
            if s[target] < 0:
                out[count, target] = 0
                out[count, PIN + target] = -1
            out[count, target] += 1
        count += 1
    return count


@jit
def _gulbara(s: Rows, die: int, out: Rows) -> int:
    if s[0] == CHECKERS:
        _copy(s, out, 0)
        return 1
    highest = 24
    while highest and s[highest] <= 0:
        highest -= 1
    bearing_off = highest <= 6
    count = 0
    for point in range(highest, 0, -1):
        if s[point] <= 0:
            continue
        target = point - die
        if target > 0:
            if s[target] < 0:
                continue  # held by the opponent, even by a single checker
            _copy(s, out, count)
            out[count, point] -= 1
            out[count, target] += 1
            count += 1
        elif bearing_off and (target == 0 or point == highest):
            _copy(s, out, count)
            out[count, point] -= 1
            out[count, 0] += 1
            count += 1
    return count
