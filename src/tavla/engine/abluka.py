"""The Abluka engine behind the protocol (``tavla.bots.abluka``)."""

from __future__ import annotations

from typing import Any

from tavla.bots.abluka import AblukaBot
from tavla.engine.registry import LEVELS, EngineError, register_engine
from tavla.rules.abluka import AblukaPosition


class AblukaEngine:
    """One bot per level, kept between requests so the tables stay warm."""

    games: tuple[str, ...] = ("abluka",)

    def __init__(self) -> None:
        self._bots: dict[str, AblukaBot] = {}

    def _bot(self, level: str) -> AblukaBot:
        if level not in LEVELS:
            raise EngineError(f"level {level!r}: unknown; levels: {', '.join(LEVELS)}")
        if level not in self._bots:
            self._bots[level] = AblukaBot(level)
        return self._bots[level]

    def move(self, position: Any, level: str, movetime_ms: int | None) -> dict[str, Any]:
        if not isinstance(position, AblukaPosition):
            raise EngineError(f"not an abluka position: {position.notation()}")
        if position.outcome() is not None:
            raise EngineError(f"the game is over in {position.notation()}: the side to move cannot step")
        turn, result = self._bot(level).think(position, movetime_ms)
        return {
            "move": turn.text,
            "after": turn.after.notation(),
            "depth": result.depth,
            "nodes": result.nodes,
        }

    def double(self, position: Any, match: dict[str, Any] | None, level: str) -> bool:
        raise EngineError("abluka has no doubling cube: 'double' does not apply")

    def take(self, position: Any, match: dict[str, Any] | None, level: str) -> str:
        raise EngineError("abluka has no doubling cube: 'take' does not apply")


ENGINE = register_engine(AblukaEngine())
