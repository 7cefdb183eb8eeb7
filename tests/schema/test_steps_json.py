"""Steps JSON: after some random steps it lists exactly the builder's legal steps, each
with the places a client highlights, and the dice still to play."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.schema.playouts import playout

import tavla
from tavla.core.protocol import AnyPosition
from tavla.core.registry import game_names
from tavla.rules.abluka.board import NEIGHBOURS, parse_square
from tavla.schema import StepsJson, position_json, steps_json


def decisions(game: str, seeds: range) -> list[AnyPosition]:
    return [
        position
        for seed in seeds
        for position in playout(game, seed, limit=60)
        if not position.is_chance and position.outcome() is None
    ]


def check_start_places(position: AnyPosition, step: dict[str, Any]) -> None:
    """Before any step, a legal step leaves a place that holds a piece of the mover."""
    board = position_json(position).model_dump(mode="json")
    mover = board["to_act"]
    if board["board"] == "grid":
        assert step["from"] == board["kings"][mover]
        assert NEIGHBOURS[parse_square(step["from"])] >> parse_square(step["to"]) & 1
        return
    source = step["from"]
    if source == "bar":
        assert board["bar"][mover] > 0
    elif source == "in":
        assert board["not_entered"][mover] > 0
    else:
        assert board["points"][source - 1]["owner"] == mover
    target = step["to"]
    assert target == "off" or 1 <= target <= 24


@pytest.mark.parametrize("game", game_names())
def test_steps_json_lists_the_builders_legal_steps(game: str) -> None:
    rng = random.Random(game)
    checked = 0
    for position in decisions(game, range(2)):
        builder = position.steps()
        first = steps_json(builder)
        for step in first.model_dump(mode="json")["legal"]:
            check_start_places(position, step)
        if position.dice is not None:
            dice = sorted(position.dice, reverse=True)
            expected = dice * 2 if dice[0] == dice[1] else dice
            # A progressive double goes on with higher numbers after the first four.
            assert sorted(first.dice_left[: len(expected)], reverse=True) == expected or first.complete
        while True:
            model = steps_json(builder)
            assert StepsJson.model_validate(model.model_dump()) == model
            assert StepsJson.model_validate_json(model.model_dump_json()) == model
            assert [step.text for step in model.legal] == list(builder.legal_steps())
            assert model.played == list(builder.played)
            assert model.complete == builder.complete
            assert model.game == game
            checked += 1
            if builder.complete:
                assert model.legal == [] and model.dice_left == []
                break
            # Every listed step is accepted by the builder.
            for step in model.legal:
                builder.step(step.text)
                builder.undo()
            builder.step(rng.choice(model.legal).text)
        assert builder.commit().after == position.play(builder.commit())
    assert checked > 20


def test_dice_left_shrink_as_steps_are_played() -> None:
    position = tavla.from_notation(
        "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 44"
    )
    builder = position.steps()
    assert steps_json(builder).dice_left == [4, 4, 4, 4]
    builder.step("13/9")
    builder.step("13/9")
    model = steps_json(builder)
    assert model.dice_left == [4, 4]
    assert model.played == ["13/9", "13/9"]
    assert {"from": 13, "to": 9} in [{"from": s.from_, "to": s.to} for s in model.legal]


def test_black_steps_and_hits_are_in_whites_numbering() -> None:
    position = tavla.from_notation(
        "tabla 1b/-/1w/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/1w 0,1 0,0 b 31"
    )
    data = steps_json(position.steps()).model_dump(mode="json")
    steps = {step["text"]: step for step in data["legal"]}
    assert steps["bar/22*"] == {"text": "bar/22*", "piece": "checker", "from": "bar", "to": 3, "hit": True}


def test_abluka_king_then_blocker() -> None:
    builder = tavla.find_game("abluka").start().steps()
    first = steps_json(builder)
    assert {step.piece for step in first.legal} == {"king"}
    builder.step("d2")
    second = steps_json(builder)
    assert {step.piece for step in second.legal} == {"blocker"}
    assert all(step.from_ is None for step in second.legal)
    assert "d1" in [step.to for step in second.legal] and "d2" not in [step.to for step in second.legal]
    builder.step("d1")
    assert steps_json(builder).complete and steps_json(builder).legal == []
