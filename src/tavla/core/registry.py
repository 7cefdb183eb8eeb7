"""The registry of games: names and aliases to position classes.

Games register themselves when ``tavla.rules`` is imported, which ``import tavla``
does; the core layer never imports the rules layer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from tavla.core.errors import UnknownGameError

_BY_NAME: dict[str, type[Any]] = {}
_CANONICAL: dict[str, type[Any]] = {}

P = TypeVar("P", bound=type[Any])


def register(*aliases: str) -> Callable[[P], P]:
    """Class decorator: register a position class under its ``game`` name and aliases."""

    def decorate(cls: P) -> P:
        name: str = cls.game
        for key in (name, *aliases):
            existing = _BY_NAME.get(key)
            if existing is not None and existing is not cls:
                raise ValueError(f"game name {key!r} is already taken by {existing.__name__}")
            _BY_NAME[key] = cls
        _CANONICAL[name] = cls
        return cls

    return decorate


def find_game(name: str) -> type[Any]:
    """The position class registered under ``name`` or one of its aliases."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise UnknownGameError(name, game_names()) from None


def game_names() -> list[str]:
    """Canonical names of every registered game, in registration order."""
    return list(_CANONICAL)
