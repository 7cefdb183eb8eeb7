"""Fast random playouts of every dice game, seeded (Monte Carlo rollouts, tests).

``random_playout(position, rng)`` plays to the end of the game: each roll from
``rng``, and each turn chosen uniformly among the legal turns. A roll of at most
four dice is always listed (a few hundred turns at most). A progressive double
(chelebi, gulbara: up to 24 dice and millions of turns) is listed only while
every die leaves at most ``limit`` positions; past that the turn is built die by
die with the rules' step planner, each step chosen uniformly among the steps
that keep a legal maximal turn reachable: a legal turn, found without listing
the turns, though not uniform over them.

The tabla family plays on the whole-turn generator's boards and flips the board
to the other player's side between turns, building no position until the end;
tapa does the same on the compiled search's states when numba is installed.
Other games list the results of the legal turns (``turns.turn_states_within``,
the states ``legal_turns_within`` lists) and build one position.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from operator import neg
from typing import Any, Generic, TypeVar, cast

from tavla.bots import fast
from tavla.core.errors import TavlaError
from tavla.core.protocol import WHITE, Outcome
from tavla.rules.backgammon.movegen import Board
from tavla.rules.backgammon.position import CHECKERS, BackgammonPosition
from tavla.rules.backgammon.turngen import turn_boards, turn_boards_within
from tavla.rules.dicegame import DiceGame
from tavla.rules.tapa.movegen import CHECKERS as TAPA_CHECKERS
from tavla.rules.tapa.movegen import PIN
from tavla.rules.tapa.position import TapaPosition
from tavla.rules.turns import turn_states_within

P = TypeVar("P", bound=DiceGame[Any])
OnTurn = Callable[[Any, Any], None]
"""Called with (position before the turn, dice rolled; position after) for every turn."""

PLAYOUT_LIST_LIMIT = 50
"""Past this many positions after one die of a progressive double, its turn is
built die by die: measured (benchmarks/playouts.py), listing more costs more than
the step planner's one turn."""
ORDINARY_DICE = 4
"""Rolls of at most this many dice are always listed."""
MAX_TURNS = 100_000
"""A safety net: random play ends far sooner (a few hundred turns at most)."""


@dataclass(frozen=True)
class Playout(Generic[P]):
    final: P
    """The position where the game ended."""
    outcome: Outcome
    turns: int
    """Turns played (a turn with no legal move counts; a gulbara completion counts)."""


def random_playout(
    position: P,
    rng: random.Random,
    *,
    limit: int = PLAYOUT_LIST_LIMIT,
    on_turn: OnTurn | None = None,
) -> Playout[P]:
    """Play ``position`` to the end with random dice and random legal turns.

    ``on_turn`` (for checks and traces, slower) sees every turn played.
    """
    if isinstance(position, BackgammonPosition):
        return cast(Playout[P], _tabla_playout(position, rng, limit, on_turn))
    if isinstance(position, TapaPosition) and on_turn is None and fast.AVAILABLE:
        return cast(Playout[P], _tapa_playout(position, rng))
    randint = rng.randint
    turns = 0
    while (outcome := position.outcome()) is None:
        if not position.awaiting_decision:  # a roll is due (with_roll's checks hold here)
            position = _with_dice(position, (randint(1, 6), randint(1, 6)))
        after = random_turn(position, rng, limit)
        if on_turn is not None:
            on_turn(position, after)
        position = after
        turns += 1
        if turns > MAX_TURNS:
            raise TavlaError(f"no outcome after {MAX_TURNS} random turns in {position.notation()}")
    return Playout(position, outcome, turns)


def _with_dice(position: P, dice: tuple[int, int]) -> P:
    """``position._replace(dice=dice)`` without the dataclass ``__init__`` (a frozen
    dataclass sets each field through ``object.__setattr__``): only the dice change,
    so there is nothing to check. Cached properties of ``position`` are not copied."""
    names = _FIELD_NAMES.get(type(position))
    if names is None:
        if not dataclasses.is_dataclass(position):  # pragma: no cover - every dice game's is
            return position._replace(dice=dice)
        names = _FIELD_NAMES[type(position)] = tuple(field.name for field in dataclasses.fields(position))
    values = position.__dict__
    state = {name: values[name] for name in names}
    state["dice"] = dice
    rolled = _new_object(type(position))
    _set_attribute(rolled, "__dict__", state)
    return rolled


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_new_object = object.__new__
_set_attribute = object.__setattr__


