"""Match and game records: every malformed record is a NotationError naming the field,
and ``tavla replay`` reports it in one line with exit status 2 (RULES.md 9.4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.errors.cli_run import assert_one_line_refusal, tavla
from tests.errors.records import SETTINGS, match_record, played_game_record, played_match_record

from tavla.core.errors import NotationError, TavlaError
from tavla.core.game import Game, GameRecord
from tavla.match.record import MatchRecord, replay

GOOD_ACTION = {"k": "roll", "t": 0, "v": "31"}


def settings_with(**changes: Any) -> dict[str, Any]:
    return {**SETTINGS, **changes}


BAD_MATCH_RECORDS: list[tuple[str, str]] = [
    ("[]", "match record"),
    ("", "match record"),
    ("1e400", "match record"),
    ("[" * 1000, "match record"),
    ('{"a": NaN}', "match record"),
    ("9" * 5000, "match record"),
    (match_record(settings=1), "settings"),
    (match_record(settings=[]), "settings"),
    (match_record(actions=["x"]), "actions[0]"),
    (match_record(actions=[GOOD_ACTION, 7]), "actions[1]"),
    (match_record(actions={"k": "roll"}), "actions"),
    (match_record(actions=[{"t": 0}]), "actions[0].k"),
    (match_record(actions=[{"k": 5, "t": 0}]), "actions[0].k"),
    (match_record(actions=[{"k": "fly", "t": 0}]), "actions[0].k"),
    (match_record(actions=[{"k": "roll"}]), "actions[0].t"),
    (match_record(actions=[{"k": "roll", "t": "0"}]), "actions[0].t"),
    (match_record(actions=[{"k": "roll", "t": 1.5}]), "actions[0].t"),
    (match_record(actions=[{"k": "roll", "t": 0, "s": 2}]), "actions[0].s"),
    (match_record(actions=[{"k": "roll", "t": 0, "s": True}]), "actions[0].s"),
    (match_record(actions=[{"k": "roll", "t": 0, "v": 31}]), "actions[0].v"),
    (match_record(settings=settings_with(length="3")), "settings.length"),
    (match_record(settings=settings_with(length=1.0)), "settings.length"),
    (match_record(settings=settings_with(length=-1)), "settings.length"),
    (match_record(settings=settings_with(cube="yes")), "settings.cube"),
    (match_record(settings=settings_with(sets=None)), "settings.sets"),
    (match_record(settings=settings_with(game=["tabla"])), "settings.game"),
    (match_record(settings=settings_with(names="ab")), "settings.names"),
    (match_record(settings=settings_with(names=["a"])), "settings.names"),
    (match_record(settings=settings_with(names=["a", 2])), "settings.names"),
    (match_record(settings=settings_with(clock=3)), "settings.clock"),
    (match_record(settings=settings_with(clock={"move_ms": 1})), "settings.clock.reserve_ms"),
    (match_record(setup=[]), "setup"),
    (match_record(setup={"position_id": 1, "match_id": "x"}), "setup.position_id"),
    (match_record(final={"position_id": "x"}), "final.match_id"),
    (match_record(version="1"), "match record.version"),
    (match_record(version=True), "match record.version"),
    (match_record(format=None), "match record.format"),
]


@pytest.mark.parametrize(("text", "field"), BAD_MATCH_RECORDS)
def test_a_malformed_match_record_is_a_notation_error_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(NotationError) as raised:
        MatchRecord.from_json(text)
    assert raised.value.field == field


def test_the_field_settings_is_required() -> None:
    data = json.loads(match_record())
    del data["settings"]
    with pytest.raises(NotationError) as raised:
        MatchRecord.from_json(json.dumps(data))
    assert raised.value.field == "match record.settings"


@pytest.mark.parametrize("dice", ["²²", "٣١", "71", "3", "311", ""])
def test_a_roll_value_that_is_not_two_ascii_dice_is_refused_in_the_replay(dice: str) -> None:
    # Only the replay reads the value; the record's structure is sound.
    record = MatchRecord.from_json(match_record(actions=[{"k": "roll", "t": 0, "v": dice}]))
    with pytest.raises(NotationError) as raised:
        replay(record)
    assert raised.value.field == "dice" and raised.value.value == dice


def test_a_played_match_record_is_still_read_and_replayed() -> None:
    text = played_match_record()
    assert replay(MatchRecord.from_json(text)).over


BAD_GAME_RECORDS: list[tuple[str, str]] = [
    ("[]", "game record"),
    ("1e400", "game record"),
    ("[" * 1000, "game record"),
    ('{"game": "tabla", "actions": []}', "game record.start"),
    ('{"game": 1, "start": "x", "opening": true, "actions": []}', "game"),
    ('{"game": "tabla", "start": "x", "opening": 1, "actions": []}', "opening"),
    ('{"game": "tabla", "start": "x", "opening": true, "actions": 3}', "actions"),
    ('{"game": "tabla", "start": "x", "opening": true, "actions": ["x"]}', "actions[0]"),
    ('{"game": "tabla", "start": "x", "opening": true, "actions": [["roll"]]}', "actions[0]"),
    ('{"game": "tabla", "start": "x", "opening": true, "actions": [["roll", 31]]}', "actions[0]"),
    ('{"game": "tabla", "start": "x", "opening": true, "actions": [["jump", "31"]]}', "actions[0]"),
    ('{"game": "tabla", "start": "x", "opening": true, "actions": [], "options": []}', "options"),
]


@pytest.mark.parametrize(("text", "field"), BAD_GAME_RECORDS)
def test_a_malformed_game_record_is_a_notation_error_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(NotationError) as raised:
        GameRecord.from_json(text)
    assert raised.value.field == field


@pytest.mark.parametrize(
    ("kind", "dice"), [("opening", "²1"), ("roll", "²²"), ("roll", "٣١"), ("roll", "70")]
)
def test_game_record_roll_values_must_be_ascii_dice(kind: str, dice: str) -> None:
    start = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w -"
    actions = [["opening", "31"], ["turn", "8/5 6/5"]] if kind == "roll" else []
    data = {"game": "tabla", "start": start, "opening": True, "actions": [*actions, [kind, dice]]}
    record = GameRecord.from_json(json.dumps(data))
    with pytest.raises(NotationError) as raised:
        Game.replay(record)
    assert (raised.value.field, raised.value.value) == ("roll", dice)  # an opening is a roll


def test_a_played_game_record_round_trips() -> None:
    text = played_game_record()
    game = Game.replay(GameRecord.from_json(text))
    assert game.record().to_json() == text


@pytest.mark.parametrize(("text", "field"), BAD_MATCH_RECORDS[:12])
def test_tavla_replay_reports_a_malformed_record_in_one_line(tmp_path: Path, text: str, field: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(text)
    assert_one_line_refusal(tavla("replay", str(path)), field)


def test_tavla_replay_reports_a_bad_roll_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(match_record(actions=[{"k": "roll", "t": 0, "v": "²²"}]))
    assert_one_line_refusal(tavla("replay", str(path)), "²²")


def test_every_refusal_is_a_tavla_error() -> None:
    for text, _ in BAD_MATCH_RECORDS:
        with pytest.raises(TavlaError):
            MatchRecord.from_json(text)
