"""Abluka notation (RULES.md 8.2): exact round-trips and clear errors."""

from __future__ import annotations

import random

import pytest

import tavla
from tavla.core.errors import NotationError
from tavla.core.protocol import BLACK
from tavla.rules.abluka import AblukaPosition


@pytest.mark.parametrize(
    "text",
    [
        "3W3/7/7/7/7/7/3B3 b",
        "xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/Wxx1xxx/1xxBxxx b",
        "W6/7/2x1x2/7/7/7/6B w",
        "6W/x5x/7/3x3/7/x5x/B6 w",
    ],
)
def test_round_trip(text: str) -> None:
    position = tavla.from_notation(text)
    assert isinstance(position, AblukaPosition)
    assert position.notation() == text
    assert AblukaPosition.from_notation(text) == position


def test_round_trip_over_random_games() -> None:
    rng = random.Random(7)
    for _ in range(5):
        position = AblukaPosition.start()
        while position.outcome() is None:
            assert AblukaPosition.from_notation(position.notation()) == position
            position = rng.choice(list(position.legal_turns())).after
        assert AblukaPosition.from_notation(position.notation()) == position


def test_square_names_and_ranks() -> None:
    """RULES.md 8.2: ranks 7 down to 1, files a-g; a1 is Black's left corner."""
    position = AblukaPosition.from_notation("6W/7/7/7/7/7/B5x b")
    assert (position.black, position.white) == (0, 48)
    assert position.blockers == 1 << 6  # g1


SHAPE = "expected '<ranks> <side>', e.g. 3W3/7/7/7/7/7/3B3 b"
RUNS = "empty runs are one digit 1-7, never two in a row"


@pytest.mark.parametrize(
    ("text", "field", "value", "reason"),
    [
        ("3W3/7/7/7/7/7/3B3", "position", "3W3/7/7/7/7/7/3B3", SHAPE),
        ("3W3/7/7/7/7/7/3B3 x", "side", "x", "expected b or w"),
        ("3W3/7/7/7/7/3B3 b", "ranks", "3W3/7/7/7/7/3B3", "6 ranks, expected 7 joined by '/'"),
        ("3W3/7/7/7/7/7/3B4 b", "rank 1", "3B4", "8 squares, expected 7"),
        ("3W3/7/7/7/7/7/7B b", "rank 1", "7B", "more than 7 squares"),
        ("3W3/7/7/7/7/7/3B2 b", "rank 1", "3B2", "6 squares, expected 7"),
        ("3W3/7/7/7/7/7/3Bo2 b", "rank 1", "3Bo2", "unexpected 'o': use W, B, x or a digit 1-7"),
        ("3W3/7/7/7/7/7/34 b", "rank 1", "34", RUNS),  # two runs in a row are not the canonical form
        ("3W3/7/7/7/7/7/8 b", "rank 1", "8", RUNS),
        ("3W3/7/7/7/7/7/7 b", "pieces", "3W3/7/7/7/7/7/7", "0 Black pieces (B), expected 1"),
        ("3W3/3W3/7/7/7/7/3B3 b", "pieces", "3W3/3W3/7/7/7/7/3B3", "2 White pieces (W), expected 1"),
        ("3W3/7/7/7/7/7/3B3  b", "position", "3W3/7/7/7/7/7/3B3  b", SHAPE),
    ],
)
def test_bad_text_names_the_field(text: str, field: str, value: str, reason: str) -> None:
    """RULES.md 8.2: a refused text names the field, the part that is wrong and why."""
    with pytest.raises(NotationError) as caught:
        AblukaPosition.from_notation(text)
    assert (caught.value.field, caught.value.value, caught.value.reason) == (field, value, reason)


@pytest.mark.parametrize(
    ("white", "black", "blockers", "field", "value", "reason"),
    [
        (3, 3, 0, "kings", "3,3", "the kings stand on two different squares a1..g7"),
        (49, 3, 0, "kings", "49,3", "the kings stand on two different squares a1..g7"),
        (45, 3, 1 << 3, "blockers", "0x8", "blockers lie on the board and never under a king"),
        (45, 3, 1 << 49, "blockers", "0x2000000000000", "blockers lie on the board and never under a king"),
    ],
)
def test_a_position_built_from_squares_is_checked_too(
    white: int, black: int, blockers: int, field: str, value: str, reason: str
) -> None:
    """RULES.md 8.1: two kings on two squares of the 7x7 board, blockers beside them."""
    with pytest.raises(NotationError) as caught:
        AblukaPosition(white, black, blockers, BLACK)
    assert (caught.value.field, caught.value.value, caught.value.reason) == (field, value, reason)
