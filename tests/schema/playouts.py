"""Positions of every game from seeded random playouts, for the JSON tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from tavla.core.dice import ROLLS
from tavla.core.protocol import AnyPosition
from tavla.core.registry import find_game
from tavla.match.players import RandomPlayer

SMALL_DOUBLES = ((1, 1), (2, 2))
"""Left out of the rolls: progressive 1-1 and 2-2 make turns that take long to build."""


def random_roll(rng: random.Random) -> tuple[int, int]:
    rolls = [roll for roll, _ in ROLLS if roll not in SMALL_DOUBLES]
    high, low = rng.choice(rolls)
    return (high, low) if rng.random() < 0.5 else (low, high)


def playout(game: str, seed: int, limit: int = 400, **options: object) -> Iterator[AnyPosition]:
    """The positions of one random game of ``game``: chance nodes, decisions, the end."""
    rng = random.Random(seed)
    player = RandomPlayer(rng)
    position = find_game(game).with_options(**options).start()
    for _ in range(limit):
        yield position
        if position.outcome() is not None:
            return
        if position.is_chance:
            position = position.with_roll(random_roll(rng))
        else:
            position = position.play(player.random_turn(position))
