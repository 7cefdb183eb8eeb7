"""The random legal player of the dice games (docs/engine-protocol.md, hello and move)."""

from __future__ import annotations

import random

import pytest

from tavla.core.registry import all_games, find_game
from tavla.engine.random_dice import RandomDiceEngine
from tavla.engine.registry import EngineError

DICE_GAMES = [d.name for d in all_games() if d.facts.has_dice]


def test_it_serves_every_dice_game() -> None:
    assert sorted(RandomDiceEngine.games) == sorted(DICE_GAMES)
    assert len(DICE_GAMES) == 6


@pytest.mark.parametrize("game", DICE_GAMES)
def test_every_move_is_legal_and_its_after_is_the_position_it_leads_to(game: str) -> None:
    engine = RandomDiceEngine(seed=7)
    rng = random.Random(game)
    position = find_game(game).start().with_side(0)
    for _ in range(40):
        if position.outcome() is not None:
            break
        position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
        reply = engine.move(position, "easy", None)
        after = position.play(reply["move"])  # raises for an illegal turn
        assert reply["after"] == after.notation()
        position = after


def test_a_progressive_double_too_long_to_list_is_built_step_by_step() -> None:
    position = find_game("chelebi").start().with_side(0).with_roll((1, 1))
    reply = RandomDiceEngine(seed=1).move(position, "max", 100)
    assert position.play(reply["move"]).notation() == reply["after"]


def test_it_varies_its_choice_and_never_doubles() -> None:
    position = find_game("tabla").start().with_side(0).with_roll((3, 1))
    engine = RandomDiceEngine(seed=3)
    assert len({engine.move(position, "easy", None)["move"] for _ in range(30)}) > 1
    assert engine.double(position, None, "easy") is False
    assert engine.take(position, None, "easy") == "take"


def test_it_refuses_unrolled_dice_and_unknown_levels() -> None:
    engine = RandomDiceEngine()
    with pytest.raises(EngineError, match="not rolled"):
        engine.move(find_game("tapa").start(), "easy", None)
    with pytest.raises(EngineError, match="level"):
        engine.move(find_game("tapa").start().with_roll((3, 1)), "godlike", None)
