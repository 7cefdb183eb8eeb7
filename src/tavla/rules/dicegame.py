"""The framework of the six dice games (RULES.md 1.3-7).

Each of these games describes itself through a few hooks: a search state seen
from the side to act (the *mover*), a die-by-die step function, the dice
sequences of the turn that is due, and how a final search state becomes the next
position. :class:`DiceGame` turns those hooks into the game protocol: the chance
node, legal turns, reading move text, the step builder and rule options.

A step function may answer ``[(None, state)]`` (a *pass*) for a state in which the
game is over: the game ends at once (the last checker borne off, the only end that
comes in the middle of a turn), so the dice still to play count as played and no
other line of play is preferred for using more dice.

Progressive doubles can have millions of legal turns. ``legal_turns`` still lists
them all (the protocol's promise); :meth:`DiceGame.legal_turns_within` gives up past
a size, :meth:`DiceGame.best_turns` is a bounded beam search for bots, and
:meth:`DiceGame.find_turn` (used by ``parse_turn`` where the game defines
``could_reach``) and the step builder (:mod:`tavla.rules.dicesteps`) never list them.

The tabla family (tabla, antitabla, chelebi) is built on the same hooks; it
overrides the listing with its fast whole-turn generator and reading text on
huge doubles with its own search, both accelerators behind this interface.

Rule options (RULES.md 5, 6.2) live in the game's definition
(:mod:`tavla.core.definition`); a game with options has an ``options`` field, so
positions of other rule sets compare unequal and every position pickles.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cached_property
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

from tavla.core.definition import Defined
from tavla.core.dice import Roll
from tavla.core.errors import IllegalMoveError, NotationError, WrongPhaseError
from tavla.core.protocol import Outcome, Turn
from tavla.rules.chance import TwoDiceChance
from tavla.rules.dicesteps import DiceSteps, DiceTurn, MaybeStep
from tavla.rules.movetext import Step, format_step, format_turn, parse_move
from tavla.rules.turns import Reach, StepFunction, StepPlanner, TurnSearch, search_turns, search_turns_within

S = TypeVar("S", bound=Hashable)


def board_change(paths: Iterable[Sequence[int]]) -> dict[int, int]:
    """The mover's net count change per point (25 bar/not entered, 0 off) of checker paths.

    In these games no opposing checker leaves its point during my turn, so the net
    change determines the position a turn produces: two texts with the same change
    denote the same turn.
    """
    change: dict[int, int] = {}
    for path in paths:
        change[path[0]] = change.get(path[0], 0) - 1
        change[path[-1]] = change.get(path[-1], 0) + 1
    return {point: count for point, count in change.items() if count}


R = TypeVar("R")


def _rating_each(score: Callable[[R], float]) -> Callable[[Sequence[R]], list[float]]:
    """A batch rater that rates the positions one by one."""
    return lambda positions: [score(position) for position in positions]


def canonical_turn_text(steps: Sequence[Step]) -> str:
    """The one text of the turn these steps make, whatever order or paths they took.

    The turn is its net change of the board (see :func:`board_change`), so the
    text is built from that alone: the points left, highest first, are paired with
    the points reached, highest first (if any pairing moves every checker forward,
    this one does). ``*`` marks a point reached by a pin that still holds; a
    pin made on the way and released again in the same turn changes nothing.
    """
    change = board_change((step[0], step[1]) for step in steps)
    pinned_at = {step[1] for step in steps if step[2]}
    sources = sorted((p for p, n in change.items() if n < 0 for _ in range(-n)), reverse=True)
    targets = sorted((p for p, n in change.items() if n > 0 for _ in range(n)), reverse=True)
    paired: list[Step] = []
    for source, target in zip(sources, targets, strict=True):
        pins = target in pinned_at
        pinned_at.discard(target)
        paired.append((source, target, pins))
    return format_turn(paired)


_LARGE_COUNT = re.compile(r"(?<!\S)([^\s()]+)\(([1-9][0-9])\)(?!\S)")


def _spell_out(match: re.Match[str]) -> str:
    return " ".join([match.group(1)] * int(match.group(2)))


class DiceGame(Defined, TwoDiceChance, Generic[S]):
    """Base of the positions of the six dice games (frozen dataclasses)."""

    game: ClassVar[str]
    side: int
    dice: Roll | None

    # ------------------------------------------------------------ hooks to define
    def mover_state(self) -> S:
        """The search state with the side to act as the mover."""
        raise NotImplementedError

    def step_function(self) -> StepFunction[S, MaybeStep]:
        raise NotImplementedError

    def turn_sequences(self) -> tuple[list[list[int]], bool]:
        """The dice orders of the turn due, and whether the larger-die rule applies."""
        raise NotImplementedError

    def after_turn(self, state: S, dice_played: int) -> Self:
        """The position once the mover's turn, playing ``dice_played`` dice, gave ``state``."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        raise NotImplementedError

    def notation(self) -> str:
        raise NotImplementedError

    @property
    def awaiting_decision(self) -> bool:
        """True when a turn is due (dice rolled, or other dice to play first)."""
        return self.dice is not None

    def turn_text(self, turn: DiceTurn[Self]) -> str:
        """The canonical text of a turn from this position (one text per turn)."""
        return canonical_turn_text(turn.steps)

    def build_after(self, pending: object) -> Self:
        """The position a turn listed with ``pending`` leads to (see :class:`DiceTurn`)."""
        state, dice_played = cast(tuple[S, int], pending)
        return self.after_turn(state, dice_played)

    def format_step(self, step: Step) -> str:
        return format_step(step)

    def read_paths(self, text: str) -> tuple[tuple[int, ...], ...]:
        """The checker paths a move text names (raises NotationError).

        Counts of ten or more (``1/off(10)``, met in progressive doubles) are spelled
        out first: :func:`parse_move` reads one-digit counts only.
        """
        return parse_move(_LARGE_COUNT.sub(_spell_out, text)).paths

    # -------------------------------------------------------------------- chance
    @property
    def is_chance(self) -> bool:
        return not self.awaiting_decision and self.outcome() is None

    def _replace(self, **changes: Any) -> Self:
        return cast(Self, dataclasses.replace(cast(Any, self), **changes))

    # --------------------------------------------------------------------- turns
    def _require_decision(self) -> None:
        if not self.awaiting_decision:
            raise WrongPhaseError(f"the dice must be rolled first in {self.notation()}")

    @cached_property
    def _turns(self) -> tuple[DiceTurn[Self], ...]:
        if self.outcome() is not None:
            return ()
        self._require_decision()
        return self._generate_turns()

    def _generate_turns(self) -> tuple[DiceTurn[Self], ...]:
        """Every legal turn (the outcome and the phase are checked): the framework's
        breadth-first search; a game may override it with a faster generator."""
        sequences, prefer_larger = self.turn_sequences()
        found = search_turns(self.mover_state(), sequences, self.step_function(), prefer_first=prefer_larger)
        return self._search_turns(found)

    def _search_turns(self, found: TurnSearch[S, MaybeStep]) -> tuple[DiceTurn[Self], ...]:
        if found.dice_played == 0:
            return (DiceTurn((), self.after_turn(self.mover_state(), 0), self),)
        return tuple(
            [
                DiceTurn(
                    tuple(step for step in steps if step is not None),
                    self.after_turn(state, found.dice_played),
                    self,
                )
                for state, steps in found.turns.items()
            ]
        )

    def legal_turns(self) -> Sequence[DiceTurn[Self]]:
        return self._turns

    def parse_turn(self, text: str) -> DiceTurn[Self]:
        turns = self.legal_turns()
        if not turns:
            raise IllegalMoveError(text, self.notation(), "the game is over")
        try:
            paths = self.read_paths(text)
        except NotationError as error:
            raise IllegalMoveError(text, self.notation(), f"unreadable move ({error})") from None
        wanted = board_change(paths)
        for turn in turns:
            if board_change((step[0], step[1]) for step in turn.steps) == wanted:
                return turn
        if not paths:
            raise IllegalMoveError(text, self.notation(), "a move is possible, '-' is not legal")
        raise IllegalMoveError(text, self.notation())

    def play(self, turn: Turn | str) -> Self:
        """The position after a legal turn, given as text or as a turn of this position.

        A turn made by this position's ``legal_turns`` or step builder is trusted
        without listing every turn again (long progressive doubles stay cheap); any
        other turn is checked against the legal turns.
        """
        if isinstance(turn, str):
            return self.parse_turn(turn).after
        if isinstance(turn, DiceTurn) and (turn.origin is self or turn.origin == self):
            return cast(Self, turn.after)
        after: object = turn.after
        if not any(after == legal.after for legal in self.legal_turns()):
            raise IllegalMoveError(turn.text, self.notation())
        return cast(Self, after)

    def legal_turns_within(self, limit: int) -> Sequence[DiceTurn[Self]] | None:
        """The legal turns, or None as soon as one die's distinct positions exceed ``limit``.

        Progressive doubles can have millions of turns (gulbara); this bounds the
        work for callers that must not stall (listing moves, a server, tests).
        """
        if "_turns" in self.__dict__ or self.outcome() is not None:
            return self.legal_turns()
        self._require_decision()
        sequences, prefer_larger = self.turn_sequences()
        found = search_turns_within(
            self.mover_state(), sequences, self.step_function(), limit, prefer_first=prefer_larger
        )
        if found is None:
            return None
        turns = self._search_turns(found)
        self.__dict__["_turns"] = turns  # the cached_property's slot
        return turns

    def best_turns(
        self,
        width: int,
        score: Callable[[Self], float] | None = None,
        *,
        score_many: Callable[[Sequence[Self]], Sequence[float]] | None = None,
    ) -> list[DiceTurn[Self]]:
        """Up to ``width`` legal turns chosen die by die in bounded time and memory.

        After each die the partial turns are de-duplicated by position, those that
        can no longer play the dice a legal turn must play are dropped, and only the
        ``width`` whose position (as if the turn ended there) ``score`` rates
        highest are kept: a beam search for bots facing huge progressive turns.
        When the full list is small enough to make, its ``width`` best are returned;
        either way the turns come best first. ``score_many``, when given, rates a
        whole list of positions at once in place of ``score`` (a bot's evaluator is
        far cheaper on a batch than position by position); one of the two is needed.
        """
        if score_many is not None:
            rate = score_many
        elif score is not None:
            rate = _rating_each(score)
        else:
            raise TypeError("best_turns needs a score or a score_many to rate positions")

        def ranked(positions: Sequence[Self]) -> list[int]:
            """Indices of ``positions``, highest rated first (ties in the given order)."""
            values = rate(positions)
            return sorted(range(len(positions)), key=lambda index: -values[index])

        small = self.legal_turns_within(width)
        if small is not None:
            # Listed whole after all: the ``width`` best of them, exactly.
            return [small[index] for index in ranked([turn.after for turn in small])[:width]]
        planner = self._search_plan
        step_function = self.step_function()
        reach = Reach(step_function)

        def best_of(states: Sequence[S], dice_played: int) -> list[S]:
            order = ranked([self.after_turn(state, dice_played) for state in states])
            return [states[index] for index in order[:width]]

        kept: dict[S, tuple[MaybeStep, ...]] = {}
        for sequence in planner.remaining_dice():
            dice = sequence[: planner.target]
            level: dict[S, tuple[MaybeStep, ...]] = {self.mover_state(): ()}
            for index, die in enumerate(dice):
                rest = tuple(dice[index + 1 :])
                following: dict[S, tuple[MaybeStep, ...]] = {}
                for state, path in level.items():
                    for step, after in step_function(state, die):
                        if after not in following and reach(after, rest) == len(rest):
                            following[after] = (*path, step)
                best = best_of(list(following), index + 1)
                level = {state: following[state] for state in best}
            for state, path in level.items():
                kept.setdefault(state, path)
        best = best_of(list(kept), planner.target)
        return [
            DiceTurn(
                tuple(step for step in kept[state] if step is not None),
                self.after_turn(state, planner.target),
                self,
            )
            for state in best
        ]

    def find_turn(self, target: S) -> DiceTurn[Self] | None:
        """The legal turn that ends in the mover state ``target``, found without listing turns.

        A depth-first search over the dice a legal turn plays, pruned by the
        game's :meth:`could_reach`, remembering dead ends. Answers are kept on the
        position: on a huge progressive double one search takes from milliseconds to
        seconds, and a turn's text (its first playing order) is asked for again by
        every copy of the turn, a bot's choice and the record of it.
        """
        known = self._found_turns
        if target not in known:
            known[target] = self._search_turn(target)
        return known[target]

    @cached_property
    def _found_turns(self) -> dict[S, DiceTurn[Self] | None]:
        """:meth:`find_turn`'s answers so far, by target mover state."""
        return {}

    def _search_turn(self, target: S) -> DiceTurn[Self] | None:
        planner = self._search_plan
        need = planner.target
        step_function = self.step_function()
        dead: set[tuple[S, int]] = set()

        def search(state: S, dice: tuple[int, ...], index: int) -> list[MaybeStep] | None:
            if index == len(dice):
                return [] if state == target else None
            if (state, index) in dead or not self.could_reach(state, target, dice[index:]):
                return None
            for step, after in step_function(state, dice[index]):
                found = search(after, dice, index + 1)
                if found is not None:
                    return [step, *found]
            dead.add((state, index))
            return None

        for dice in planner.remaining_dice():
            dead.clear()
            path = search(self.mover_state(), tuple(dice[:need]), 0)
            if path is not None:
                steps = tuple(step for step in path if step is not None)
                return DiceTurn(steps, self.after_turn(target, need), self)
        return None

    def could_reach(self, state: S, target: S, dice: Sequence[int]) -> bool:
        """False when playing ``dice`` from ``state`` cannot end in ``target``: the cut
        of :meth:`find_turn`'s search, which must never refuse a state the turn can
        finish from (``tavla.rules.walks`` serves the games that move down a line)."""
        return True

    @cached_property
    def _search_plan(self) -> StepPlanner[S, MaybeStep]:
        """A planner that searches use and never play on (it is shared)."""
        return self.plan()

    def plan(self) -> StepPlanner[S, MaybeStep]:
        """A die-by-die planner of the turn due: how many dice it plays, in which orders."""
        sequences, prefer_larger = self.turn_sequences()
        return StepPlanner(self.mover_state(), sequences, self.step_function(), prefer_first=prefer_larger)

    def steps(self) -> DiceSteps[S, Self]:
        if self.outcome() is not None:
            raise WrongPhaseError(f"the game is over in {self.notation()}")
        self._require_decision()
        return DiceSteps(self)

    def __str__(self) -> str:
        return self.notation()
