"""Die-by-die turn search shared by every dice game.

A game describes one die's worth of movement with a *step function*: given an
internal state (a hashable value) and a die, it lists ``(step, next_state)`` pairs.
Everything else is common to the family:

- a turn plays the dice of one of a few *sequences* (``[hi, lo]`` and ``[lo, hi]``
  for a plain roll, ``[n, n, n, n]`` for a double, longer ones for progressive
  doubles), as many of them as possible, in order;
- when only one die of a plain roll can be played, the larger must be played if it
  can (``prefer_first``: the first sequence starts with the larger die);
- turns are de-duplicated by the state they produce, and so are the partial turns
  after every die, which keeps long progressive doubles tractable.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Generic, TypeVar

from tavla.core.protocol import AnyPosition, Turn

TURN_LIST_LIMIT = 3000
"""Past this many distinct positions after one die, :func:`bounded_turns` gives up:
a 1-1 in chelebi has over 100,000 turns and can take a minute to list."""


def bounded_turns(position: AnyPosition, limit: int = TURN_LIST_LIMIT) -> Sequence[Turn] | None:
    """The legal turns, or None where they are too many to list quickly (the long
    progressive doubles)."""
    return position.legal_turns_within(limit)


S = TypeVar("S", bound=Hashable)
T = TypeVar("T")

StepFunction = Callable[[S, int], Iterable[tuple[T, S]]]


@dataclass(frozen=True, slots=True)
class TurnSearch(Generic[S, T]):
    """The result of a full search: every maximal turn by the state it produces."""

    dice_played: int
    turns: dict[S, tuple[T, ...]]


def search_turns(
    start: S,
    sequences: Sequence[Sequence[int]],
    steps: StepFunction[S, T],
    *,
    prefer_first: bool = False,
) -> TurnSearch[S, T]:
    """Every maximal turn from ``start``, breadth-first with de-duplication per die.

    ``prefer_first``: when the best any sequence achieves is a single die, only the
    first sequence's single-die turns count if it has any (the larger-die rule).
    """
    found = search_turns_within(start, sequences, steps, None, prefer_first=prefer_first)
    if found is None:  # a search with no limit never gives up
        raise RuntimeError("search_turns_within gave up without a limit")
    return found


def search_turns_within(
    start: S,
    sequences: Sequence[Sequence[int]],
    steps: StepFunction[S, T],
    limit: int | None,
    *,
    prefer_first: bool = False,
) -> TurnSearch[S, T] | None:
    """:func:`search_turns`, or None as soon as the distinct states after one die
    exceed ``limit``: one pass, where checking the size first would search twice."""
    per_sequence: list[tuple[int, dict[S, tuple[T, ...]]]] = []
    for dice in sequences:
        level: dict[S, tuple[T, ...]] = {start: ()}
        depth = 0
        for die in dice:
            following: dict[S, tuple[T, ...]] = {}
            for state, path in level.items():
                for step, after in steps(state, die):
                    if after not in following:
                        following[after] = (*path, step)
            if limit is not None and len(following) > limit:
                return None
            if not following:
                break
            level = following
            depth += 1
        per_sequence.append((depth, level))
    best, turns = _maximal(per_sequence, prefer_first)
    return TurnSearch(best, turns)


def turn_states_within(
    start: S,
    sequences: Sequence[Sequence[int]],
    steps: StepFunction[S, T],
    limit: int | None,
    *,
    prefer_first: bool = False,
) -> tuple[int, list[S]] | None:
    """(dice played, final states) of :func:`search_turns_within`, without the paths.

    For callers that need the results only (a random playout picks one and builds
    one position): no step path is copied for each state reached.
    """
    per_sequence: list[tuple[int, dict[S, None]]] = []
    for dice in sequences:
        level: dict[S, None] = {start: None}
        depth = 0
        for die in dice:
            following: dict[S, None] = {}
            for state in level:
                for _, after in steps(state, die):
                    following[after] = None
            if limit is not None and len(following) > limit:
                return None
            if not following:
                break
            level = following
            depth += 1
        per_sequence.append((depth, level))
    best, found = _maximal(per_sequence, prefer_first)
    return best, list(found)


V = TypeVar("V")


def _maximal(per_sequence: list[tuple[int, dict[S, V]]], prefer_first: bool) -> tuple[int, dict[S, V]]:
    """The turns that play the most dice over all sequences, the first sequence's
    value kept for a state several reach; with ``prefer_first``, the larger-die rule:
    when one die is the most any sequence plays, the first sequence's die if it can."""
    best = max(depth for depth, _ in per_sequence)
    if prefer_first and best == 1 and per_sequence[0][0] == 1:
        return 1, dict(per_sequence[0][1])
    found: dict[S, V] = {}
    for depth, level in per_sequence:
        if depth == best:
            for state, value in level.items():
                found.setdefault(state, value)
    return best, found


