"""Abluka notation (RULES.md 8.2): exact round-trips and clear errors."""

from __future__ import annotations

import random

import pytest

import tavla
from tavla.core.errors import NotationError
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


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("3W3/7/7/7/7/7/3B3", "position"),
        ("3W3/7/7/7/7/7/3B3 x", "side"),
        ("3W3/7/7/7/7/3B3 b", "ranks"),
        ("3W3/7/7/7/7/7/3B4 b", "rank 1"),
        ("3W3/7/7/7/7/7/3B2 b", "rank 1"),
        ("3W3/7/7/7/7/7/3Bo2 b", "rank 1"),
        ("3W3/7/7/7/7/7/34 b", "rank 1"),  # two runs in a row are not the canonical form
        ("3W3/7/7/7/7/7/7 b", "pieces"),
        ("3W3/3W3/7/7/7/7/3B3 b", "pieces"),
        ("3W3/7/7/7/7/7/3B3  b", "position"),
    ],
)
def test_bad_text_names_the_field(text: str, field: str) -> None:
    with pytest.raises(NotationError) as caught:
        AblukaPosition.from_notation(text)
    assert caught.value.field == field
