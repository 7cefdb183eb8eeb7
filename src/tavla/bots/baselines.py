"""The baseline players by name: the benchmarks' opponents and the lowest bot levels.

- ``random``: a uniformly random legal turn (every dice game);
- ``heuristic``: the game's hand-written heuristic (:mod:`tavla.bots.heuristics`);
- ``pubeval``: Tesauro's pubeval (tabla and its variants' board: tabla, antitabla, chelebi,
  though its weights were fitted to tabla alone);
- ``network``: the shipped trained network at 0-ply, where weights ship for the game.
"""

from __future__ import annotations

from tavla.bots.heuristics import HEURISTICS, heuristic_player
from tavla.bots.network import Network
from tavla.bots.players import Player, RandomPlayer, network_player
from tavla.core.errors import TavlaError
from tavla.core.registry import find_game
from tavla.rules.backgammon.position import BackgammonPosition

BASELINES = ("random", "heuristic", "pubeval", "network")


def baseline_player(name: str, game: str, *, seed: int | None = None) -> Player:
    """The baseline ``name`` playing ``game`` (``seed`` for the random player)."""
    game = find_game(game).name
    if game not in HEURISTICS:
        raise TavlaError(f"{game} has no dice: its players are in tavla.bots.abluka")
    if name == "random":
        return RandomPlayer(seed)
    if name == "heuristic":
        return heuristic_player(game)
    if name == "pubeval":
        if not issubclass(find_game(game).position_class, BackgammonPosition):
            raise TavlaError(f"pubeval plays tabla's board only, not {game}")
        from tavla.bots.pubeval import PubevalPlayer

        return PubevalPlayer()
    if name == "network":
        return network_player(Network.shipped(game))
    raise TavlaError(f"unknown player {name!r}: {', '.join(BASELINES)}")
