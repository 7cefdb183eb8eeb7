"""Abluka's text forms (RULES.md 8.2): squares, turns and the FEN-like position.

A position is ranks 7 down to 1 joined by ``/``; in a rank ``B`` and ``W`` are the
pieces, ``x`` a blocker and a digit 1-7 a run of empty squares; then a space and the
side to move, ``b`` or ``w``. Start: ``3W3/7/7/7/7/7/3B3 b``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.core.digits import is_digits
from tavla.core.errors import NotationError
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.abluka.board import BIT, SIZE, parse_square

SIDE_LETTERS = {"w": WHITE, "b": BLACK}


@dataclass(frozen=True, slots=True)
class Placement:
    """What a position text says: the two pieces, the blockers and the side to move."""

    white: int
    black: int
    blockers: int
    side: int


def format_position(white: int, black: int, blockers: int, side: int) -> str:
    ranks = []
    for rank in range(SIZE - 1, -1, -1):
        text = ""
        run = 0
        for file in range(SIZE):
            square = rank * SIZE + file
            if square == white:
                mark = "W"
            elif square == black:
                mark = "B"
            elif blockers & BIT[square]:
                mark = "x"
            else:
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += mark
        if run:
            text += str(run)
        ranks.append(text)
    return "/".join(ranks) + " " + ("w" if side == WHITE else "b")


def _parse_rank(text: str, rank: int, found: dict[str, list[int]]) -> None:
    field = f"rank {rank + 1}"
    file = 0
    previous_digit = False
    for char in text:
        if is_digits(char):
            run = int(char)
            if run < 1 or run > SIZE or previous_digit:
                raise NotationError(field, text, "empty runs are one digit 1-7, never two in a row")
            file += run
            previous_digit = True
            continue
        previous_digit = False
        if char not in "WBx":
            raise NotationError(field, text, f"unexpected {char!r}: use W, B, x or a digit 1-7")
        if file >= SIZE:
            raise NotationError(field, text, f"more than {SIZE} squares")
        found[char].append(rank * SIZE + file)
        file += 1
    if file != SIZE:
        raise NotationError(field, text, f"{file} squares, expected {SIZE}")


def parse_position(text: str) -> Placement:
    """Read a position; raises NotationError naming the wrong field."""
    fields = text.strip().split(" ")
    if len(fields) != 2:
        raise NotationError("position", text, "expected '<ranks> <side>', e.g. 3W3/7/7/7/7/7/3B3 b")
    board, side_text = fields
    if side_text not in SIDE_LETTERS:
        raise NotationError("side", side_text, "expected b or w")
    ranks = board.split("/")
    if len(ranks) != SIZE:
        raise NotationError("ranks", board, f"{len(ranks)} ranks, expected {SIZE} joined by '/'")
    found: dict[str, list[int]] = {"W": [], "B": [], "x": []}
    for index, rank_text in enumerate(ranks):
        _parse_rank(rank_text, SIZE - 1 - index, found)
    for mark, name in (("W", "White"), ("B", "Black")):
        if len(found[mark]) != 1:
            raise NotationError("pieces", board, f"{len(found[mark])} {name} pieces ({mark}), expected 1")
    blockers = 0
    for square in found["x"]:
        blockers |= BIT[square]
    return Placement(found["W"][0], found["B"][0], blockers, SIDE_LETTERS[side_text])


def parse_turn_text(text: str) -> tuple[int, int]:
    """The squares of a turn ``<to>/<block>`` such as ``d2/e5``; raises NotationError."""
    parts = text.strip().split("/")
    if len(parts) != 2:
        raise NotationError("turn", text, "expected <to>/<block>, e.g. d2/e5")
    return parse_square(parts[0], "turn"), parse_square(parts[1], "turn")
