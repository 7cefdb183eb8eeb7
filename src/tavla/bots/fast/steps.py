"""One die of movement per game, compiled: the rules' step functions on int8 rows.

Each kind lists the source points of the steps one die allows, in the order of
the pure-Python step function it mirrors (:func:`sources`; the tests compare
them), and plays one of them into a row (:func:`play`): a search that stops at
the first step that works (``search.reach``) copies no other state. A state is
a row of ``store.ROW_BYTES`` int8 cells, zero past its width. The states are the
framework's (``mover_state``), except the tabla family's, which moves on the
whole-turn generator's Board:

- ``TABLA``: a Board (see ``backgammon.movegen``), in the order of ``tabla_steps``;
- ``TAPA``: ``tapa.movegen``'s 49 cells, in the order of ``tapa_steps``;
- ``GULBARA``: ``gulbara.movegen``'s 25 cells, in the order of ``gulbara_steps``.

Once every checker of the mover is off (tapa, gulbara), the one step is a pass
that keeps the state (source point 0): the dice left count as played.
"""

from __future__ import annotations

from tavla.bots.fast.jit import jit, jit_inline
from tavla.bots.fast.store import ROW_BYTES, Cells, Rows

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


@jit_inline
def _copy(state: Rows, out: Rows, row: int) -> None:
    """``out[row] = state``, a whole row (a fixed length: a vector copy)."""
    for cell in range(ROW_BYTES):
        out[row, cell] = state[cell]


@jit_inline
def sources(kind: int, state: Rows, die: int, points: Cells) -> int:
    """The source points of the steps of ``die`` from ``state``, in step order, into
    ``points``: how many (0 a pass once every checker is off)."""
    if kind == TABLA:
        return _tabla_sources(state, die, points)
    if kind == TAPA:
        return _tapa_sources(state, die, points)
    return _gulbara_sources(state, die, points)


@jit_inline
def play(kind: int, state: Rows, point: int, die: int, out: Rows, row: int) -> None:
    """``out[row]`` := ``state`` after the step of ``die`` from ``point`` (a source of :func:`sources`)."""
    _copy(state, out, row)
    if point == 0:
        return  # a pass
    target = point - die
    if kind == TABLA:
        out[row, point] -= 1
        if target <= 0:
            out[row, 0] += 1
        elif state[target] == -1:
            out[row, target] = 1
            out[row, OPP_BAR] += 1
        else:
            out[row, target] += 1
    elif kind == TAPA:
        out[row, point] -= 1
        if out[row, point] == 0 and out[row, PIN + point]:
            # The last pinner left: the pinned opponent's checker is free again.
            out[row, point] = out[row, PIN + point]
            out[row, PIN + point] = 0
        if target <= 0:
            out[row, 0] += 1
        else:
            if state[target] < 0:
                out[row, target] = 0
                out[row, PIN + target] = -1
            out[row, target] += 1
    else:
        out[row, point] -= 1
        out[row, target if target > 0 else 0] += 1


@jit
def successors(kind: int, state: Rows, die: int, out: Rows, points: Cells) -> int:
    """The states after every step of ``die`` from ``state`` into ``out`` (``points``
    a room for their sources): how many."""
    count = sources(kind, state, die, points)
    for index in range(count):
        play(kind, state, points[index], die, out, index)
    return count


@jit_inline
def _highest(s: Rows) -> int:
    highest = 24
    while highest and s[highest] <= 0:
        highest -= 1
    return highest


@jit_inline
def _tabla_sources(b: Rows, die: int, points: Cells) -> int:
    if b[BAR] > 0:
        if b[BAR - die] < -1:
            return 0
        points[0] = BAR
        return 1
    highest = _highest(b)
    bearing_off = highest <= 6
    count = 0
    for point in range(highest, 0, -1):
        if b[point] <= 0:
            continue
        target = point - die
        if (target > 0 and b[target] >= -1) or (
            target <= 0 and bearing_off and (target == 0 or point == highest)
        ):
            points[count] = point
            count += 1
    return count


@jit_inline
def _tapa_sources(s: Rows, die: int, points: Cells) -> int:
    if s[0] == CHECKERS:
        points[0] = 0
        return 1
    highest = _highest(s)
    # Bearing off needs every remaining checker home and none of them pinned.
    bearing_off = highest <= 6
    if bearing_off:
        for pin in range(PIN + 1, 2 * PIN + 1):
            if s[pin] == 1:
                bearing_off = False
    count = 0
    for point in range(highest, 0, -1):
        if s[point] <= 0:
            continue
        target = point - die
        if target <= 0:
            if not (bearing_off and (target == 0 or point == highest)):
                continue
        elif s[target] < 0 and (s[target] != -1 or s[PIN + target]):
            continue  # an enemy stack, or a lone pinner which cannot be pinned
        points[count] = point
        count += 1
    return count


@jit_inline
def _gulbara_sources(s: Rows, die: int, points: Cells) -> int:
    if s[0] == CHECKERS:
        points[0] = 0
        return 1
    highest = _highest(s)
    bearing_off = highest <= 6
    count = 0
    for point in range(highest, 0, -1):
        if s[point] <= 0:
            continue
        target = point - die
        if target > 0:
            if s[target] < 0:
                continue  # held by the opponent, even by a single checker
        elif not (bearing_off and (target == 0 or point == highest)):
            continue
        points[count] = point
        count += 1
    return count
