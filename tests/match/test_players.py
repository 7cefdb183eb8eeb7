"""The random match player (tavla.match.players): its resignation choices and how
``play`` carries a choice out (RULES.md 1.5, 8.3)."""

from __future__ import annotations

import random

import pytest
from tests.match.match_helpers import new_match

from tavla.match.players import Choice, RandomPlayer, play

pytestmark = pytest.mark.timeout(60)

W, B = 0, 1


def test_a_resignation_without_dice_is_offered_as_a_single() -> None:
    """RULES.md 8.3: Abluka has no gammons; a random player resigns it as a single, and
    the match takes the offer."""
    match = new_match(game="abluka", sets=3)
    player = RandomPlayer(random.Random(0), resign_rate=1.0)
    choice = player.choose(match.state)
    assert choice == Choice("resign", "single")
    seat = match.state.actor
    play(match, choice)
    assert match.state.phase == "resign"
    assert match.state.resign is not None and (match.state.resign.by, match.state.resign.points) == (seat, 1)


def test_a_resignation_with_dice_names_one_of_the_three_levels() -> None:
    """RULES.md 1.5: single, gammon or backgammon; over many draws each of them."""
    match = new_match(length=5)
    match.roll((5, 2))
    levels = {RandomPlayer(random.Random(seed), resign_rate=1.0).choose(match.state) for seed in range(40)}
    assert levels == {Choice("resign", level) for level in ("single", "gammon", "backgammon")}


def test_a_move_choice_plays_the_turn_it_carries() -> None:
    """A move chosen as a turn object is played as that object, not read again from
    its text (cheap for long progressive turns built step by step)."""
    match = new_match(length=5)
    match.roll((5, 2))
    turn = match.state.position.parse_turn("13/8 13/11")
    play(match, Choice("move", "the text is not read", turn))
    assert match.actions[-1].value == turn.text
    assert match.state.position == turn.after
