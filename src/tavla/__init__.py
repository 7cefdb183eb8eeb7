"""Tavla: the Turkish and Balkan backgammon family and Abluka, as a Python library.

>>> import tavla
>>> position = tavla.from_notation(
...     "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 31")
>>> len(position.legal_turns())
16
>>> position.play("8/5 6/5").notation()
'tabla 2b/-/-/-/2w/4w/-/2w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 b -'

"""

from __future__ import annotations

from typing import Any

from tavla import rules as _rules  # noqa: F401  (registers the games)
from tavla.core.definition import GameDefinition, GameFacts, GameOptions, NotationKind
from tavla.core.dice import ROLLS, CryptoDice, ScriptedDice, SeededDice
from tavla.core.errors import IllegalMoveError, NotationError, OptionError, TavlaError, UnknownGameError
from tavla.core.game import Game, GameRecord
from tavla.core.protocol import BLACK, WHITE, AnyPosition, Outcome, Position, Turn
from tavla.core.registry import all_games, find_game, game_names

__version__ = "0.1.0"


def new_game(name: str, *, opening: bool = True, **options: Any) -> Game:
    """A new game of ``name`` (or an alias: ``backgammon``, ``plakoto`` ...).

    ``options`` are the game's rule options, e.g. ``mother_pin_wins=True`` for tapa.
    """
    return Game.new(name, opening=opening, **options)


def from_notation(text: str) -> AnyPosition:
    """Parse a position of any game: TPN for the dice games, FEN-like for Abluka.

    A TPN's first field names the game and any rule options that differ from the
    defaults: ``tapa(mother_pin_wins=true) ...``.
    """
    stripped = text.strip()
    head = stripped.split(" ", 1)[0] if stripped else ""
    names = game_names()
    if head.partition("(")[0] in names:
        return find_game(head.partition("(")[0]).from_notation(stripped)
    if stripped.count(" ") >= 5:  # the shape of TPN (RULES.md 1.2): the game name is wrong
        raise NotationError("game", head, f"expected one of {', '.join(names)}")
    for definition in all_games():
        if definition.facts.notation is not NotationKind.TPN:
            return definition.from_notation(stripped)
    raise NotationError("game", head, f"expected one of {', '.join(names)}")


__all__ = [
    "BLACK",
    "ROLLS",
    "WHITE",
    "AnyPosition",
    "CryptoDice",
    "Game",
    "GameDefinition",
    "GameFacts",
    "GameOptions",
    "GameRecord",
    "IllegalMoveError",
    "NotationError",
    "OptionError",
    "Outcome",
    "Position",
    "ScriptedDice",
    "SeededDice",
    "TavlaError",
    "Turn",
    "UnknownGameError",
    "find_game",
    "from_notation",
    "game_names",
    "new_game",
]
