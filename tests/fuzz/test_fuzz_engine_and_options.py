"""Fuzzing the engine's input line and the rule options of ``tavla.new_game``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from tests.fuzz.strategies import GAMES, json_values

import tavla
from tavla.core.errors import TavlaError
from tavla.engine.server import EngineServer, Quit

SERVER = EngineServer()


@st.composite
def requests(draw: st.DrawFn) -> str:
    """Requests with the protocol's keys and arbitrary values, except a real search."""
    request: dict[str, Any] = {
        "cmd": draw(st.one_of(st.sampled_from(("hello", "move", "double", "take", "bogus")), json_values)),
    }
    for key in ("id", "position", "level", "match", "movetime_ms"):
        if draw(st.booleans()):
            request[key] = draw(json_values)
    return json.dumps(request)


@given(st.one_of(requests(), json_values.map(json.dumps), st.text(max_size=60)))
@example("[" * 1000)
@example('{"cmd": "hello", "id": 1e400}')
def test_engine_line(line: str) -> None:
    try:
        reply = SERVER.reply_line(line)
    except Quit:
        return
    if reply is None:
        assert not line.strip()
        return
    answer = json.loads(reply, parse_constant=lambda name: pytest.fail(f"{name} in a reply"))
    assert isinstance(answer, dict) and "\n" not in reply


OPTION_NAMES = ("mother_pin_wins", "progressive_from_roll", "cube", "opening", "x", "")


@given(
    st.sampled_from((*GAMES, "abluka", "plakoto", "nope")),
    st.dictionaries(st.sampled_from(OPTION_NAMES[:-1]), json_values, max_size=3),
)
def test_rule_options(name: str, options: dict[str, Any]) -> None:
    options.pop("opening", None)  # new_game's own keyword, not a rule option
    try:
        game = tavla.new_game(name, **options)
    except TavlaError:
        return
    assert game.position.notation()
