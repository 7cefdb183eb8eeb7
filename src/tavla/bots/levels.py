"""Playing levels of the dice-game bots, from ``beginner`` to ``max``.

The levels follow GNU Backgammon's: the weak ones play the network's 0-ply choice
with noise added to each turn's equity (human-sized mistakes, bigger the weaker),
``medium`` is the network alone at 0-ply (gnubg's "expert"; with the game's policy
network choosing where one ships), ``hard`` looks one roll ahead and ``max`` two,
each over the turns the ply below found best (move filters), as deep as
``movetime_ms`` allows.
"""

from __future__ import annotations

from typing import Any

from tavla.bots.network import Network
from tavla.bots.search import DiceSearch, SearchSettings
from tavla.core.errors import TavlaError
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn

LEVELS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "max")

_SETTINGS: dict[str, SearchSettings] = {
    "beginner": SearchSettings(plies=0, noise=0.06),
    "easy": SearchSettings(plies=0, noise=0.03),
    "medium": SearchSettings(plies=0),
    "hard": SearchSettings(plies=1, keep=(8,), margin=(0.16,)),
    "max": SearchSettings(plies=2, keep=(8, 3), margin=(0.16, 0.04)),
}
#: The time a level takes at most when the caller sets none (a bot answers sooner when
#: its plies are done).
DEFAULT_MOVETIME_MS: dict[str, int] = {"beginner": 500, "easy": 500, "medium": 500, "hard": 3000, "max": 8000}


def level_settings(level: str) -> SearchSettings:
    """The search settings of ``level``; TavlaError names the levels for an unknown one."""
    try:
        return _SETTINGS[level]
    except KeyError:
        raise TavlaError(f"level {level!r}: unknown; levels: {', '.join(LEVELS)}") from None


def level_search(
    game: str, level: str, *, network: Network | None = None, seed: int | None = None
) -> DiceSearch:
    """``game``'s bot at ``level``: the shipped network searched as the level says, or
    ``network`` (a file that training wrote) alone.

    The levels that do not look ahead choose with the game's policy network where one
    ships (``Network.shipped_policy``: tapa's and gulbara's, fitted to rank a roll's turns
    as one roll of lookahead does); the lookahead levels search the shipped network alone,
    which plays better over it than over the policy (docs/bots.md)."""
    settings = level_settings(level)
    policy = None
    if network is None:
        network = Network.shipped(game)
        policy = Network.shipped_policy(game) if settings.plies == 0 else None
    return DiceSearch(network, settings, seed=seed, policy=policy)


class LevelPlayer:
    """A dice game's bot at ``level`` (:func:`level_search`), ``choose(position)`` as
    every player (``tavla.bots.players.Player``)."""

    def __init__(
        self,
        game: str,
        level: str,
        *,
        movetime_ms: int | None = None,
        seed: int | None = None,
        network: Network | None = None,
    ) -> None:
        self.name = level
        self.search = level_search(game, level, network=network, seed=seed)
        self.movetime_ms = movetime_ms

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        return self.search.choose(position, self.movetime_ms).turn
