"""One conformance suite over every registered game (ARCHITECTURE.md example 6).

Random playouts to the end; at every step: chance probabilities sum to 1, notation
round-trips exactly, turns are distinct by the position they produce, a turn played
die by die through the step interface is one of the legal turns, undo restores the
previous state, and the game record replays to the same position. A turn entered
die by die (in any order, with undos) has the text of the same turn listed, and no
step is offered twice.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.stepping import turn_by_steps

import tavla
from tavla.core.game import Game, GameRecord
from tavla.rules.turns import bounded_turns

MAX_ACTIONS = 3000
"""A playout that has not ended after this many actions fails."""


def check_notation(position: Any) -> None:
    text = position.notation()
    again = tavla.from_notation(text)
    assert again == position
    assert again.notation() == text


def play_out(name: str, seed: int) -> Game:
    rng = random.Random(seed)
    game = tavla.new_game(name)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        before = game.position
        if game.is_chance:
            outcomes = game.chance_outcomes()
            assert sum((p for _, p in outcomes), Fraction(0)) == 1
            rolls = [roll for roll, _ in outcomes]
            weights = [float(p) for _, p in outcomes]
            game.roll(rng.choices(rolls, weights)[0])
        else:
            check_notation(before)
            stepped = turn_by_steps(before, rng)
            turns = bounded_turns(before)
            # A progressive double can have millions of turns: past bounded_turns's limit
            # the turn made step by step is played (and read back from its text).
            if turns is None:
                check_notation(stepped.after)
                assert before.parse_turn(stepped.text).after == stepped.after
                game.play(stepped)
            else:
                assert turns, f"no legal turn in {before}"
                texts = {turn.after: turn.text for turn in turns}
                assert len(texts) == len(turns), "turns must be distinct by resulting position"
                assert len(set(texts.values())) == len(turns), "one text per turn"
                # One text per turn however it was entered (RULES.md 1.1).
                assert texts[stepped.after] == stepped.text
                assert before.parse_turn(stepped.text).after == stepped.after
                for turn in rng.sample(list(turns), min(3, len(turns))):
                    check_notation(turn.after)
                    assert before.parse_turn(turn.text).after == turn.after
                game.play(rng.choice(list(turns)))
        if rng.random() < 0.2:
            game.undo()
            assert game.position == before
            continue
    assert game.is_over, f"{name} did not end within {MAX_ACTIONS} actions"
    return game


@pytest.mark.parametrize("name", tavla.game_names())
@settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_playout(name: str, seed: int) -> None:
    game = play_out(name, seed)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.points in (0, 1, 2, 3)
    record = GameRecord.from_json(game.record().to_json())
    assert Game.replay(record).position == game.position


@pytest.mark.parametrize("name", tavla.game_names())
def test_start_position_is_consistent(name: str) -> None:
    start = tavla.find_game(name).start()
    check_notation(start)
    assert start.game == name
