"""Compiled turn generators for the bots' hot paths (the ``fast`` extra: numba).

:mod:`tavla.bots.afterstates` and :mod:`tavla.bots.playout` use these when
:data:`AVAILABLE`; otherwise they run the rules' pure-Python generators, which
stay the reference: the compiled ones list the same resulting positions in the
same order (``tests/bots/test_fast.py`` compares them on random positions and
every roll), so a bot or a seeded playout gives the same answers either way.

The functions here turn the rules' Python values (Boards, states, dice
sequences) into the kernels' numpy arrays and back, and rerun a search whose
store overflowed on a larger one (see :mod:`tavla.bots.fast.scratch`). Results
are int8 rows of the thread's store, valid until its next search: callers copy
what they keep.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from tavla.bots.encoding.base import Features

# The tabla encoder's own tables, so that the compiled rows are its rows bit for bit.
from tavla.bots.encoding.tabla import _TABLE as TABLA_UNITS
from tavla.bots.encoding.tabla import _TAIL_SCALE as TABLA_TAIL_SCALE
from tavla.bots.fast import search, tabla, tapa_terms
from tavla.bots.fast.jit import AVAILABLE
from tavla.bots.fast.scratch import Scratch, beam_store, memo_store, search_store
from tavla.bots.fast.steps import GULBARA, MAX_STEPS, TABLA, TAPA, WIDTHS
from tavla.bots.fast.store import OVERFLOW, ROW_BYTES, Cells, Rows, key_size
from tavla.rules.gulbara.movegen import gulbara_steps
from tavla.rules.tapa.movegen import tapa_steps

__all__ = [
    "AVAILABLE",
    "GULBARA",
    "TABLA",
    "TAPA",
    "BeamTurns",
    "beam_states",
    "compiled_kind",
    "random_turn_by_steps",
    "tabla_features",
    "tabla_roll",
    "tabla_turn_boards",
    "turn_states",
    "warm_up",
]

NO_LIMIT = -1
_PACK_BOARD = struct.Struct(f"{tabla.CELLS}b").pack
_PACK_STATE = [struct.Struct(f"{width}b").pack for width in WIDTHS]
_KEY_SIZES = [key_size(width) for width in WIDTHS]
_KINDS: dict[object, int] = {tapa_steps: TAPA, gulbara_steps: GULBARA}
"""The rules' step functions that have compiled twins here, and their kinds."""


def compiled_kind(step_function: object) -> int | None:
    """The kind of the compiled twin of a position's ``step_function()``, or None
    when it has none or the compiled generators are off (:data:`AVAILABLE`)."""
    return _KINDS.get(step_function) if AVAILABLE else None


def tabla_roll(sequences: Sequence[Sequence[int]]) -> tuple[int, int, bool] | None:
    """(high die, low die, progressive) for the tabla family's dice sequences of a roll,
    or None for sequences the compiled generator does not know."""
    if len(sequences) == 2:
        first, second = (tuple(dice) for dice in sequences)
        if len(first) == 2 and first[0] > first[1] and second == first[::-1]:
            return first[0], first[1], False
        return None
    if len(sequences) != 1 or not sequences[0]:
        return None
    dice = list(sequences[0])
    die = dice[0]
    if dice == [die] * 4:
        return die, die, False
    if dice == [value for value in range(die, 7) for _ in range(4)]:
        return die, die, True
    return None


def tabla_turn_boards(
    start: Sequence[int], roll: tuple[int, int, bool], limit: int | None
) -> tuple[int, Rows] | None:
    """``turngen.turn_boards_within(start, sequences, limit, prefer_first=True)`` for the
    sequences ``roll`` stands for (:func:`tabla_roll`; no limit: ``turn_boards``):
    (dice played, the Boards as int8 rows in the same order), or None past ``limit``."""
    # struct packs a tuple of small ints far faster than numpy reads them one by one.
    board = np.frombuffer(_PACK_BOARD(*start), dtype=np.int8)
    high, low, progressive = roll
    store = search_store()
    while True:
        status, played = tabla.turn_boards(
            board,
            high,
            low,
            progressive,
            NO_LIMIT if limit is None else limit,
            store.rows,
            store.table,
            store.stamps,
            store.counts,
        )
        if status != OVERFLOW:
            break
        store.grow()
    if status == tabla.TOO_MANY:
        return None
    return played, store.rows[0, :status, : tabla.CELLS]


