"""TPN, the position notation of the dice games (RULES.md 1.2): reading and writing.

This module knows the shape shared by every dice game: the game name, 24 point
fields, bar, off, side, dice and ``key=value`` extras. Each game checks what its
own positions may hold (checker counts, stacks) on top of :func:`split_tpn`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tavla.core.dice import Roll
from tavla.core.digits import is_digits
from tavla.core.errors import NotationError
from tavla.core.protocol import SIDE_LETTERS

Stack = tuple[tuple[int, int], ...]
"""A point's checkers from bottom to top as runs of (count, player)."""

CHECKERS = 15
"""Each player's checkers in every dice game (RULES.md 1.1)."""
BOTH_FINISHED = "both players cannot have finished: the first to bear off all 15 ends the game"

_RUN = re.compile(r"([1-9][0-9]?)([wb])")


@dataclass(frozen=True)
class TpnFields:
    game: str
    """The first field: the game's name, followed by its options where they differ
    from the defaults (``tapa(mother_pin_wins=true)``); see :attr:`name`."""
    points: tuple[Stack, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    side: int
    dice: Roll | None
    extras: dict[str, str]

    @property
    def name(self) -> str:
        """The game's name without its options."""
        return self.game.partition("(")[0]


def parse_stack(text: str, index: int) -> Stack:
    """One point field: ``-``, ``5w``, ``1b2w`` ..."""
    field = f"point {index + 1}"
    if text == "-":
        return ()
    runs: list[tuple[int, int]] = []
    position = 0
    while position < len(text):
        match = _RUN.match(text, position)
        if match is None:
            raise NotationError(field, text, "expected '-' or runs such as 5w, 2b, 1b2w")
        count, colour = int(match.group(1)), SIDE_LETTERS.index(match.group(2))
        if runs and runs[-1][1] == colour:
            raise NotationError(field, text, "two runs of the same colour must be one run")
        runs.append((count, colour))
        position = match.end()
    return tuple(runs)


def format_stack(stack: Stack) -> str:
    if not stack:
        return "-"
    return "".join(f"{count}{SIDE_LETTERS[colour]}" for count, colour in stack)


def _pair(text: str, field: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(is_digits(part) and len(part) <= 2 for part in parts):
        raise NotationError(field, text, "expected two counts such as 0,0 (White,Black)")
    return int(parts[0]), int(parts[1])


def parse_dice(text: str) -> Roll | None:
    if text == "-":
        return None
    if len(text) != 2 or not all(ch in "123456" for ch in text):
        raise NotationError("dice", text, "expected two dice 1-6 such as 31 or 44, or '-'")
    return int(text[0]), int(text[1])


def format_dice(dice: Roll | None) -> str:
    return "-" if dice is None else f"{dice[0]}{dice[1]}"


def split_tpn(text: str, known_games: tuple[str, ...]) -> TpnFields:
    """Split a TPN line into its fields, checking only their syntax."""
    if text != text.strip() or "  " in text or "\t" in text or "\n" in text:
        raise NotationError("tpn", text, "fields must be separated by single spaces")
    fields = text.split(" ")
    if not fields or fields[0].partition("(")[0] not in known_games:
        raise NotationError("game", fields[0] if fields else "", f"expected one of {', '.join(known_games)}")
    if len(fields) < 6:
        raise NotationError(
            "tpn", text, "expected '<game> <points> <bar> <off> <side> <dice> [key=value ...]'"
        )
    game, points_text, bar_text, off_text, side_text, dice_text, *extra_fields = fields
    point_fields = points_text.split("/")
    if len(point_fields) != 24:
        raise NotationError(
            "points", points_text, f"expected 24 fields joined by '/', got {len(point_fields)}"
        )
    points = tuple(parse_stack(value, index) for index, value in enumerate(point_fields))
    if side_text not in SIDE_LETTERS:
        raise NotationError("side", side_text, "expected 'w' or 'b'")
    extras: dict[str, str] = {}
    for item in extra_fields:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise NotationError("extra field", item, "expected key=value")
        if key in extras:
            raise NotationError("extra field", item, "given twice")
        extras[key] = value
    off = _pair(off_text, "off")
    if min(off) >= CHECKERS:  # in every dice game the game ends when one player is done
        raise NotationError("off", off_text, BOTH_FINISHED)
    return TpnFields(
        game=game,
        points=points,
        bar=_pair(bar_text, "bar"),
        off=off,
        side=SIDE_LETTERS.index(side_text),
        dice=parse_dice(dice_text),
        extras=extras,
    )


def join_tpn(fields: TpnFields, extra_order: tuple[str, ...] = ()) -> str:
    parts = [
        fields.game,
        "/".join(format_stack(stack) for stack in fields.points),
        f"{fields.bar[0]},{fields.bar[1]}",
        f"{fields.off[0]},{fields.off[1]}",
        SIDE_LETTERS[fields.side],
        format_dice(fields.dice),
    ]
    parts.extend(f"{key}={fields.extras[key]}" for key in extra_order if key in fields.extras)
    return " ".join(parts)
