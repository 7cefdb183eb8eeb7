"""Dice: the 21 rolls with their probabilities, and the sources rolls come from.

Randomness enters the library only through a :class:`DiceSource`: seeded for tests
and bots, cryptographic on the server, scripted to replay a record.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import Protocol

from tavla.core.errors import NotationError

Roll = tuple[int, int]

#: The 21 distinct rolls, higher die first, with their probabilities (1/36 or 2/36).
ROLLS: tuple[tuple[Roll, Fraction], ...] = tuple(
    ((high, low), Fraction(1 if high == low else 2, 36)) for high in range(1, 7) for low in range(1, high + 1)
)


class DiceSource(Protocol):
    """Anything that rolls one die at a time."""

    def die(self) -> int:
        """Return one die, 1..6."""
        ...


def roll(source: DiceSource) -> Roll:
    """Roll two dice from ``source``."""
    return (source.die(), source.die())


class SeededDice:
    """Reproducible dice for tests, bots and simulations."""

    def __init__(self, seed: int | float | str | None = None) -> None:
        self._random = random.Random(seed)

    def die(self) -> int:
        return self._random.randint(1, 6)


class CryptoDice:
    """Dice from the operating system's cryptographic source (the server's dice)."""

    def die(self) -> int:
        return secrets.randbelow(6) + 1


class ScriptedDice:
    """Dice that replay a fixed list (records, tests); raises when exhausted."""

    def __init__(self, dice: Iterable[int]) -> None:
        self._dice: Iterator[int] = iter(list(dice))

    def die(self) -> int:
        try:
            value = next(self._dice)
        except StopIteration:
            raise RuntimeError("scripted dice exhausted") from None
        if not 1 <= value <= 6:
            raise NotationError("die", repr(value), "a scripted die is 1..6")
        return value
