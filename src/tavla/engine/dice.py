"""The dice games' engine: trained networks, lookahead by level, cube decisions.

Each game with shipped weights (``tavla.bots.network.shipped_games``) plays through
``tavla.bots.levels.level_search`` (the level's settings, and the policy network where one ships),
and answers the cube with the network's chances through Janowski's model
(``tavla.bots.cube``, docs/cube.md), for money or match play. A game without
weights plays the heuristic baseline (docs/bots.md) and never doubles; indiyka has
its exact engine (``tavla.engine.indiyka``). Registered after the random engine,
this one replaces it for its games.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tavla.engine.random_dice  # noqa: F401  (registered first, then replaced here)
from tavla.bots.baselines import baseline_player
from tavla.bots.cube import Answer, CubeAction, double_decision, take_decision
from tavla.bots.cube.request import cube_context, doubler_of
from tavla.bots.heuristics import HEURISTICS
from tavla.bots.levels import DEFAULT_MOVETIME_MS, level_search
from tavla.bots.network import Network, shipped_games
from tavla.bots.search import DiceSearch
from tavla.core.errors import TavlaError
from tavla.engine.registry import LEVELS, EngineError, note_weights, register_engine
from tavla.rules.dicegame import DiceGame

_DOUBLES = (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS, CubeAction.DOUBLE_BEAVER)


def heuristic_games() -> tuple[str, ...]:
    """Dice games with a heuristic baseline but no shipped weights: the heuristic plays
    them (indiyka, whose rolls leave no choice, has its exact engine instead)."""
    shipped = shipped_games()
    return tuple(game for game in HEURISTICS if game not in shipped and game != "indiyka")


class DiceEngine:
    """One search per game and level (``level_search``), kept between requests; the
    networks for the cube loaded once.

    ``networks`` replaces the shipped weights of their games (``tavla engine --weights``:
    a file that ``tavla train``, ``teach`` or ``distill`` wrote): every level searches
    that network alone, and the cube reads its chances."""

    def __init__(self, networks: Mapping[str, Network] | None = None) -> None:
        self.given = dict(networks or {})
        self.heuristic_games = tuple(game for game in heuristic_games() if game not in self.given)
        trained = sorted({*shipped_games(), *self.given})
        self.games: tuple[str, ...] = (*trained, *self.heuristic_games)
        self._networks: dict[str, Network] = dict(self.given)
        self._searches: dict[tuple[str, str], DiceSearch] = {}

    def _network(self, game: str) -> Network:
        if game not in self._networks:
            self._networks[game] = Network.shipped(game)
        return self._networks[game]

    def _position(self, position: Any, level: str) -> DiceGame[Any]:
        if level not in LEVELS:
            raise EngineError(f"level {level!r}: unknown; levels: {', '.join(LEVELS)}")
        if not isinstance(position, DiceGame) or position.game not in self.games:
            raise EngineError(f"not a position of {', '.join(self.games)}: {position.notation()}")
        if position.outcome() is not None:
            raise EngineError(f"the game is over in {position.notation()}")
        return position

    def move(self, position: Any, level: str, movetime_ms: int | None) -> dict[str, Any]:
        here = self._position(position, level)
        if here.is_chance:
            raise EngineError(f"the dice are not rolled in {here.notation()}: give the roll")
        if here.game in self.heuristic_games:
            turn = baseline_player("heuristic", here.game).choose(here)
            return {"move": turn.text, "after": turn.after.notation()}
        key = (here.game, level)
        if key not in self._searches:
            self._searches[key] = level_search(here.game, level, network=self.given.get(here.game))
        budget = DEFAULT_MOVETIME_MS[level] if movetime_ms is None else max(1, movetime_ms)
        try:
            choice = self._searches[key].choose(here, budget)
        except TavlaError as error:
            raise EngineError(str(error)) from None
        return {
            "move": choice.turn.text,
            "after": choice.turn.after.notation(),
            "equity": round(choice.equity, 6),
            "depth": choice.plies,
            "nodes": choice.positions,
        }

    def double(self, position: Any, match: dict[str, Any] | None, level: str) -> bool:
        here = self._before_roll(position, level, doubler_of(position, match, answering=False))
        if here.game in self.heuristic_games:
            return False
        values = self._network(here.game).chances(here, here.side)
        return double_decision(values, cube_context(match, here.side)).action in _DOUBLES

    def take(self, position: Any, match: dict[str, Any] | None, level: str) -> str:
        doubler = doubler_of(position, match, answering=True)
        here = self._before_roll(position, level, doubler)
        if here.game in self.heuristic_games:
            return "take"
        values = self._network(here.game).chances(here, doubler)
        answer = take_decision(values, cube_context(match, doubler)).answer
        return "drop" if answer == Answer.PASS else str(answer)

    def _before_roll(self, position: Any, level: str, doubler: int) -> DiceGame[Any]:
        here = self._position(position, level)
        if not here.definition.facts.has_cube:
            raise EngineError(f"{here.game} has no doubling cube")
        if here.dice is not None:
            raise EngineError(f"the cube is turned before rolling, not in {here.notation()}")
        return here.with_side(doubler)


ENGINE = register_engine(DiceEngine())


def use_networks(paths: list[Path]) -> list[str]:
    """Answer for the games of the network files ``paths`` with those networks instead
    of the shipped ones (``tavla engine --weights``); the games, in order. Each file
    names its game in the .json beside it; one without, or for a game that is no dice
    game with a heuristic, or a second file for one game, is refused. ``hello`` names
    each file with the start of its SHA-256, so that a duel's table says which played."""
    networks: dict[str, Network] = {}
    sources: dict[str, str] = {}
    for path in paths:
        try:
            network = Network.load(path)
        except (OSError, ValueError, KeyError) as error:
            raise TavlaError(f"{path}: not a network file ({error})") from None
        if network.game not in HEURISTICS or network.game == "indiyka":
            raise TavlaError(f"{path}: its .json names no game a network plays ({network.game or 'none'})")
        if network.game in networks:
            raise TavlaError(f"{path}: a second network for {network.game}")
        networks[network.game] = network
        sources[network.game] = f"{path.name}, sha256 {hashlib.sha256(path.read_bytes()).hexdigest()[:16]}"
    register_engine(DiceEngine(networks))
    for game, source in sources.items():
        note_weights(game, source)
    return list(networks)