def tabla_features(boards: Rows, opponent_off: int) -> Features:
    """``encoding.tabla.encode_boards(boards, opponent_off, False)`` for int8 Board rows:
    the rows of :func:`tavla.bots.afterstates.afterstates`, equal bit for bit."""
    return tabla.encode(boards, opponent_off, TABLA_UNITS, TABLA_TAIL_SCALE)


_DICE_ARRAYS: dict[tuple[tuple[int, ...], ...], tuple[Cells, Cells]] = {}
"""The few dice sequences of the games (21 rolls, chelebi's and gulbara's progressive
doubles, gulbara's completions) as the kernels' arrays, made once."""


def _dice_array(sequences: Sequence[Sequence[int]]) -> tuple[Cells, Cells]:
    key = tuple(map(tuple, sequences))
    found = _DICE_ARRAYS.get(key)
    if found is None:
        found = _DICE_ARRAYS[key] = _make_dice_array(sequences)
    return found


def _make_dice_array(sequences: Sequence[Sequence[int]]) -> tuple[Cells, Cells]:
    longest = max(len(dice) for dice in sequences)
    dice = np.zeros((len(sequences), max(longest, 1)), dtype=np.int64)
    for index, values in enumerate(sequences):
        dice[index, : len(values)] = values
    return dice, np.array([len(values) for values in sequences], dtype=np.int64)


def turn_states(
    kind: int, start: Sequence[int], sequences: Sequence[Sequence[int]], limit: int | None, prefer_first: bool
) -> tuple[int, Rows] | None:
    """``turns.turn_states_within`` with the step function of ``kind`` (one or two
    sequences): (dice played, the states as int8 rows in the same order), or None."""
    state = np.frombuffer(_PACK_STATE[kind](*start), dtype=np.int8)
    dice, lengths = _dice_array(sequences)
    store = search_store()
    while True:
        status, played, slot = search.turn_states(
            kind,
            _KEY_SIZES[kind],
            state,
            dice,
            lengths,
            NO_LIMIT if limit is None else limit,
            prefer_first,
            store.rows,
            store.table,
            store.stamps,
            store.counts,
        )
        if status != OVERFLOW:
            break
        store.grow()
    if status == search.TOO_MANY:
        return None
    return played, store.rows[slot, :status, : WIDTHS[kind]]


def random_turn_by_steps(
    kind: int, start: Sequence[int], dice: Sequence[int], rng: random.Random
) -> tuple[tuple[int, ...], int]:
    """``playout.random_turn_by_steps`` for one sequence of ``dice``: (state after, dice
    played), drawing from ``rng`` exactly as the step planner's turn does."""
    drawn = rng.getstate()
    while True:
        store = memo_store()
        planner = Planner(kind, start, dice, store)
        target = planner.reach()
        state = planner.state
        for played in range(max(target, 0)):
            count = planner.steps(state, played, target - played)
            if count == search.FULL:
                break
            state = planner.out[rng.choice(range(count))].copy()
        if not store.counts[store.slots]:
            return tuple(state[: planner.width].tolist()), target
        # The memo filled up: the turn again on a larger one, with the same draws.
        store.grow()
        rng.setstate(drawn)


class Planner:
    """The compiled step planner for one sequence of dice: ``search.reach`` and
    ``search.planner_steps`` with their working memory, the memo in ``store`` started
    afresh for this turn's dice."""

    def __init__(self, kind: int, start: Sequence[int], dice: Sequence[int], store: Scratch) -> None:
        self.kind = kind
        self.width = WIDTHS[kind]
        self.size = key_size(self.width)
        self.state = np.zeros(ROW_BYTES, dtype=np.int8)
        self.state[: self.width] = start
        self.sequence = np.array(dice, dtype=np.int64)
        self.length = len(dice)
        store.stamps[search.MEMO] += 1  # a memo of this turn's dice only
        store.counts[search.MEMO] = 0
        self.arrays = store.arrays()
        # search.reach's rooms, one per die and one for planner_steps.
        self.work = np.zeros((self.length + 1, 2, ROW_BYTES), dtype=np.int8)
        self.points = np.zeros((self.length + 1, MAX_STEPS), dtype=np.int64)
        self.out = np.zeros((MAX_STEPS, ROW_BYTES), dtype=np.int8)
        """Where :meth:`steps` writes the states it allows."""

    def reach(self) -> int:
        """How many of the dice can be played in order from the start; ``search.FULL``
        once the memo is full (grow it and plan again)."""
        return int(
            search.reach(
                self.kind,
                self.size,
                self.state,
                self.sequence,
                0,
                self.length,
                self.work,
                self.points,
                *self.arrays,
            )
        )

    def steps(self, state: Rows, played: int, need: int) -> int:
        """How many states :attr:`out` now holds: after the steps of die ``played`` from
        ``state`` that keep ``need`` dice playable in all, in step order; ``search.FULL``
        once the memo is full."""
        return int(
            search.planner_steps(
                self.kind,
                self.size,
                state,
                self.sequence,
                played,
                self.length,
                need,
                self.out,
                self.work,
                self.points,
                *self.arrays,
            )
        )


