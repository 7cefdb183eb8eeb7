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
from tavla.core.fairdice import FairDice
from tavla.core.game import Game, GameRecord
from tavla.core.protocol import BLACK, WHITE, AnyPosition, Outcome, Position, Turn
from tavla.core.registry import all_games, find_game, game_names

__version__ = "0.1.0"


def new_game(name: str, *, opening: bool = True, **options: Any) -> Game:
    """A new game of ``name`` (or an alias: ``backgammon``, ``plakoto`` ...).

    ``options`` are the game's rule options, e.g. ``mother_pin_wins=True`` for tapa.
    """
    return Game.new(name, opening=opening, **options)


ABLUKA_MARKS = frozenset("WBx1234567/")
"""The characters of an Abluka board field (RULES.md 8.2)."""


def _abluka_shaped(fields: list[str]) -> bool:
    """Text that looks like Abluka's notation, ``<ranks> <side>``, rather than TPN."""
    board = fields[0] if fields else ""
    # Any digit counts towards the shape, so that Abluka's reader names a non-ASCII one.
    marks = all(c in ABLUKA_MARKS or c.isdigit() for c in board)
    return len(fields) <= 2 and bool(board) and marks and any(c in board for c in "/WB")


def from_notation(text: str) -> AnyPosition:
    """Parse a position of any game: TPN for the dice games, FEN-like for Abluka.

    Text that names no game is read as Abluka's notation when it has that shape; anything
    else is refused with TPN's form, the likelier intent. A TPN's first field names the
    game and any rule options that differ from the defaults: ``tapa(mother_pin_wins=true) ...``.
    """
    stripped = text.strip()
    fields = stripped.split()
    head = fields[0] if fields else ""
    game = head.partition("(")[0]  # the game name, before any rule options
    names = game_names()
    if game in names:
        return find_game(game).from_notation(stripped)
    tpn_games = [d.name for d in all_games() if d.facts.notation is NotationKind.TPN]
    if _abluka_shaped(fields):
        for definition in all_games():
            if definition.facts.notation is not NotationKind.TPN:
                return definition.from_notation(stripped)
    if len(fields) >= 6:  # the shape of TPN (RULES.md 1.2): the game name is wrong
        raise NotationError("game", head, f"expected one of {', '.join(names)}")
    raise NotationError(
        "position",
        stripped,
        f"expected TPN, '<game> <points> <bar> <off> <side> <dice>' with a game among "
        f"{', '.join(tpn_games)} (or Abluka's '<ranks> <side>')",
    )


__all__ = [
    "BLACK",
    "ROLLS",
    "WHITE",
    "AnyPosition",
    "CryptoDice",
    "FairDice",
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
