"""The chance node of the two-dice games (ARCHITECTURE.md example 2).

A position says when chance acts (``is_chance``) and lists the 21 rolls with their
probabilities; a roll gives the same position with dice to play. Shared by the tabla
family and by tapa, gulbara and indiyka, which differ only in when a roll is due.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Self

from tavla.core.dice import ROLLS, Roll
from tavla.core.errors import NotationError, WrongPhaseError


class TwoDiceChance:
    """Mixin for immutable positions with ``side`` and ``dice`` fields.

    The class provides ``is_chance`` (a roll is due), ``notation()`` and
    ``_replace(**fields)``; this mixin adds the side to act and the rolls.
    """

    side: int
    dice: Roll | None

    @property
    def is_chance(self) -> bool:
        raise NotImplementedError

    def notation(self) -> str:
        raise NotImplementedError

    def _replace(self, **changes: object) -> Self:
        raise NotImplementedError

    @property
    def to_act(self) -> int:
        return self.side

    def chance_outcomes(self) -> Sequence[tuple[Roll, Fraction]]:
        return ROLLS if self.is_chance else ()

    def with_roll(self, roll: Roll) -> Self:
        # The dice are checked first: a bad value is a mistake in the input whatever the
        # phase, and naming it is more useful than saying no roll is due.
        if len(roll) != 2 or not all(type(die) is int and 1 <= die <= 6 for die in roll):
            raise NotationError("dice", repr(roll), "expected two dice 1-6")
        if not self.is_chance:
            raise WrongPhaseError(f"no roll is due in {self.notation()}")
        return self._replace(dice=(roll[0], roll[1]))

    def rolled_dice(self) -> Roll:
        """The dice to play; WrongPhaseError while the side to act must still roll."""
        if self.dice is None:
            raise WrongPhaseError(f"the dice must be rolled first in {self.notation()}")
        return self.dice

    def with_side(self, side: int) -> Self:
        return self._replace(side=side)
