"""Action JSON from clients: every kind is read into the match action it stands for, and
bad input is refused with a TavlaError that names the field."""

from __future__ import annotations

import json

import pytest

from tavla.core.errors import TavlaError
from tavla.match.actions import ActionKind, MatchAction
from tavla.match.match import Match
from tavla.match.settings import MatchSettings
from tavla.schema import ActionJson, ActionJsonError, match_action, parse_action
from tavla.schema.actions import BUILDER_KINDS, CLIENT_KINDS, MESSAGE_LIMIT, TEXT_LIMIT

VALUES = {"move": ("turn", "13/8 13/11"), "step": ("step", "13/8"), "resign": ("level", "gammon")}


def action_data(kind: str) -> dict[str, object]:
    data: dict[str, object] = {"kind": kind}
    if kind in VALUES:
        field, value = VALUES[kind]
        data[field] = value
    return data


@pytest.mark.parametrize("kind", CLIENT_KINDS)
def test_every_client_kind_is_read(kind: str) -> None:
    data = action_data(kind)
    for given in (data, json.dumps(data), json.dumps(data).encode()):
        action = parse_action(given)
        assert action.kind == kind
        assert ActionJson.model_validate_json(json.dumps(data)).root == action
    if kind in BUILDER_KINDS:
        with pytest.raises(ActionJsonError, match="step builder"):
            match_action(action, 0, 10)
        return
    value = VALUES[kind][1] if kind in VALUES else ""
    assert match_action(action, 1, 10) == MatchAction(ActionKind(kind), 1, value, 10)


def test_the_schema_names_every_client_kind() -> None:
    schema = json.dumps(ActionJson.model_json_schema())
    for kind in CLIENT_KINDS:
        assert f'"const": "{kind}"' in schema


def test_resign_defaults_to_a_single() -> None:
    assert match_action(parse_action({"kind": "resign"}), 0, 0).value == "single"


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"kind": "castle"}, "kind", "'castle' is not one of"),
        ({"kind": "start"}, "kind", "'start' is not one of"),
        ({"kind": "warn"}, "kind", "is not one of"),
        ({"kind": "absent", "seat": 1}, "kind", "'absent' is not one of"),
        ({"kind": "forfeit"}, "kind", "'forfeit' is not one of"),
        ({"kind": "void"}, "kind", "'void' is not one of"),
        ({"turn": "13/8"}, "kind", "missing"),
        ({"kind": 5}, "kind", "is not one of"),
        ({"kind": "move"}, "turn", "required"),
        ({"kind": "move", "turn": 1308}, "turn", "string"),
        ({"kind": "move", "turn": ""}, "turn", "at least 1"),
        ({"kind": "move", "turn": "13/8 " * TEXT_LIMIT}, "turn", f"at most {TEXT_LIMIT}"),
        ({"kind": "step", "step": ["13/8"]}, "step", "string"),
        ({"kind": "resign", "level": "triple"}, "level", "'single', 'gammon' or 'backgammon'"),
        ({"kind": "roll", "dice": [6, 6]}, "dice", "Extra inputs"),
        ({"kind": "double", "seat": 2}, "seat", "less than or equal to 1"),
        ({"kind": "take", "seat": 10**400}, "seat", "less than or equal to 1"),
        ({"kind": "take", "seat": -1}, "seat", "greater than or equal to 0"),
        ({"kind": "take", "seat": "1"}, "seat", "integer"),
        ({"kind": "take", "seat": True}, "seat", "integer"),
        ({"kind": "take", "seat": 1.5}, "seat", "integer"),
        ([{"kind": "roll"}], "action", "object"),
        ("{not json", "action", "Invalid JSON"),
        (b"\xff\xfe", "action", "UTF-8"),
        (10**400, "action", "object"),
        (float("nan"), "action", "not JSON"),
        (None, "action", "object"),
        (" " * MESSAGE_LIMIT + '{"kind": "roll"}', "action", f"at most {MESSAGE_LIMIT}"),
    ],
)
def test_bad_action_json_names_the_field(data: object, field: str, words: str) -> None:
    with pytest.raises(TavlaError) as caught:
        parse_action(data)
    error = caught.value
    assert isinstance(error, ActionJsonError)
    assert error.field == field
    assert words in str(error)
    assert len(str(error)) < 300  # a huge input is not echoed back


def test_a_seat_must_agree_with_the_connection() -> None:
    action = parse_action({"kind": "double", "seat": 1})
    with pytest.raises(ActionJsonError) as caught:
        match_action(action, 0, 0)
    assert caught.value.field == "seat"
    assert match_action(action, None, 0).seat == 1
    assert match_action(parse_action({"kind": "double"}), 0, 0).seat == 0


def test_read_actions_drive_a_match() -> None:
    match = Match(MatchSettings("tabla", length=3), now=lambda: 0)
    match.roll((3, 1))
    for text, seat in (('{"kind": "move", "turn": "8/5 6/5"}', 0), ('{"kind": "double"}', 1)):
        action = match_action(parse_action(text), seat, 0)
        match.act(action.kind, action.seat, action.value)
    assert match.state.phase == "double"
    assert match.actions[-2].value == "8/5 6/5"