def random_turn(position: P, rng: random.Random, limit: int = PLAYOUT_LIST_LIMIT) -> P:
    """The position after a random legal turn (see the module docstring)."""
    sequences, prefer_larger = position.turn_sequences()
    bound = limit if _progressive(sequences) else None
    kind = fast.compiled_kind(position.step_function())
    if kind is not None:
        # The compiled search lists the same states in the same order: the same turn.
        listed = fast.turn_states(kind, position.mover_state(), sequences, bound, prefer_larger)
        if listed is None:
            return _compiled_turn_by_steps(position, kind, sequences, rng)
        played, rows = listed
        return position.after_turn(tuple(rows[rng.choice(range(len(rows)))].tolist()), played)
    found = turn_states_within(
        position.mover_state(), sequences, position.step_function(), bound, prefer_first=prefer_larger
    )
    if found is None:
        return random_turn_by_steps(position, rng)
    played, states = found
    # The states of legal_turns_within's turns, without building every turn's position.
    return position.after_turn(rng.choice(states), played)


def _compiled_turn_by_steps(position: P, kind: int, sequences: list[list[int]], rng: random.Random) -> P:
    if len(sequences) != 1:  # pragma: no cover - only a single long sequence is too large to list
        return random_turn_by_steps(position, rng)
    state, played = fast.random_turn_by_steps(kind, position.mover_state(), sequences[0], rng)
    return position.after_turn(state, played)


def _progressive(sequences: list[list[int]]) -> bool:
    return any(len(dice) > ORDINARY_DICE for dice in sequences)


def random_turn_by_steps(position: P, rng: random.Random) -> P:
    """A random legal turn built die by die: never lists the turns."""
    planner = position.plan()
    while not planner.complete:
        planner.play(*rng.choice(planner.legal_steps()))
    return position.after_turn(planner.state, planner.target)


# ------------------------------------------------------------------ tabla family
def _position_at(
    like: BackgammonPosition, board: Board, side: int, opponent_off: int, dice: tuple[int, int] | None
) -> BackgammonPosition:
    """The position whose side to act, ``side``, has ``board`` (his Board, see movegen)."""
    if side == WHITE:
        points, bar, off = board[1:25], (board[25], board[26]), (board[0], opponent_off)
    else:
        points = tuple(map(neg, board[24:0:-1]))
        bar, off = (board[26], board[25]), (opponent_off, board[0])
    return type(like)(points, bar, off, side, dice)


def _flip(board: Board, opponent_off: int) -> Board:
    """The opponent's Board of the same position."""
    return (opponent_off, *map(neg, board[24:0:-1]), board[26], board[25])


def _tabla_turn(
    like: BackgammonPosition,
    board: Board,
    side: int,
    opponent_off: int,
    roll: tuple[int, int],
    sequences: list[list[int]],
    rng: random.Random,
    limit: int,
) -> Board:
    """The mover's Board after a random legal turn of ``roll`` from ``board``."""
    bound = limit if _progressive(sequences) else None
    shape = fast.tabla_roll(sequences) if fast.AVAILABLE else None
    if shape is not None:
        # The compiled generator lists the same boards in the same order: the same turn.
        listed = fast.tabla_turn_boards(board, shape, bound)
        if listed is not None:
            rows = listed[1]
            return tuple(rows[rng.choice(range(len(rows)))].tolist())
        if len(sequences) == 1:
            return fast.random_turn_by_steps(fast.TABLA, board, sequences[0], rng)[0]
    else:
        if bound is not None:
            found = turn_boards_within(board, sequences, bound, prefer_first=True)
        else:
            found = turn_boards(board, sequences, prefer_first=True)
        if found is not None:
            return rng.choice(list(found[1]))
    before = _position_at(like, board, side, opponent_off, roll)
    after = random_turn_by_steps(before, rng)
    return after.with_side(side).mover_board()


