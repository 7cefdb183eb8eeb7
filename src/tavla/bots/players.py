"""Players of the six dice games: one small interface for bots, baselines and benchmarks.

A player answers ``choose(position)`` with one of the position's legal turns
(dice rolled, game not over). Most players rate the position after every legal
turn and play the best: :class:`ScoringPlayer` does that over the rows of
``afterstates`` with a function of the feature rows (a network's equity, a
hand-written heuristic, pubeval), in one batched call per roll. On a huge
progressive double the same function, applied to one position at a time, steers
the rules' beam search (see ``tavla.bots.afterstates``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from tavla.bots.afterstates import BEAM_WIDTH, Afterstates, afterstates
from tavla.bots.encoding.base import Features
from tavla.bots.network import Network
from tavla.core.errors import TavlaError
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn
from tavla.rules.turns import TURN_LIST_LIMIT

Scores = npt.NDArray[np.float64]
RowScore = Callable[[Features], Scores]
"""Rates rows of afterstate features for the player who just moved: higher is better."""


class Player(Protocol):
    """Anything that plays a dice game: a bot level, a baseline, a benchmark opponent."""

    name: str

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        """One legal turn of ``position`` (dice rolled, game not over)."""
        ...


def _check(position: DiceGame[Any]) -> None:
    if position.outcome() is not None:
        raise TavlaError(f"the game is over in {position.notation()}: no turn to choose")


class RandomPlayer:
    """A turn chosen uniformly among the legal turns; on a huge progressive double,
    built die by die from uniformly chosen legal steps (listing it could take minutes)."""

    def __init__(self, seed: int | float | None = None, *, limit: int = TURN_LIST_LIMIT) -> None:
        self.name = "random"
        self._rng = random.Random(seed)
        self._limit = limit

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        _check(position)
        turns = position.legal_turns_within(self._limit)
        if turns is not None:
            return self._rng.choice(list(turns))
        builder = position.steps()
        while not builder.complete:
            builder.step(self._rng.choice(list(builder.legal_steps())))
        return builder.commit()


class ScoringPlayer:
    """Plays the turn whose resulting position ``score`` rates highest.

    ``noise`` (standard deviation, in the score's units) is added to every rating
    before choosing, from ``seed``: the weak levels' human-sized mistakes. Ties
    go to the first turn in ``afterstates`` order, so play is deterministic.
    ``limit`` and ``width`` are passed to ``afterstates`` for huge doubles.
    """

    def __init__(
        self,
        name: str,
        score: RowScore,
        *,
        noise: float = 0.0,
        seed: int | None = None,
        limit: int = TURN_LIST_LIMIT,
        width: int = BEAM_WIDTH,
    ) -> None:
        self.name = name
        self.score = score
        self.noise = noise
        self._rng = np.random.default_rng(seed)
        self.limit = limit
        self.width = width

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        found, ratings = self._rated(position)
        return found.turn(int(np.argmax(ratings)))  # the first of equals, as ``ranked`` orders them

    def ranked(self, position: DiceGame[Any]) -> list[DiceTurn[Any]]:
        """The turns it found, best rated (noise included) first; ties in ``afterstates`` order."""
        found, ratings = self._rated(position)
        turns = found.turns
        return [turns[index] for index in np.argsort(-ratings, kind="stable")]

    def _rated(self, position: DiceGame[Any]) -> tuple[Afterstates[Any], Any]:
        _check(position)
        found = afterstates(position, limit=self.limit, score_rows=self.score, width=self.width)
        ratings = self.score(found.features)
        if self.noise:
            ratings = ratings + self._rng.normal(0.0, self.noise, len(ratings))
        return found, ratings


def network_player(
    network: Network, *, name: str = "network", noise: float = 0.0, seed: int | None = None
) -> ScoringPlayer:
    """The 0-ply player: the turn whose afterstate has the best cubeless equity."""
    return ScoringPlayer(name, network.equities, noise=noise, seed=seed)
