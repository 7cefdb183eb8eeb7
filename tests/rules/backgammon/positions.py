"""Build tabla-family TPN from the players' own numbering, for hand-made tests."""

from __future__ import annotations

import tavla
from tavla.rules.backgammon.position import BackgammonPosition


def parse(text: str) -> BackgammonPosition:
    """``tavla.from_notation`` of a tabla-family TPN, typed as the family's position."""
    position = tavla.from_notation(text)
    assert isinstance(position, BackgammonPosition)
    return position


def tpn(
    white: dict[int, int],
    black: dict[int, int],
    *,
    game: str = "tabla",
    bar: tuple[int, int] = (0, 0),
    side: str = "w",
    dice: str = "-",
) -> str:
    """``white`` and ``black`` map each player's own point numbers to checker counts;
    whatever is neither on a point nor on the bar is off."""
    fields = ["-"] * 24
    for point, count in white.items():
        fields[point - 1] = f"{count}w"
    for point, count in black.items():
        index = 24 - point  # Black's point p is White's 25 - p
        if fields[index] != "-":
            raise ValueError(f"White and Black both on White's point {25 - point}")
        fields[index] = f"{count}b"
    off = (15 - sum(white.values()) - bar[0], 15 - sum(black.values()) - bar[1])
    return f"{game} {'/'.join(fields)} {bar[0]},{bar[1]} {off[0]},{off[1]} {side} {dice}"
