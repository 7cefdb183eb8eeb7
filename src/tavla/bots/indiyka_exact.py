"""Indiyka's exact winning chances, its player and its cube (RULES.md 7, 9.2).

In indiyka no checker ever meets the other side's: each player enters his fifteen on
his own points 1-6 and removes them from there, and the dice alone decide where
(RULES.md 7). So a game is two independent races, and the player on roll wins when he
needs no more turns than his opponent, since he moves first. Everything follows from
one player's **side**: his checkers on points 1-6 and those still waiting (the
removed ones are the rest); whether he is entering or removing follows from waiting.

For a side ``s`` let ``f_s[t]`` be the chance that he needs exactly ``t`` more turns.
A roll that changes nothing (a die naming a full or an empty point) leaves ``s`` as
it is, so with ``q`` the chance of such a roll and ``g`` the mix of the other rolls'
distributions, ``f_s[t] = q f_s[t-1] + g[t-1]``: ``g`` shifted by one turn and
spread by the geometric waiting time of ``q``. Sides are computed once, when first
asked for, from the sides they lead to (memoised). The player on roll with side
``a`` against ``b`` wins with chance ``sum_t f_a[t] P(T_b >= t)``.

The distributions stop at :data:`HORIZON` turns; what lies beyond is below 1e-15
even for a side with all fifteen on one point (tests/bots/test_indiyka_exact.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from numpy.typing import NDArray

from tavla.bots.cube import CubeContext, DoubleDecision, chances, double_decision
from tavla.core.dice import ROLLS, Roll
from tavla.core.protocol import Turn
from tavla.rules.indiyka import IndiykaPosition
from tavla.rules.indiyka.movegen import CHECKERS, POINTS, State, indiyka_steps

Side = tuple[int, ...]
"""One player's checkers on his points 1-6, then his checkers still waiting."""
HORIZON = 256
"""Turns the distributions cover (a whole game takes about 30 of each side's turns)."""
_ROLL_CHANCES = tuple((roll, float(chance)) for roll, chance in ROLLS)


def side_of(position: IndiykaPosition, player: int) -> Side:
    return (*position.board(player), position.waiting(player))


def side_after(side: Side, roll: Roll) -> Side:
    """The side after playing ``roll`` (RULES.md 7).

    The rules' step function moves one die; as the framework's turn search does, the
    dice are played in both orders and the order playing more dice is the turn, the
    larger die first when only one can be played (RULES.md 1.3). A die gives at most
    one step in indiyka, so each order is a single line of play (a test checks this
    against the framework's search).
    """
    board, waiting = side[:POINTS], side[POINTS]
    state = (CHECKERS - sum(board) - waiting, *board, waiting, 1 if waiting else 0)
    high, low = max(roll), min(roll)
    if high == low:
        _, after = _play(state, (high,) * 4)
    else:
        played, after = _play(state, (high, low))
        if played < 2:
            other_played, other = _play(state, (low, high))
            if other_played > played:
                after = other
    return (*after[1 : POINTS + 1], after[POINTS + 1])


def _play(state: State, dice: tuple[int, ...]) -> tuple[int, State]:
    """Play ``dice`` in order until one cannot be played: (dice played, state)."""
    played = 0
    for die in dice:
        steps = indiyka_steps(state, die)
        if not steps:
            break
        state = steps[0][1]
        played += 1
    return played, state


def finished(side: Side) -> bool:
    return not any(side)


class IndiykaRaces:
    """The distributions of the turns each side needs, computed when first asked."""

    def __init__(self, horizon: int = HORIZON) -> None:
        self.horizon = horizon
        self._turns: dict[Side, NDArray[np.float64]] = {}
        self._geometric = np.arange(horizon, dtype=np.float64)

    def __len__(self) -> int:
        """How many sides are known so far."""
        return len(self._turns)

    def turns_needed(self, side: Side) -> NDArray[np.float64]:
        """``f[t]``: the chance that ``side`` needs exactly ``t`` more turns to finish."""
        known = self._turns.get(side)
        if known is not None:
            return known
        f = np.zeros(self.horizon)
        if finished(side):
            f[0] = 1.0
        else:
            leads: dict[Side, float] = {}
            for roll, chance in _ROLL_CHANCES:
                after = side_after(side, roll)
                leads[after] = leads.get(after, 0.0) + chance
            stay = leads.pop(side, 0.0)
            moved = np.array(list(leads.values())) @ np.array([self.turns_needed(after) for after in leads])
            # f[t] = stay f[t-1] + moved[t-1]: the moves, delayed by the rolls that stall.
            kernel = stay**self._geometric
            f[1:] = np.convolve(moved, kernel)[: self.horizon - 1]
        self._turns[side] = f
        return f

    def win_chance(self, mover: Side, other: Side) -> float:
        """The chance that ``mover``, on roll, finishes before ``other``."""
        if finished(other):
            return 0.0
        mine = self.turns_needed(mover)
        theirs = self.turns_needed(other)
        at_least = 1.0 - np.concatenate(([0.0], np.cumsum(theirs)[:-1]))  # P(T_other >= t)
        return float(np.clip(mine @ at_least, 0.0, 1.0))

    def unfinished(self, side: Side) -> float:
        """The chance ``side`` needs more than the horizon: what the sums leave out."""
        return float(max(0.0, 1.0 - self.turns_needed(side).sum()))


@cache
def races() -> IndiykaRaces:
    """The shared memo: sides met once are known for the rest of the process."""
    return IndiykaRaces()


def win_chance(position: IndiykaPosition) -> float:
    """The exact chance that the side to act wins: before his roll, or (dice shown)
    playing them."""
    outcome = position.outcome()
    if outcome is not None:
        return 1.0 if outcome.winner == position.side else 0.0
    mover, other = side_of(position, position.side), side_of(position, 1 - position.side)
    if position.dice is None:
        return races().win_chance(mover, other)
    after = side_after(mover, position.dice)
    return 1.0 if finished(after) else 1.0 - races().win_chance(other, after)


def exact_chances(position: IndiykaPosition) -> NDArray[np.float64]:
    """The five cubeless chances of the side to act (tavla.bots.cube.convention): indiyka
    scores a single game only (RULES.md 7), so every gammon chance is 0."""
    return chances([win_chance(position), 0.0, 0.0, 0.0, 0.0])


def best_turn(position: IndiykaPosition) -> Turn:
    """The legal turn that leaves the mover the best exact chance (the dice leave one
    turn in indiyka; were there more, this picks among them)."""
    turns: Sequence[Turn] = position.legal_turns()
    if not turns:
        raise ValueError(f"no turn to play in {position.notation()}")
    return max(turns, key=lambda turn: 1.0 - win_chance(_as_indiyka(turn.after)))


def cube_decision(position: IndiykaPosition, context: CubeContext) -> DoubleDecision:
    """The cube action of the side to act before he rolls, from the exact chances
    through Janowski's model (tavla.bots.cube; the cube as in tabla, RULES.md 7)."""
    if position.dice is not None:
        raise ValueError(f"the cube is turned before rolling, not in {position.notation()}")
    return double_decision(exact_chances(position), context)


def _as_indiyka(position: object) -> IndiykaPosition:
    if not isinstance(position, IndiykaPosition):
        raise TypeError(f"not an indiyka position: {position!r}")
    return position
