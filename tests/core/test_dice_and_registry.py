"""The chance node's rolls, dice sources and the game registry."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

import tavla
from tavla.core.dice import ROLLS, CryptoDice, ScriptedDice, SeededDice, roll
from tavla.core.errors import UnknownGameError
from tavla.core.opening import OPENING_ROLLS


def test_the_21_rolls_and_their_probabilities() -> None:
    assert len(ROLLS) == 21
    assert sum(p for _, p in ROLLS) == 1
    assert dict(ROLLS)[(6, 6)] == Fraction(1, 36)
    assert dict(ROLLS)[(6, 5)] == Fraction(1, 18)


def test_opening_rolls_exclude_doubles() -> None:
    """RULES.md 1.4: equal opening dice are rolled again."""
    assert len(OPENING_ROLLS) == 30
    assert sum(p for _, p in OPENING_ROLLS) == 1
    assert all(a != b for (a, b), _ in OPENING_ROLLS)


def test_seeded_dice_repeat_and_cover_all_faces() -> None:
    one, two = SeededDice(7), SeededDice(7)
    assert [one.die() for _ in range(50)] == [two.die() for _ in range(50)]
    source = SeededDice(7)
    counts = Counter(source.die() for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(800 < n < 1200 for n in counts.values())


def test_crypto_dice_in_range() -> None:
    source = CryptoDice()
    assert {source.die() for _ in range(500)} == {1, 2, 3, 4, 5, 6}


def test_scripted_dice_replay_then_stop() -> None:
    source = ScriptedDice([3, 1])
    assert roll(source) == (3, 1)
    with pytest.raises(RuntimeError):
        source.die()
    with pytest.raises(ValueError):
        ScriptedDice([7]).die()


def test_unknown_game_names_the_value_and_the_choices() -> None:
    with pytest.raises(UnknownGameError, match="'shogi'") as info:
        tavla.find_game("shogi")
    assert "tabla" in str(info.value)
