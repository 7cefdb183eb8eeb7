"""The random match player (tavla.match.players): its resignation choices and how
``play`` carries a choice out (RULES.md 1.5, 8.3)."""

from __future__ import annotations

import random

import pytest
from tests.match.match_helpers import new_match

from tavla.match.players import Choice, RandomPlayer, play, play_random_match

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


def test_a_random_choice_of_a_move_carries_its_turn() -> None:
    """The random player hands over the turn object it drew, which play() trusts."""
    match = new_match(length=5)
    match.roll((5, 2))
    choice = RandomPlayer(random.Random(1)).choose(match.state)
    assert choice.kind == "move" and choice.turn is not None
    assert choice.turn.text == choice.value
    assert choice.turn in match.state.position.legal_turns()


def test_a_random_match_that_runs_past_its_actions_says_so() -> None:
    match = new_match(length=5)
    players = (RandomPlayer(random.Random(1)), RandomPlayer(random.Random(2)))
    with pytest.raises(RuntimeError, match=r"^the match did not end within 3 actions$"):
        play_random_match(match, players, max_actions=3)
    # Three steps: the opening roll, the starter's move, the next roll.
    assert [action.kind for action in match.actions] == ["start", "roll", "move", "roll"]
