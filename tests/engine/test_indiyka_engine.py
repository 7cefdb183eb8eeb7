"""Indiyka's engine through the protocol: the one legal turn, cube from exact chances
(RULES.md 7; the cube of RULES.md 9.2, 9.3)."""

from __future__ import annotations

from typing import Any

import pytest

from tavla.bots.cube import CubeOwner, MatchScore
from tavla.bots.cube.request import cube_context, doubler_of
from tavla.bots.indiyka_exact import cube_decision
from tavla.core.dice import ScriptedDice
from tavla.engine.registry import engine_for
from tavla.engine.server import EngineServer
from tavla.match.match import Match
from tavla.match.settings import MatchSettings
from tavla.rules.indiyka import IndiykaPosition
from tavla.schema import match_state_json

START = "indiyka -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- 0,0 0,0 w -"
# White has two checkers left; Black has all fifteen on the board.
AHEAD = "indiyka -/-/-/-/1w/1w/-/-/-/-/-/-/-/-/-/-/-/-/3b/2b/2b/2b/2b/2b 0,0 13,2 w -"


@pytest.fixture
def server() -> EngineServer:
    return EngineServer()


def ask(server: EngineServer, **request: Any) -> dict[str, Any]:
    reply = server.handle(request)
    assert "error" not in reply, reply
    return reply


def test_indiyka_has_its_exact_engine() -> None:
    assert type(engine_for("indiyka")).__name__ == "IndiykaEngine"
    assert type(engine_for("tabla")).__name__ == "DiceEngine"


def test_move_is_the_legal_turn(server: EngineServer) -> None:
    """RULES.md 7: the dice leave one turn; the reply carries it and the position after."""
    position = IndiykaPosition.from_notation(START[:-1] + "31")
    reply = ask(server, cmd="move", position=position.notation(), level="beginner")
    (turn,) = position.legal_turns()
    assert reply["move"] == turn.text and reply["after"] == turn.after.notation()
    assert -1 < reply["equity"] < 1


def test_money_cube(server: EngineServer) -> None:
    """No double at the start; far ahead a double, which the opponent drops; far
    behind with beavers allowed, a double is beavered (RULES.md 9.2)."""
    assert ask(server, cmd="double", position=START)["double"] is False
    assert ask(server, cmd="double", position=AHEAD)["double"] is True
    taker = AHEAD.replace(" w -", " b -")  # the protocol shows the taker to act
    assert ask(server, cmd="take", position=taker)["take"] == "drop"
    assert ask(server, cmd="take", position=START.replace(" w -", " b -"))["take"] == "take"
    # White to answer: Black doubled from far behind, and White beavers.
    reply = ask(server, cmd="take", position=AHEAD, match={"length": 0, "beavers": True})
    assert reply["take"] == "beaver"


def test_protocol_match_form() -> None:
    """docs/engine-protocol.md's match: length, score White first, cube, owner, crawford."""
    match = {"length": 5, "score": [4, 1], "cube": 1, "owner": None, "crawford": True}
    assert cube_context(match, doubler=1).play == MatchScore(4, 1, crawford_game=True)
    later = {"length": 5, "score": [4, 2], "cube": 2, "owner": "w", "crawford": False}
    after = cube_context(later, doubler=1)
    assert after.cube.owner == CubeOwner.OPPONENT and after.play == MatchScore(3, 1, post_crawford=True)
    position = IndiykaPosition.from_notation(AHEAD)
    assert doubler_of(position, match, answering=False) == 0
    assert doubler_of(position, match, answering=True) == 1
    with pytest.raises(Exception, match="cannot be read"):
        cube_context({"length": 5, "score": [5, 1]}, doubler=0)


def test_server_match_state_form() -> None:
    """The server passes its match state (docs/json.md); a pending offer names the doubler."""
    match = Match(MatchSettings("indiyka", length=3), dice=ScriptedDice([6, 1, 3, 1]), now=lambda: 0)
    match.roll()  # the opening roll: White starts with 6-1
    state = match_state_json(match.state, 0).model_dump(mode="json", by_alias=True)
    context = cube_context(state, doubler=0)
    assert context.play == MatchScore(3, 3)
    position = match.state.position
    assert isinstance(position, IndiykaPosition)
    assert doubler_of(position, state, answering=False) == position.side
    offered = dict(state, cube=dict(state["cube"], offer={"kind": "double", "by": 1}))
    assert doubler_of(position, offered, answering=True) == 1
    assert cube_decision(IndiykaPosition.start(), context).may_double


def test_engine_plays_a_whole_match_with_the_cube() -> None:
    """The engine as the server drives it (its match state, RULES.md 9.1-9.3): an
    indiyka match to 5 ends with every action accepted; cubes were offered and answered."""
    from tavla.core.dice import SeededDice
    from tavla.match.actions import double_error
    from tavla.match.state import Phase

    engine = engine_for("indiyka")
    match = Match(MatchSettings("indiyka", length=5), dice=SeededDice(12), now=lambda: 0)
    answers: list[str] = []
    while not match.state.over:
        state = match.state
        seat = state.actor
        view = match_state_json(state, 0).model_dump(mode="json", by_alias=True)
        if state.phase in (Phase.BETWEEN,):
            match.start_next_game()
        elif state.phase in (Phase.OPENING, Phase.RACCOON):
            match.roll()
        elif state.phase == Phase.ROLL:
            assert seat is not None
            if double_error(state, seat) is None and engine.double(state.position, view, "hard"):
                match.double(seat)
            else:
                match.roll()
        elif state.phase == Phase.DOUBLE:
            assert seat is not None
            answer = engine.take(state.position, view, "hard")
            answers.append(answer)
            match.act(answer, seat)
        else:
            assert state.phase == Phase.MOVE and seat is not None
            match.move(seat, engine.move(state.position, "hard", None)["move"])
    assert answers and set(answers) <= {"take", "drop"}
    assert max(match.state.score) >= 5
