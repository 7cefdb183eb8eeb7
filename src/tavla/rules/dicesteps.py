"""Turns and the step builder of the games built on :mod:`tavla.rules.dicegame`.

:class:`DiceSteps` is the step-level interface (RULES.md 1.3).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tavla.core.errors import IllegalMoveError
from tavla.rules.movetext import Step

if TYPE_CHECKING:
    from tavla.rules.dicegame import DiceGame

S = TypeVar("S", bound=Hashable)
P = TypeVar("P", bound="DiceGame[Any]")
MaybeStep = Step | None
"""A checker step, or ``None`` for the pass that ends a turn once the game is over."""


class DiceTurn(Generic[P]):
    """A legal turn: its steps in playing order, the position it leads to, its origin.

    The resulting position may be built on first use (``pending`` holds what the
    origin needs to build it): a turn list can hold a hundred thousand turns
    (chelebi's 1-1) of which a caller inspects a few. The text is the origin's
    canonical text of the turn, the same however the turn was found or entered.
    """

    __slots__ = ("_after", "_origin", "_pending", "_steps", "_text")

    def __init__(self, steps: tuple[Step, ...], after: P | None, origin: P, pending: object = None) -> None:
        self._steps = steps
        self._after = after
        self._origin = origin
        self._pending = pending
        self._text: str | None = None

    # Read-only views: a turn handed out by a position cannot be changed by its holder.
    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps in playing order, as found (the text is the canonical form)."""
        return self._steps

    @property
    def origin(self) -> P:
        """The position the turn is played from."""
        return self._origin

    @property
    def after(self) -> P:
        after = self._after
        if after is None:
            after = self._after = self._origin.build_after(self._pending)
        return after

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self._origin.turn_text(self)
        return self._text

    def __repr__(self) -> str:
        return f"<Turn {self.text}>"


class DiceSteps(Generic[S, P]):
    """The step-level interface (RULES.md 1.3): one die at a time, with undo.

    It never lists whole turns (see :class:`StepPlanner`). When two dice make the
    same step (``5/off`` with a 5 or a 6), the smaller die is used, keeping the
    larger for later.
    """

    def __init__(self, position: P) -> None:
        self.position = position
        self._planner = position.plan()
        self._pass_if_over()

    def _pass_if_over(self) -> None:
        """Play the passes of a finished game: its remaining dice count as played."""
        while not self._planner.complete:
            options = self._planner.legal_steps()
            if not options or any(step is not None for _, step, _ in options):
                return
            self._planner.play(*options[0])

    @property
    def dice_left(self) -> list[tuple[int, ...]]:
        """The dice still to play, one tuple per order that remains possible."""
        return self._planner.remaining_dice()

    def _options(self) -> list[tuple[str, int, Step, S]]:
        found: list[tuple[str, int, Step, S]] = []
        for die, step, after in self._planner.legal_steps():
            if step is not None:
                found.append((self.position.format_step(step), die, step, after))
        return found

    def legal_steps(self) -> list[str]:
        return list(dict.fromkeys(text for text, _, _, _ in self._options()))

    def step(self, text: str) -> None:
        wanted = text.strip().replace("*", "").lower()
        matches = [option for option in self._options() if option[0].replace("*", "") == wanted]
        if not matches:
            allowed = ", ".join(self.legal_steps()) or "none"
            raise IllegalMoveError(text, self.position.notation(), f"step not allowed (allowed: {allowed})")
        _, die, step, after = min(matches, key=lambda option: option[1])
        self._planner.play(die, step, after)
        self._pass_if_over()

    def undo(self) -> None:
        if not self.played:
            raise IllegalMoveError("undo", self.position.notation(), "no step to take back")
        while self._planner.played[-1][1] is None:
            self._planner.undo()
        self._planner.undo()

    @property
    def played(self) -> list[str]:
        return [self.position.format_step(step) for _, step, _ in self._planner.played if step is not None]

    @property
    def complete(self) -> bool:
        return self._planner.complete

    def commit(self) -> DiceTurn[P]:
        if not self.complete:
            raise IllegalMoveError(
                " ".join(self.played) or "-", self.position.notation(), "the turn is not complete"
            )
        steps = tuple(step for _, step, _ in self._planner.played if step is not None)
        after = self.position.after_turn(self._planner.state, self._planner.target)
        return DiceTurn(steps, after, self.position)
