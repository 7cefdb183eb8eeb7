"""Playing levels of the Abluka engine, from ``beginner`` to ``max``.

Lower levels search less deeply and add noise to the scores of the root turns, so
they make human-sized mistakes; ``max`` searches as long as it is allowed with the
widest blocker choice and the largest endgame budget.
"""

from __future__ import annotations

from dataclasses import replace

from tavla.bots.abluka.search import Searcher, SearchResult, SearchSettings
from tavla.core.errors import TavlaError
from tavla.rules.abluka import AblukaPosition, AblukaTurn
from tavla.rules.abluka.board import SQUARE_NAMES

LEVELS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "max")

_SETTINGS: dict[str, SearchSettings] = {
    "beginner": SearchSettings(max_depth=1, noise=120, solver_budget=0, root_solver_budget=0),
    "easy": SearchSettings(max_depth=1, noise=30, solver_budget=200, root_solver_budget=2_000),
    "medium": SearchSettings(max_depth=2, noise=8),
    "hard": SearchSettings(),
    "max": SearchSettings(root_solver_budget=1_000_000),
}
#: The time a level uses when the caller sets none.
DEFAULT_MOVETIME_MS: dict[str, int] = {"beginner": 200, "easy": 300, "medium": 500, "hard": 1000, "max": 3000}


def level_settings(level: str) -> SearchSettings:
    """The search settings of ``level``; raises TavlaError for an unknown level."""
    try:
        return _SETTINGS[level]
    except KeyError:
        raise TavlaError(f"level {level!r}: unknown; levels: {', '.join(LEVELS)}") from None


class AblukaBot:
    """Plays Abluka at one level; keeps its tables from one turn to the next."""

    def __init__(self, level: str = "hard", seed: int | None = None) -> None:
        settings = level_settings(level)
        if seed is not None:
            settings = replace(settings, seed=seed)
        self.level = level
        self.searcher = Searcher(settings)

    def think(
        self, position: AblukaPosition, movetime_ms: int | None = None
    ) -> tuple[AblukaTurn, SearchResult]:
        """The chosen turn and the search's figures; the game must not be over."""
        if position.outcome() is not None:
            raise TavlaError(f"the game is over in {position.notation()}: no turn to choose")
        budget = DEFAULT_MOVETIME_MS[self.level] if movetime_ms is None else max(1, movetime_ms)
        result = self.searcher.choose(position.mover, position.waiter, position.blockers, budget)
        return position.parse_turn(_turn_text(result)), result


def _turn_text(result: SearchResult) -> str:
    return f"{SQUARE_NAMES[result.to]}/{SQUARE_NAMES[result.block]}"
