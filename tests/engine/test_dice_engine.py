"""The dice games' engine through the protocol (docs/engine-protocol.md): trained
networks at every level play legal turns (RULES.md 1.3) and answer the cube
(RULES.md 9.2) as the cube model says for the network's chances."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.dice_positions import dice_position, dice_start

import tavla
from tavla.bots.cube import double_decision, take_decision
from tavla.bots.cube.request import cube_context
from tavla.bots.network import Network
from tavla.bots.playout import random_playout
from tavla.engine.registry import LEVELS, engine_for
from tavla.engine.server import EngineServer

GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara")


def ask(**request: Any) -> dict[str, Any]:
    reply = EngineServer().handle(request)
    assert "error" not in reply, reply
    return reply


def midgame(game: str, seed: int) -> Any:
    """A position met after a few random turns, with a roll of two different dice
    (a progressive double would make the test slow, not stronger)."""
    rng = random.Random(seed)
    turns: list[Any] = []

    def keep(before: Any, after: Any) -> None:
        turns.append(after)

    random_playout(dice_start(game).with_side(0), rng, on_turn=keep)
    for position in turns[6:]:
        if position.outcome() is None and position.is_chance:
            return position.with_roll((5, 2))
    raise AssertionError("no position found")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_turn(game: str, level: str) -> None:
    position = midgame(game, seed=len(level))
    reply = ask(cmd="move", position=position.notation(), level=level, movetime_ms=1500)
    legal = {turn.text: turn.after.notation() for turn in position.legal_turns()}
    assert reply["move"] in legal
    assert reply["after"] == legal[reply["move"]]


def test_the_engines_by_game() -> None:
    for game in ("tabla", "chelebi", "tapa", "gulbara", "antitabla"):
        assert type(engine_for(game)).__name__ == "DiceEngine"


# White's last two checkers on his 1 and 2 points, Black's nine still to bear off
# (six already off: no gammon): White wins with any roll but 2-1 (two rolls of 36).
CERTAIN = "tabla 1w/1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/3b/3b/3b/-/-/- 0,0 13,6 w -"
START = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w -"


@pytest.mark.parametrize("text", [CERTAIN, START])
@pytest.mark.parametrize(
    "match",
    [None, {"length": 7, "score": [2, 4], "cube": 1, "owner": None, "crawford": False}],
)
def test_cube_answers_follow_the_model_on_the_network_chances(text: str, match: Any) -> None:
    position = dice_position(text)
    values = Network.shipped("tabla").chances(position, position.side)
    context = cube_context(match, position.side)
    decision = double_decision(values, context)
    doubles = ask(cmd="double", position=text, match=match)["double"]
    assert doubles == decision.action.value.startswith("double")
    answer = take_decision(values, context).answer.value
    taken = ask(cmd="take", position=position.with_side(1).notation(), match=match)["take"]
    assert taken == {"pass": "drop"}.get(answer, answer)


def test_a_sure_win_is_doubled_and_dropped() -> None:
    assert ask(cmd="double", position=CERTAIN)["double"] is True
    black_to_answer = tavla.from_notation(CERTAIN).with_side(1).notation()
    assert ask(cmd="take", position=black_to_answer)["take"] == "drop"
    assert ask(cmd="double", position=START)["double"] is False


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ({"cmd": "move", "position": START, "level": "grand"}, "level 'grand'"),
        ({"cmd": "move", "position": START}, "not rolled"),
        ({"cmd": "double", "position": START.replace(" -", " 31")}, "before rolling"),
    ],
)
def test_requests_the_engine_cannot_serve(request_: dict[str, Any], words: str) -> None:
    reply = EngineServer().handle(request_)
    assert words in reply["error"]


@pytest.mark.parametrize("game", ["tapa", "antitabla"])
def test_level_players_play_what_the_engine_plays(game: str) -> None:
    """``LevelPlayer`` (benchmarks, terminal games) and the engine are one bot; every
    game with shipped weights plays through its network (antitabla's included)."""
    from tavla.bots.levels import LevelPlayer

    position = midgame(game, seed=3)
    mine = LevelPlayer(game, "medium").choose(position)
    reply = ask(cmd="move", position=position.notation(), level="medium")
    assert mine.text == reply["move"]
    assert "equity" in reply  # the network's estimate: the heuristic gives none


def test_the_engine_reports_the_search_s_equity_to_six_places() -> None:
    from tavla.bots.levels import level_search

    position = midgame("tapa", seed=5)
    reply = ask(cmd="move", position=position.notation(), level="medium")
    choice = level_search("tapa", "medium").choose(position, None)
    assert reply["move"] == choice.turn.text and reply["depth"] == 0
    assert reply["equity"] == round(choice.equity, 6) != round(choice.equity)


def test_movetime_ms_bounds_the_lookahead() -> None:
    """Level ``max`` looks two rolls ahead within its default 8 s; given a millisecond
    it answers from a shallower look (the 0-ply choice is always made). Seed 10's
    position keeps more than one turn for the second roll of lookahead."""
    position = midgame("tapa", seed=10)
    deep = ask(cmd="move", position=position.notation(), level="max")
    quick = ask(cmd="move", position=position.notation(), level="max", movetime_ms=1)
    assert deep["depth"] == 2 and quick["depth"] < 2
    assert quick["nodes"] < deep["nodes"]