def _tabla_playout(
    position: BackgammonPosition, rng: random.Random, limit: int, on_turn: OnTurn | None
) -> Playout[BackgammonPosition]:
    outcome = position.outcome()
    if outcome is not None:
        return Playout(position, outcome, 0)
    side = position.side
    board = position.mover_board()
    opponent_off = position.off[1 - side]
    dice = position.dice
    randint = rng.randint
    turns = 0
    while True:
        roll = dice if dice is not None else (randint(1, 6), randint(1, 6))
        dice = None
        sequences = position.dice_sequences(roll)
        moved = _tabla_turn(position, board, side, opponent_off, roll, sequences, rng, limit)
        turns += 1
        if on_turn is not None:
            on_turn(
                _position_at(position, board, side, opponent_off, roll),
                _position_at(position, moved, side, opponent_off, None).with_side(1 - side),
            )
        # The opponent's turn next: his board, and the mover's off count is his opponent's.
        board, opponent_off = _flip(moved, opponent_off), moved[0]
        side = 1 - side
        if opponent_off == CHECKERS:
            final = _position_at(position, board, side, opponent_off, None)
            outcome = final.outcome()
            if outcome is None:  # fifteen off is always an outcome
                raise RuntimeError(f"a finished board without an outcome: {final.notation()}")
            return Playout(final, outcome, turns)


# ------------------------------------------------------------------ tapa
def _tapa_playout(position: TapaPosition, rng: random.Random) -> Playout[TapaPosition]:
    """Tapa on the compiled search's mover states, flipped to the other side between
    turns, as the tabla family plays on Boards: the same draws and turns as the loop
    of :func:`random_playout`, without a position per turn.

    A tapa game ends only when the mover bears off his last checker or a mother is
    pinned (``TapaPosition.outcome``), so the position after a turn is built, and its
    outcome asked, only then.
    """
    outcome = position.outcome()
    if outcome is not None:
        return Playout(position, outcome, 0)
    randint = rng.randint
    side = position.side
    state = position.mover_state()
    opponent_off = position.off[1 - side]
    dice = position.dice
    orders: dict[tuple[int, int], tuple[list[list[int]], bool]] = {}
    for turns in range(1, MAX_TURNS + 1):
        roll = dice if dice is not None else (randint(1, 6), randint(1, 6))
        dice = None
        if roll not in orders:
            orders[roll] = _with_dice(position, roll).turn_sequences()
        sequences, prefer_larger = orders[roll]
        listed = fast.turn_states(fast.TAPA, state, sequences, None, prefer_larger)
        if listed is None:  # pragma: no cover - four dice at most are always listed
            raise RuntimeError(f"no turn listed in {position.notation()}")
        played, rows = listed
        moved: tuple[int, ...] = tuple(rows[rng.choice(range(len(rows)))].tolist())
        if moved[0] == TAPA_CHECKERS or moved[PIN + 1] == -1:
            # His last checker off, or the other's mother (on his point 1) pinned: the
            # rules judge the position. His own turn cannot pin his own mother: pinned
            # alone, it ended the game when it was pinned or it never does, and both
            # mothers pinned is seen by the second test.
            off = (state[0], opponent_off) if side == WHITE else (opponent_off, state[0])
            after = dataclasses.replace(position, side=side, off=off, dice=None).after_turn(moved, played)
            outcome = after.outcome()
            if outcome is not None:
                return Playout(after, outcome, turns)
        # The opponent's turn next: his state, and the mover's off count is his opponent's.
        state = (opponent_off, *map(neg, moved[PIN:0:-1]), *map(neg, moved[2 * PIN : PIN : -1]))
        opponent_off = moved[0]
        side = 1 - side
    raise TavlaError(f"no outcome after {MAX_TURNS} random turns from {position.notation()}")
