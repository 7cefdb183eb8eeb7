"""Exact values of small tabla bear-offs, and made-up estimators, for testing bots.

In a tabla bear-off of two checkers a side (RULES.md 1.3 and 2: no contact, no
gammon) the chance that the side to roll wins is computed exactly by recursion over
the rules' own legal turns; :class:`ExactBearOff` is an estimator that knows it.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import numpy as np

import tavla
from tavla.bots.encoding import encoder_for
from tavla.bots.encoding.base import Features
from tavla.bots.outcomes import Estimate
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.backgammon import BackgammonPosition

POINTS = range(1, 7)


def bear_off(white: tuple[int, ...], black: tuple[int, ...], side: int = WHITE) -> BackgammonPosition:
    """White's checkers on his points ``white``, Black's on his points ``black``, 13
    off each (so no gammon is possible), ``side`` to roll."""
    cells = ["-"] * 24
    counts: dict[int, int] = {}
    for point in white:
        counts[point - 1] = counts.get(point - 1, 0) + 1
    for index, count in counts.items():
        cells[index] = f"{count}w"
    counts = {}
    for point in black:
        counts[24 - point] = counts.get(24 - point, 0) + 1
    for index, count in counts.items():
        cells[index] = f"{count}b"
    letter = "wb"[side]
    position = tavla.from_notation(
        f"tabla {'/'.join(cells)} 0,0 {15 - len(white)},{15 - len(black)} {letter} -"
    )
    assert isinstance(position, BackgammonPosition)
    return position


@cache
def win_chance(notation: str) -> float:
    """The exact chance that the side to roll in ``notation`` (no dice) wins."""
    position = tavla.from_notation(notation)
    total = 0.0
    for roll, weight in position.chance_outcomes():
        best = 0.0
        for turn in position.with_roll(roll).legal_turns():
            after = turn.after
            outcome = after.outcome()
            value = 1.0 if outcome is not None else 1.0 - win_chance(after.notation())
            best = max(best, value)
        total += float(weight) * best
    return total


class ExactBearOff:
    """Knows the exact chance of every position after a turn of the bear-offs below,
    found by the features the search hands it; ``wrong`` rows are made up."""

    def __init__(self, positions: list[BackgammonPosition], wrong: dict[str, float] | None = None) -> None:
        self.table: dict[bytes, float] = {}
        for position in positions:
            mover = 1 - position.side  # the one who just moved, whom the features see from
            outcome = position.outcome()
            chance = 1.0 if outcome is not None else 1.0 - win_chance(position.notation())
            chance = (wrong or {}).get(position.notation(), chance)
            row = encoder_for(position).encode_many([position], mover)[0]
            self.table[row.tobytes()] = chance
        self.calls = 0

    def evaluate(self, features: Features) -> Estimate:
        self.calls += 1
        out = np.zeros((len(features), 5))
        out[:, 0] = [self.table[row.tobytes()] for row in features]
        return out


def every_position() -> list[BackgammonPosition]:
    """Every position after a turn in the 2-against-2 bear-offs, either side to roll."""
    homes = [()] + [(a,) for a in POINTS] + list(combinations_with_replacement(POINTS, 2))
    found = []
    for white in homes:
        for black in homes:
            if not white and not black:
                continue
            for side in (WHITE, BLACK):
                found.append(bear_off(white, black, side))
    return found


class FeatureSum:
    """A made-up estimator (a fixed random linear score of the features): enough to
    drive the search through every game's rules."""

    def __init__(self, size: int) -> None:
        self.weights = np.random.default_rng(3).normal(size=size) / size

    def evaluate(self, features: Features) -> Estimate:
        out = np.zeros((len(features), 5))
        out[:, 0] = 1 / (1 + np.exp(-(features @ self.weights)))
        return out