@dataclass(frozen=True)
class BeamTurns:
    """What :func:`beam_states` keeps: the dice played, the final states (best first),
    and for each die the state each state after it was first reached from."""

    played: int
    states: list[tuple[int, ...]]
    parents: list[dict[tuple[int, ...], tuple[int, ...]]]

    def path(self, index: int) -> list[tuple[int, ...]]:
        """The states from the start to ``states[index]``, one per die played (start first)."""
        path = [self.states[index]]
        for level in reversed(self.parents):
            path.append(level[path[-1]])
        return path[::-1]


def beam_states(
    kind: int,
    start: Sequence[int],
    dice: Sequence[int],
    width: int,
    rank: Callable[[list[tuple[int, ...]], int], list[int]],
) -> BeamTurns:
    """``DiceGame.best_turns``'s beam search for one sequence of ``dice`` (a huge
    progressive double): the dice played, the states of the ``width`` turns kept, best
    first, and the way to each (the first found, as the rules' beam keeps it).

    After each die the states the planner allows (those from which the dice left of
    a maximal turn can still be played) are de-duplicated in the rules' order and
    ``rank`` (given the states and the dice played so far, it returns their indices
    best first) keeps ``width`` of them, as the rules' beam does with the same ranking.
    """
    store = beam_store()
    while True:
        found = _beam_states(kind, start, dice, width, rank, store)
        if found is not None:
            return found
        # The memo filled up: a memo that starts afresh midway would search the same
        # states again and again (minutes on chelebi's 1-1), so run again on a larger one.
        store.grow()


def _beam_states(
    kind: int,
    start: Sequence[int],
    dice: Sequence[int],
    width: int,
    rank: Callable[[list[tuple[int, ...]], int], list[int]],
    store: Scratch,
) -> BeamTurns | None:
    """:func:`beam_states` with the memo ``store``, or None as soon as it fills up."""
    planner = Planner(kind, start, dice, store)
    target = planner.reach()
    if target == search.FULL:
        return None
    state, cells = planner.state, planner.width
    level = [tuple(start)]
    parents: list[dict[tuple[int, ...], tuple[int, ...]]] = []
    for played in range(target):
        following: dict[tuple[int, ...], tuple[int, ...]] = {}
        for row in level:
            state[:cells] = row
            count = planner.steps(state, played, target - played)
            if count == search.FULL:
                return None
            for index in range(count):
                following.setdefault(tuple(planner.out[index, :cells].tolist()), row)
        parents.append(following)
        states = list(following)
        level = [states[index] for index in rank(states, played + 1)[:width]]
    # The rules rank the kept turns once more, all dice played: so does this.
    return BeamTurns(target, [level[index] for index in rank(level, target)[:width]], parents)


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel now, on small inputs.

    Each compiled function is otherwise loaded on its first call, a few hundred
    milliseconds for the first process after an install (compiling: about a
    minute) and some milliseconds after: a benchmark calls this before timing.
    """
    if not AVAILABLE:
        return
    start = (0, *([0] * 23), 2, 0, 0)  # two checkers on the bar, the board empty
    for roll in ((2, 1, False), (3, 3, False), (5, 5, True)):
        tabla_turn_boards(start, roll, None)
        found = tabla_turn_boards(start, roll, 1)
        if found is not None:
            tabla_features(found[1], 0)
    for kind in (TABLA, TAPA, GULBARA):
        state = [0] * WIDTHS[kind]
        state[6] = 2
        turn_states(kind, state, [[2, 1], [1, 2]], None, True)
        turn_states(kind, state, [[1] * 8], 1, False)
        random_turn_by_steps(kind, state, [1] * 8, random.Random(0))
    tapa_terms.tapa_chance_terms(np.zeros((1, 247)))
