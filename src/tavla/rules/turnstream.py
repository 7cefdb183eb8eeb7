"""Legal turns one at a time, each as soon as it is known (RULES.md 1.3).

``legal_turns`` finds every turn before returning any: on a progressive double
(chelebi's 1-1, gulbara's from the fourth roll on, RULES.md 4 and 6.2) that is
over a hundred thousand turns and a minute of work before the first one shows.
:func:`stream_turns` walks the same die-by-die search depth first instead and
yields each distinct final position the first time it is reached, so a caller
sees turns at once and may stop whenever it has enough.

The turns are the same as ``legal_turns``'s (the planner of the step-level
interface says how many dice a legal turn plays and in which orders); only their
order differs. Each turn has its canonical text, the same as in ``legal_turns``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from tavla.core.protocol import AnyPosition, Turn
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn
from tavla.rules.turns import StepFunction, StepPlanner

S = TypeVar("S", bound=Hashable)
T = TypeVar("T")


def final_states(
    start: S, sequences: Iterable[Sequence[int]], step_function: StepFunction[S, T]
) -> Iterator[tuple[S, tuple[T, ...]]]:
    """Each distinct state reached by playing all the dice of one of ``sequences``,
    with the steps of the first path found to it, depth first.

    A (state, dice played) pair is explored once per sequence: what lies beyond it
    has been yielded already, so the walk costs no more than the breadth-first search.
    """
    walk = _Walk(step_function)
    for sequence in sequences:
        walk.explored.clear()
        yield from walk(start, tuple(sequence), ())


class _Walk:
    """The depth-first walk of :func:`final_states` and what it remembers."""

    def __init__(self, step_function: StepFunction[Any, Any]) -> None:
        self.step_function = step_function
        self.seen: set[Hashable] = set()
        self.explored: set[tuple[Hashable, int]] = set()

    def __call__(
        self, state: S, dice: tuple[int, ...], path: tuple[T, ...]
    ) -> Iterator[tuple[S, tuple[T, ...]]]:
        if not dice:
            if state not in self.seen:
                self.seen.add(state)
                yield state, path
            return
        key = (state, len(dice))  # the dice left identify the place in the sequence
        if key in self.explored:
            return
        self.explored.add(key)
        for step, after in self.step_function(state, dice[0]):
            yield from self(after, dice[1:], (*path, step))


def _dice_to_play(planner: StepPlanner[Any, Any]) -> list[tuple[int, ...]]:
    """The dice orders a legal turn plays, cut to the number of dice it must play."""
    return [dice[: planner.target] for dice in planner.remaining_dice()]


def _dice_game_turns(position: DiceGame[Any]) -> Iterator[DiceTurn[Any]]:
    planner = position.plan()
    start = position.mover_state()
    if planner.target == 0:
        yield DiceTurn((), position.after_turn(start, 0), position)
        return
    found = final_states(start, _dice_to_play(planner), position.step_function())
    for state, path in found:
        steps = tuple(step for step in path if step is not None)
        yield DiceTurn(steps, position.after_turn(state, planner.target), position)


def stream_turns(position: AnyPosition) -> Iterator[Turn]:
    """The legal turns of ``position``, each yielded as soon as it is found.

    Games without a die-by-die search (Abluka) list their turns at once.
    """
    if position.outcome() is not None:
        return iter(())
    if isinstance(position, DiceGame):
        return _dice_game_turns(position)
    return iter(position.legal_turns())
