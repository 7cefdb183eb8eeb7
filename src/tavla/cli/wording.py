"""Counts and figures in what the commands print and write: "1 game", "2 games"."""

from __future__ import annotations

import math


def counted(number: int, noun: str) -> str:
    """``number`` and ``noun``, the noun with an "s" unless the number is one (the nouns
    counted are regular ones)."""
    return f"{number} {noun if number == 1 else noun + 's'}"


def rounded(value: float, places: int) -> float | None:
    """A figure rounded for a file's description, or None where there is none: a held-out
    error is not a number when the rows were too few to hold any out (JSON has no NaN)."""
    return None if math.isnan(value) else round(value, places)
