"""Resignations (as in gnubg and FIBS): offer a single, gammon or backgammon.

Either player, while a game is being played, offers to lose a given number of points
(times the cube); the opponent accepts, which ends the game at that value, or declines, and play goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.match.errors import ResignError

#: Resignation levels by name, worth 1, 2 or 3 points before the cube (RULES.md 1.5).
RESIGN_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3}
LEVEL_NAMES = {points: name for name, points in RESIGN_LEVELS.items()}


def parse_level(text: str) -> int:
    """``single``/``gammon``/``backgammon`` (or 1/2/3) to points; raises ResignError."""
    key = text.strip().lower()
    if key in RESIGN_LEVELS:
        return RESIGN_LEVELS[key]
    if key in ("1", "2", "3"):
        return int(key)
    raise ResignError(f"resign {text!r}: expected single, gammon or backgammon")


@dataclass(frozen=True)
class ResignOffer:
    """``by`` offers to lose ``points`` (1, 2 or 3) times the cube."""

    by: int
    points: int

    @property
    def level(self) -> str:
        return LEVEL_NAMES[self.points]