class Reach(Generic[S, T]):
    """How many of some dice can be played in order from a state, memoised.

    Depth-first with an early exit as soon as every die is shown playable.
    """

    def __init__(self, step_function: StepFunction[S, T]) -> None:
        self._step_function = step_function
        self._memo: dict[tuple[S, tuple[int, ...]], int] = {}

    def __call__(self, state: S, dice: tuple[int, ...]) -> int:
        if not dice:
            return 0
        key = (state, dice)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        best = 0
        for _, after in self._step_function(state, dice[0]):
            best = max(best, 1 + self(after, dice[1:]))
            if best == len(dice):
                break
        self._memo[key] = best
        return best


@dataclass
class StepPlanner(Generic[S, T]):
    """Plays a turn die by die, allowing only steps that keep a maximal turn reachable.

    It never enumerates whole turns: the best reachable number of dice is found by a
    depth-first search that stops as soon as every remaining die is shown playable,
    memoised by (state, dice still to play).
    """

    start: S
    sequences: Sequence[Sequence[int]]
    step_function: StepFunction[S, T]
    prefer_first: bool = False
    played: list[tuple[int, T, S]] = field(default_factory=list)
    _target: int = field(default=-1, repr=False)
    _candidates: list[tuple[int, ...]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        reach = [self._reach(self.start, tuple(dice)) for dice in self.sequences]
        self._target = max(reach)
        self._candidates = [
            tuple(dice) for dice, got in zip(self.sequences, reach, strict=True) if got == self._target
        ]
        if self.prefer_first and self._target == 1 and reach[0] == 1:
            self._candidates = [tuple(self.sequences[0])]

    @property
    def target(self) -> int:
        """How many dice a legal turn plays here."""
        return self._target

    @property
    def state(self) -> S:
        return self.played[-1][2] if self.played else self.start

    @property
    def complete(self) -> bool:
        return len(self.played) == self._target

    def dice_played(self) -> list[int]:
        return [die for die, _, _ in self.played]

    def remaining_dice(self) -> list[tuple[int, ...]]:
        """Dice still to play, for each sequence consistent with the steps so far."""
        done = len(self.played)
        so_far = tuple(self.dice_played())
        remaining: list[tuple[int, ...]] = []
        for dice in self._candidates:
            rest = dice[done:]
            if dice[:done] == so_far and rest not in remaining:
                remaining.append(rest)
        return remaining

    @cached_property
    def _reach(self) -> Reach[S, T]:
        return Reach(self.step_function)

    def legal_steps(self) -> list[tuple[int, T, S]]:
        """``(die, step, state after)`` for every step that keeps a maximal turn."""
        need = self._target - len(self.played)
        if need <= 0:
            return []
        found: list[tuple[int, T, S]] = []
        seen: set[tuple[int, S]] = set()
        for remaining in self.remaining_dice():
            die = remaining[0]
            for step, after in self.step_function(self.state, die):
                if (die, after) in seen:
                    continue
                if 1 + self._reach(after, remaining[1:]) >= need:
                    seen.add((die, after))
                    found.append((die, step, after))
        return found

    def play(self, die: int, step: T, after: S) -> None:
        self.played.append((die, step, after))

    def undo(self) -> None:
        if not self.played:
            raise IndexError("no step to take back")
        self.played.pop()
