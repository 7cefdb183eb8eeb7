"""Antitabla and chelebi: tabla with a different goal or different doubles."""

from __future__ import annotations

from typing import ClassVar

from tavla.core.dice import Roll
from tavla.core.protocol import BLACK, WHITE, Outcome
from tavla.core.registry import register
from tavla.rules.backgammon.position import CHECKERS, BackgammonPosition, tabla_family_facts


@register(tabla_family_facts("Antitabla"), "anti-tabla", "antibackgammon")
class AntitablaPosition(BackgammonPosition):
    """RULES.md 3: the first to bear off all 15 loses; the other scores by tabla's tests."""

    game: ClassVar[str] = "antitabla"

    def outcome(self) -> Outcome | None:
        for finisher in (WHITE, BLACK):
            if self.off[finisher] == CHECKERS:
                # The tests of tabla are applied to the player still holding checkers,
                # who is the winner here; "the other player's home" is the finisher's.
                survivor = 1 - finisher
                result = self._loss_points(survivor, finisher)
                return Outcome(survivor, result.points, result.reason)
        return None


@register(tabla_family_facts("Chelebi"), "celebi", "çelebi")
class ChelebiPosition(BackgammonPosition):
    """RULES.md 4: doubles are progressive, n-n then (n+1)'s up to four 6's, in order."""

    game: ClassVar[str] = "chelebi"

    def dice_sequences(self, roll: Roll) -> list[list[int]]:
        high, low = max(roll), min(roll)
        if high != low:
            return [[high, low], [low, high]]
        return [[value for value in range(high, 7) for _ in range(4)]]
