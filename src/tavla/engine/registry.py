"""Engines per game: what ``tavla engine`` can answer, and for which games.

An engine adapter serves one or more games. Adding the bots of a dice game is
writing an adapter with ``move``/``double``/``take`` and one ``register_engine``
call in its module, plus its import in ``tavla.engine.builtin``.
"""

from __future__ import annotations

from typing import Any, Protocol

from tavla.core.errors import TavlaError
from tavla.core.registry import game_names

#: The level names every engine accepts, weakest first (ENGINE_PROTOCOL.md "hello").
LEVELS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "max")


class EngineError(TavlaError):
    """A request an engine cannot serve; the reply is one line and the engine goes on."""


class GameEngine(Protocol):
    """The bot side of the protocol for the games in ``games``."""

    games: tuple[str, ...]

    def move(self, position: Any, level: str, movetime_ms: int | None) -> dict[str, Any]:
        """``{"move": text, "after": position}`` plus optional ``equity``, ``depth`` and ``nodes``."""
        ...

    def double(self, position: Any, match: dict[str, Any] | None, level: str) -> bool:
        """Whether to offer the cube now."""
        ...

    def take(self, position: Any, match: dict[str, Any] | None, level: str) -> str:
        """``take``, ``drop`` or ``beaver``."""
        ...


_ENGINES: dict[str, GameEngine] = {}
_WEIGHTS: dict[str, str] = {}


def register_engine(engine: GameEngine) -> GameEngine:
    """Make ``engine`` answer for each of its games."""
    for game in engine.games:
        _ENGINES[game] = engine
    return engine


def engine_for(game: str) -> GameEngine:
    try:
        return _ENGINES[game]
    except KeyError:
        known = ", ".join(_ENGINES) or "none"
        raise EngineError(f"no engine plays {game} (engines for: {known})") from None


def engine_games() -> list[str]:
    """The games some registered engine plays, in the library's order of games (whatever
    order the engines' modules were imported in)."""
    return [game for game in game_names() if game in _ENGINES]


def note_weights(game: str, source: str) -> None:
    """Record that ``game`` is played by the network ``source`` (a file and its hash)
    instead of the shipped weights, for ``hello`` to say so."""
    _WEIGHTS[game] = source


def played_weights() -> dict[str, str]:
    """The games played by networks other than the shipped ones, and their sources."""
    return {game: _WEIGHTS[game] for game in game_names() if game in _WEIGHTS}
