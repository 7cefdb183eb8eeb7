"""The Abluka engine: exact endgames, evaluation, search and playing levels."""

from tavla.bots.abluka.endgame import SurvivalSolver, endgame_turn, separated_regions
from tavla.bots.abluka.levels import LEVELS, AblukaBot, level_settings
from tavla.bots.abluka.search import Searcher, SearchResult, SearchSettings

__all__ = [
    "LEVELS",
    "AblukaBot",
    "SearchResult",
    "SearchSettings",
    "Searcher",
    "SurvivalSolver",
    "endgame_turn",
    "level_settings",
    "separated_regions",
]
