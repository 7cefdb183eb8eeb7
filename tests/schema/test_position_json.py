"""Position JSON of every game: it validates, round-trips, and holds what the TPN holds.

The information check rebuilds the notation from the JSON fields alone (points from
the runs, bar, off, dice, gulbara's extra fields; Abluka's kings and blockers) and
reads it back as a position equal to the one the JSON was made from.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.schema.playouts import playout

import tavla
from tavla.core.protocol import AnyPosition
from tavla.core.registry import find_game, game_names
from tavla.rules.abluka.board import BIT, parse_square
from tavla.rules.abluka.position import AblukaPosition
from tavla.rules.indiyka.position import IndiykaPosition
from tavla.schema import DicePositionJson, GridPositionJson, PositionJson, position_json

LETTERS = {"white": "w", "black": "b"}
OPTIONS: dict[str, list[dict[str, object]]] = {
    "tapa": [{"mother_pin_wins": True}],
    "gulbara": [{"progressive_from_roll": 1}],
}


def tpn_from_json(data: dict[str, Any]) -> str:
    """A TPN written from the JSON fields only."""
    head = find_game(data["game"]).with_options(**data["options"]).head
    points = []
    for index, point in enumerate(data["points"]):
        assert point["point"] == index + 1
        runs = point["checkers"]
        points.append("".join(f"{run['count']}{LETTERS[run['colour']]}" for run in runs) or "-")
    bar = data["bar"] or {"white": 0, "black": 0}
    fields = [
        head,
        "/".join(points),
        f"{bar['white']},{bar['black']}",
        f"{data['off']['white']},{data['off']['black']}",
        LETTERS[data["to_act"]],
        "".join(str(die) for die in data["dice"]) if data["dice"] else "-",
    ]
    if data["completing"]:
        fields.append("c=" + "".join(str(die) for die in data["completing"]))
    if data["rolls"]:
        fields.append(f"r={data['rolls']['white']},{data['rolls']['black']}")
    return " ".join(fields)


def abluka_from_json(data: dict[str, Any]) -> AnyPosition:
    blockers = 0
    for square in data["blockers"]:
        blockers |= BIT[parse_square(square)]
    side = 0 if data["to_act"] == "white" else 1
    kings = data["kings"]
    return AblukaPosition(parse_square(kings["white"]), parse_square(kings["black"]), blockers, side)


def check_position(position: AnyPosition) -> PositionJson:
    model = position_json(position)
    assert PositionJson.model_validate(model.model_dump()) == model
    assert PositionJson.model_validate_json(model.model_dump_json()) == model
    data = model.model_dump(mode="json")
    outcome = position.outcome()
    if outcome is None:
        assert data["outcome"] is None
    else:
        winner = None if outcome.winner is None else ("white", "black")[outcome.winner]
        assert data["outcome"] == {"winner": winner, "points": outcome.points, "reason": outcome.reason}
    assert data["to_act"] == ("white", "black")[position.to_act]
    if isinstance(model.root, DicePositionJson):
        assert data["tpn"] == position.notation()
        rebuilt = tpn_from_json(data)
        assert rebuilt == position.notation()
        assert find_game(data["game"]).from_notation(rebuilt) == position
        assert data["chance"] == position.is_chance
    else:
        assert isinstance(model.root, GridPositionJson)
        assert abluka_from_json(data) == position
    return model


@pytest.mark.parametrize("game", game_names())
def test_random_playouts_validate_round_trip_and_keep_the_position(game: str) -> None:
    options: list[dict[str, object]] = [{}, *OPTIONS.get(game, [])]
    seen = 0
    for settings in options:
        for seed in range(3):
            for position in playout(game, seed, limit=120, **settings):
                check_position(position)
                seen += 1
    assert seen > 50


def test_tapa_pins_read_bottom_to_top() -> None:
    position = tavla.from_notation(
        "tapa 13b/-/-/-/-/1b1w/-/-/-/-/-/-/-/-/-/-/-/-/1w1b/-/-/-/-/13w 0,0 0,0 w 31"
    )
    data = check_position(position).model_dump(mode="json")
    point = data["points"][5]
    assert point["owner"] == "white"
    assert point["checkers"] == [
        {"colour": "black", "count": 1, "pinned": True},
        {"colour": "white", "count": 1, "pinned": False},
    ]
    assert data["points"][18]["owner"] == "black"
    assert data["bar"] is None
    assert data["options"] == {"mother_pin_wins": False}


def test_tabla_counts_pips_bar_and_dice() -> None:
    data = check_position(tavla.find_game("tabla").start().with_roll((3, 1))).model_dump(mode="json")
    assert data["pips"] == {"white": 167, "black": 167}
    assert data["bar"] == {"white": 0, "black": 0}
    assert data["dice"] == [3, 1] and not data["chance"]
    assert data["not_entered"] == {"white": 0, "black": 0}
    hit = tavla.from_notation("tabla 1b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,1 0,0 w -")
    data = check_position(hit).model_dump(mode="json")
    assert data["bar"] == {"white": 0, "black": 1}
    assert data["pips"]["black"] == 167 - 24 + 25


def test_gulbara_completion_and_rolls() -> None:
    text = "gulbara -/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 b - c=556666 r=3,2"
    data = check_position(tavla.from_notation(text)).model_dump(mode="json")
    assert data["completing"] == [5, 5, 6, 6, 6, 6]
    assert data["rolls"] == {"white": 3, "black": 2}
    assert data["direction"] == "same"
    assert data["pips"] == {"white": 15 * 24, "black": 15 * 24}


def test_indiyka_counts_checkers_not_yet_entered() -> None:
    entering = 0
    for position in playout("indiyka", 5):
        assert isinstance(position, IndiykaPosition)
        data = position_json(position).model_dump(mode="json")
        waiting = {"white": position.waiting(0), "black": position.waiting(1)}
        assert data["not_entered"] == waiting
        assert data["pips"] is None and data["bar"] is None
        entering += waiting["white"] > 0
    assert entering > 3


def test_abluka_kings_and_blockers_are_squares() -> None:
    position = tavla.from_notation("xWx4/xxx4/7/7/7/7/3B3 w")
    data = check_position(position).model_dump(mode="json")
    assert data["board"] == "grid"
    assert data["kings"] == {"white": "b7", "black": "d1"}
    assert data["blockers"] == ["a6", "b6", "c6", "a7", "c7"]
    assert data["outcome"] == {"winner": "black", "points": 1, "reason": "no move"}
    assert data["notation"] == position.notation()
