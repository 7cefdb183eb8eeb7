"""Positions are values: nothing they hand out can be changed by the holder."""

from __future__ import annotations

import dataclasses

import pytest

import tavla
from tavla.core.dice import SeededDice


def a_position_with_turns(name: str) -> tavla.AnyPosition:
    game = tavla.new_game(name)
    if game.is_chance:
        game.roll(source=SeededDice(3))
    return game.position


@pytest.mark.parametrize("name", tavla.game_names())
def test_turn_lists_and_turns_cannot_be_changed(name: str) -> None:
    position = a_position_with_turns(name)
    turns = position.legal_turns()
    assert isinstance(turns, tuple)
    turn = turns[0]
    for attribute in ("after", "text", "steps", "origin", "to", "block"):
        if hasattr(turn, attribute):
            with pytest.raises(AttributeError):
                setattr(turn, attribute, None)
    assert position.legal_turns() == turns


@pytest.mark.parametrize("name", tavla.game_names())
def test_positions_are_frozen(name: str) -> None:
    position = a_position_with_turns(name)
    field = dataclasses.fields(position)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(position, field, None)
