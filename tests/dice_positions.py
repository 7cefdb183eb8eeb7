"""The dice games' positions, typed as such, for tests that reach them by a game's name or
a TPN: ``tavla.find_game(name).start()`` and ``tavla.from_notation(text)`` are typed as any
game's position, Abluka's included."""

from __future__ import annotations

from typing import Any

import tavla
from tavla.rules.dicegame import DiceGame


def dice_start(game: str) -> DiceGame[Any]:
    """``tavla.find_game(game).start()`` of a dice game."""
    position = tavla.find_game(game).start()
    assert isinstance(position, DiceGame)
    return position


def dice_position(text: str) -> DiceGame[Any]:
    """``tavla.from_notation(text)`` of a dice game's TPN."""
    position = tavla.from_notation(text)
    assert isinstance(position, DiceGame)
    return position
