"""The Abluka board as bitboards (RULES.md 8.1).

Square ``s`` is bit ``s`` of a 49-bit integer, ``s = 7 * rank + file`` with ``a1 = 0``,
``g1 = 6`` and ``g7 = 48``. Blockers, pieces and empty squares are all such masks, so
"which neighbours are free" is one ``&`` and a flood fill is a few shifts per step.
"""

from __future__ import annotations

from collections.abc import Iterator

from tavla.core.errors import NotationError

SIZE = 7
SQUARES = SIZE * SIZE
FULL = (1 << SQUARES) - 1
FILES = "abcdefg"

BIT: tuple[int, ...] = tuple(1 << square for square in range(SQUARES))

_FILE_A = sum(BIT[rank * SIZE] for rank in range(SIZE))
_FILE_G = sum(BIT[rank * SIZE + SIZE - 1] for rank in range(SIZE))
_NOT_FILE_A = FULL & ~_FILE_A
_NOT_FILE_G = FULL & ~_FILE_G
NOT_FILE_A = _NOT_FILE_A
"""Every square but file a: ``(mask << 1) & NOT_FILE_A`` shifts a mask one file right."""
NOT_FILE_G = _NOT_FILE_G
"""Every square but file g: ``(mask >> 1) & NOT_FILE_G`` shifts a mask one file left."""


def grow(mask: int) -> int:
    """``mask`` and every square next to it (orthogonally or diagonally)."""
    row = mask | ((mask << 1) & _NOT_FILE_A) | ((mask >> 1) & _NOT_FILE_G)
    return (row | (row << SIZE) | (row >> SIZE)) & FULL


def _neighbours(square: int) -> int:
    return grow(BIT[square]) & ~BIT[square]


#: NEIGHBOURS[s]: the up to 8 squares next to ``s``.
NEIGHBOURS: tuple[int, ...] = tuple(_neighbours(square) for square in range(SQUARES))


def squares_of(mask: int) -> Iterator[int]:
    """The squares set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


#: NEIGHBOUR_LISTS[s]: the squares next to ``s`` as a tuple, lowest first.
NEIGHBOUR_LISTS: tuple[tuple[int, ...], ...] = tuple(tuple(squares_of(m)) for m in NEIGHBOURS)


def square_name(square: int) -> str:
    return f"{FILES[square % SIZE]}{square // SIZE + 1}"


SQUARE_NAMES: tuple[str, ...] = tuple(square_name(square) for square in range(SQUARES))
_SQUARE_BY_NAME = {name: square for square, name in enumerate(SQUARE_NAMES)}


def parse_square(text: str, field: str = "square") -> int:
    """The square named ``text`` (``a1``..``g7``); raises NotationError."""
    square = _SQUARE_BY_NAME.get(text.strip().lower())
    if square is None:
        raise NotationError(field, text, "expected a square a1..g7")
    return square


def reachable(start: int, free: int) -> int:
    """Every square of ``free`` connected to the squares of ``start`` through ``free``."""
    seen = start
    not_a, not_g, full = _NOT_FILE_A, _NOT_FILE_G, FULL
    while True:
        row = seen | ((seen << 1) & not_a) | ((seen >> 1) & not_g)
        more = ((row | (row << 7) | (row >> 7)) & full & free) | seen
        if more == seen:
            return seen & free
        seen = more
