"""Fuzzing the record readers: JSON game and match records and .mat import. Each input
is read, or refused with a TavlaError; what is read replays or is refused the same way,
and writes back to a record that reads as the same (RULES.md 9.4)."""

from __future__ import annotations

import json
from functools import cache

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tests.errors.records import played_game_record, played_match_record
from tests.fuzz.strategies import json_values, mutated, mutated_json

from tavla.core.errors import TavlaError
from tavla.core.game import Game, GameRecord
from tavla.match.mat import export_mat, import_mat
from tavla.match.record import MatchRecord, replay


@cache
def game_record() -> str:
    return played_game_record()


@cache
def match_record() -> str:
    return played_match_record()


@cache
def mat_text() -> str:
    return export_mat(MatchRecord.from_json(match_record()))


def any_json() -> st.SearchStrategy[str]:
    return json_values.map(json.dumps)


FUZZ = settings(suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(
    st.one_of(st.deferred(lambda: mutated_json(json.loads(game_record()))), any_json(), st.text(max_size=40))
)
@example("[" * 1000)
@example('{"game": "tabla", "start": 1e400, "opening": true, "actions": []}')
def test_game_records(text: str) -> None:
    try:
        record = GameRecord.from_json(text)
    except TavlaError:
        return
    assert GameRecord.from_json(record.to_json()) == record
    try:
        game = Game.replay(record)
    except TavlaError:
        return
    assert Game.replay(game.record()).position == game.position


@FUZZ
@given(
    st.one_of(st.deferred(lambda: mutated_json(json.loads(match_record()))), any_json(), st.text(max_size=40))
)
@example("[]")
@example('{"format": "tavla-match", "version": 1, "settings": 1, "actions": []}')
@example("[" * 1000)
def test_match_records(text: str) -> None:
    try:
        record = MatchRecord.from_json(text)
    except TavlaError:
        return
    again = MatchRecord.from_json(record.to_json())
    assert again == record
    try:
        state = replay(record)
    except TavlaError:
        return
    assert replay(again) == state


@FUZZ
@given(st.one_of(st.deferred(lambda: mutated(mat_text())), st.text(max_size=60)))
@example(" 1 point match\n\n Game 1\n White : 0   Black : 0\n  1) ²²: 24/18")
def test_mat_import(text: str) -> None:
    try:
        record = import_mat(text)
    except TavlaError:
        return
    # What was read exports and reads back to the same actions.
    assert import_mat(export_mat(record)).actions == record.actions
