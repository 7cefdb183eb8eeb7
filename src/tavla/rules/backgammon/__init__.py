"""The tabla family: tabla (backgammon), antitabla and chelebi (RULES.md 1-4)."""

from tavla.rules.backgammon.position import BackgammonPosition
from tavla.rules.backgammon.variants import AntitablaPosition, ChelebiPosition

__all__ = [
    "AntitablaPosition",
    "BackgammonPosition",
    "ChelebiPosition",
]
