"""The registry of games: names and aliases to game definitions.

Games register themselves when ``tavla.rules`` is imported, which ``import tavla``
does; the core layer never imports the rules layer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tavla.core.definition import NO_OPTIONS, GameDefinition, GameFacts, GameOptions
from tavla.core.errors import UnknownGameError
from tavla.core.protocol import AnyPosition

_BY_NAME: dict[str, GameDefinition] = {}
_CANONICAL: dict[str, GameDefinition] = {}

P = TypeVar("P", bound=AnyPosition)


def register(
    facts: GameFacts, *aliases: str, options: GameOptions = NO_OPTIONS
) -> Callable[[type[P]], type[P]]:
    """Class decorator: define the game of a position class (its ``game`` name,
    ``aliases``, ``facts`` and default ``options``) and register it.

    The bound of ``P`` makes mypy check the class against the game protocol here.
    """

    def decorate(cls: type[P]) -> type[P]:
        name = cls.game
        definition = GameDefinition(name, aliases, facts, cls, options)
        GameDefinition._interned[(name, options)] = definition
        for key in (name, *aliases):
            existing = _BY_NAME.get(key)
            if existing is not None and existing.position_class is not cls:
                raise ValueError(f"game name {key!r} is already taken by {existing.name}")
            _BY_NAME[key] = definition
        _CANONICAL[name] = definition
        cls.DEFINITION = definition  # type: ignore[attr-defined]
        return cls

    return decorate


def find_game(name: str) -> GameDefinition:
    """The game registered under ``name`` or one of its aliases, under default options."""
    try:
        return _BY_NAME[name.strip().lower()]
    except (KeyError, AttributeError):
        raise UnknownGameError(str(name), game_names()) from None


def game_names() -> list[str]:
    """Canonical names of every registered game, in registration order."""
    return list(_CANONICAL)


def all_games() -> list[GameDefinition]:
    """Every registered game under default options, in registration order."""
    return list(_CANONICAL.values())
