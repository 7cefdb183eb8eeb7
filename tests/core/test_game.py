"""The mutable Game: opening roll, wrong-phase errors, undo and records, and the
reading of records (their JSON, their numbers) refusing bad input field by field."""

from __future__ import annotations

import json

import pytest

import tavla
from tavla.core.digits import parse_natural
from tavla.core.errors import IllegalMoveError, NotationError, OptionError, WrongPhaseError
from tavla.core.game import Action, Game, GameRecord
from tavla.core.jsonread import MAX_DEPTH, SHOWN, load_json, want_bool, want_int
from tavla.core.protocol import BLACK, WHITE
from tavla.core.record import RecordKind, read_envelope
from tavla.match import MatchRecord
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.gulbara.position import GulbaraOptions


def test_opening_roll_decides_who_starts_and_plays_both_numbers() -> None:
    """RULES.md 1.4: the higher die starts and plays the two numbers rolled."""
    game = tavla.new_game("tabla")
    assert game.awaiting_opening
    game.roll((2, 5))  # White 2, Black 5
    assert isinstance(game.position, BackgammonPosition)
    assert game.position.side == BLACK
    assert game.position.dice == (5, 2)
    assert game.actions == [Action("roll", "25")]  # the opening roll: nobody's, White's die first
    game.undo()
    assert game.awaiting_opening
    game.roll((6, 1))
    assert isinstance(game.position, BackgammonPosition)
    assert game.position.side == WHITE


def test_opening_roll_rejects_equal_dice_and_rerolls_from_a_source() -> None:
    game = tavla.new_game("tabla")
    with pytest.raises(WrongPhaseError):
        game.roll((3, 3))
    assert game.awaiting_opening and game.actions == []
    game.roll(source=tavla.ScriptedDice([4, 4, 2, 6]))
    assert isinstance(game.position, BackgammonPosition)
    assert game.position.side == BLACK and game.position.dice == (6, 2)


def test_wrong_phase_and_illegal_moves_leave_the_game_unchanged() -> None:
    game = tavla.new_game("tabla", opening=False)
    before = game.position
    with pytest.raises(WrongPhaseError):
        game.play("24/18")
    game.roll((3, 1))
    rolled = game.position
    with pytest.raises(WrongPhaseError):
        game.roll((2, 2))
    with pytest.raises(IllegalMoveError, match="24/18"):
        game.play("24/18")  # a 6 with 3-1
    with pytest.raises(IllegalMoveError):
        game.play("banana")
    assert game.position == rolled
    assert len(game.actions) == 1
    game.play("8/5 6/5")
    game.undo()
    game.undo()
    assert game.position == before


def test_record_round_trip_and_bad_records() -> None:
    game = tavla.new_game("tabla")
    game.roll((3, 1))
    game.play("8/5 6/5")
    record = GameRecord.from_json(game.record().to_json())
    assert Game.replay(record).position == game.position
    with pytest.raises(NotationError):
        GameRecord.from_json("{not json")
    bad = GameRecord("tabla", record.start, True, [Action("roll", "31"), Action("move", "24/18")])
    with pytest.raises(IllegalMoveError):
        Game.replay(bad)
    forged = GameRecord(
        "tabla", record.start, True, [Action("roll", "31"), Action("move", "8/5 6/5", seat=1)]
    )
    with pytest.raises(NotationError, match=r"actions\[1\]\.s"):
        Game.replay(forged)


def test_one_record_format_for_games_and_matches_and_the_old_game_format() -> None:
    """A game record is the versioned format of match records, kind 'game'; the game
    records written before it are still read, and each kind is refused by the other."""
    game = tavla.new_game("tabla")
    game.roll((3, 1))
    game.play("8/5 6/5")
    data = json.loads(game.record().to_json())
    assert (data["format"], data["version"], data["kind"]) == ("tavla-record", 3, "game")
    assert data["actions"] == [
        {"k": "roll", "v": "31", "t": 0},
        {"k": "move", "s": 0, "v": "8/5 6/5", "t": 0},
    ]
    old = json.dumps(
        {
            "game": "tabla",
            "options": {},
            "start": data["start"],
            "opening": True,
            "actions": [["opening", "31"], ["turn", "8/5 6/5"]],
        }
    )
    assert Game.replay(GameRecord.from_json(old)).position == game.position
    with pytest.raises(NotationError, match="a match record"):
        GameRecord.from_json(json.dumps({**data, "kind": "match"}))
    with pytest.raises(NotationError, match="a single game's record"):
        MatchRecord.from_json(game.record().to_json())


def test_rule_options_travel_in_the_record() -> None:
    """RULES.md 1.2: options are not in the TPN, so the record carries them."""
    game = tavla.new_game("gulbara", progressive_from_roll=1)
    assert game.record().options == {"progressive_from_roll": 1}
    game.roll((5, 2))
    game.play(game.legal_turns()[0])
    game.roll((1, 1))  # a progressive double from the first roll under this option
    record = GameRecord.from_json(game.record().to_json())
    replayed = Game.replay(record)
    assert type(replayed.position) is type(game.position)
    assert replayed.position == game.position
    assert tavla.new_game("gulbara").record().options == {}
    with pytest.raises(tavla.TavlaError, match="no rule options"):
        tavla.new_game("tabla", cube=False)


def test_an_illegal_move_error_keeps_the_move_and_the_position() -> None:
    game = tavla.new_game("tabla", opening=False)
    game.roll((3, 1))
    with pytest.raises(IllegalMoveError) as raised:
        game.play("24/18")
    assert raised.value.move == "24/18"
    assert raised.value.position == game.position.notation()


def test_a_roll_after_the_opening_may_be_a_double_and_names_who_rolled() -> None:
    game = tavla.new_game("tabla", opening=False)
    assert game.roll(source=tavla.ScriptedDice([3, 3])) == (3, 3)
    assert game.actions == [Action("roll", "33", WHITE)]
    game.play(game.legal_turns()[0])
    game.roll((2, 1))
    assert game.actions[-1] == Action("roll", "21", BLACK)
    assert json.loads(game.record().to_json())["actions"][-1] == {"k": "roll", "s": BLACK, "v": "21", "t": 0}


def test_replay_plays_under_the_options_the_record_names() -> None:
    """The record's settings name the rules: a replayed game is played under them."""
    gulbara = tavla.find_game("gulbara")
    progressive = gulbara.with_options(progressive_from_roll=1)
    named = GameRecord("gulbara", gulbara.start().notation(), True, [], {"progressive_from_roll": 1})
    assert Game.replay(named).position.definition is progressive
    # A start naming options the settings leave out is played under the settings.
    unnamed = GameRecord("gulbara", progressive.start().notation(), True, [])
    assert Game.replay(unnamed).position.definition is gulbara


RECORD = {
    "format": "tavla-record",
    "version": 3,
    "kind": "game",
    "settings": {"game": "tabla", "options": {}},
    "start": tavla.find_game("tabla").start().notation(),
    "opening": True,
    "actions": [{"k": "roll", "v": "31", "t": 0}],
}
VERSION_0 = {"game": "tabla", "options": {}, "start": RECORD["start"], "opening": True, "actions": []}


def refusal(data: object) -> tuple[str, str, str]:
    """The field, value and reason of the NotationError that reading ``data`` raises."""
    with pytest.raises(NotationError) as raised:
        GameRecord.from_json(json.dumps(data))
    return raised.value.field, raised.value.value, raised.value.reason


def test_an_action_without_a_time_reads_as_time_0() -> None:
    assert Action.from_json({"k": "roll", "v": "31"}, "actions[0]") == Action("roll", "31")
    assert Action.from_json({"k": "move", "s": 1, "v": "8/5 6/5"}, "actions[1]") == Action(
        "move", "8/5 6/5", 1
    )
    record = GameRecord.from_json(json.dumps({**RECORD, "actions": [{"k": "roll", "v": "31"}]}))
    assert record.actions == [Action("roll", "31")]


@pytest.mark.parametrize(
    ("data", "refused"),
    [
        (
            {**RECORD, "kind": "match"},
            ("game record.kind", "match", "a match record: read it with tavla.match.MatchRecord"),
        ),
        (
            {**RECORD, "version": 2},
            ("game record.version", "2", "expected 3 (this program reads versions 0-3)"),
        ),
        ({**RECORD, "settings": []}, ("settings", "[]", "expected a JSON object")),
        ({**RECORD, "settings": "tabla"}, ("settings", '"tabla"', "expected a JSON object")),
        (
            {key: value for key, value in RECORD.items() if key != "opening"},
            ("game record.opening", "", "missing"),
        ),
        ({**VERSION_0, "actions": ["opening 31"]}, ("actions[0]", '"opening 31"', "expected a JSON array")),
        (
            {**VERSION_0, "actions": [["opening", "31", "x"]]},
            ("actions[0]", '["opening", "31", "x"]', "expected [kind, value]"),
        ),
        (
            {**VERSION_0, "actions": [["cube", "2"]]},
            ("actions[0]", "cube", "expected one of opening, roll, turn"),
        ),
        # A misspelt key would otherwise read as one left out (RULES.md 9.4).
        (
            {**RECORD, "opennig": False},
            (
                "game record.opennig",
                "false",
                "not a key here; expected format, version, kind, settings, start, opening, actions",
            ),
        ),
        (
            {**RECORD, "settings": {"game": "tabla", "option": {}}},
            ("settings.option", "{}", "not a key here; expected game, options"),
        ),
        (
            {**RECORD, "actions": [{"k": "roll", "v": "31", "seat": 1}]},
            ("actions[0].seat", "1", "not a key here; expected k, s, v, t"),
        ),
    ],
)
def test_a_bad_game_record_is_refused_naming_the_field_the_value_and_the_reason(
    data: dict[str, object], refused: tuple[str, str, str]
) -> None:
    assert refusal(data) == refused


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("1e400", ("game record", "1e400", "too large for a number")),
        ('{"a": [1, -1e999]}', ("game record", "-1e999", "too large for a number")),
        ('{"a": NaN}', ("game record", "NaN", "not JSON (NaN and Infinity are not numbers in JSON)")),
    ],
)
def test_numbers_json_does_not_have_are_refused_showing_the_number(
    text: str, refused: tuple[str, str, str]
) -> None:
    with pytest.raises(NotationError) as raised:
        GameRecord.from_json(text)
    assert (raised.value.field, raised.value.value, raised.value.reason) == refused


def test_json_nested_too_deeply_is_refused_whatever_lies_between_the_brackets() -> None:
    def nested(depth: int) -> str:
        return '[0, "]]", ' * depth + "0" + "]" * depth

    assert load_json(nested(MAX_DEPTH), "request") is not None
    with pytest.raises(NotationError) as raised:
        load_json(nested(MAX_DEPTH + 1), "request")
    assert (raised.value.field, raised.value.reason) == (
        "request",
        f"nested more than {MAX_DEPTH} levels deep",
    )
    assert raised.value.value == nested(MAX_DEPTH + 1)[:SHOWN]


def test_a_number_that_is_not_ascii_digits_is_refused_naming_the_field() -> None:
    assert parse_natural("12", "games") == 12
    with pytest.raises(NotationError) as raised:
        parse_natural("²", "games")
    assert (raised.value.field, raised.value.value, raised.value.reason) == (
        "games",
        "²",
        "expected a whole number such as 3",
    )
    with pytest.raises(NotationError) as raised:
        parse_natural("-1", "length", "expected a match length such as 5")
    assert (raised.value.field, raised.value.value, raised.value.reason) == (
        "length",
        "-1",
        "expected a match length such as 5",
    )


def test_an_actions_seat_is_0_or_1() -> None:
    assert Action.from_json({"k": "move", "s": 1, "v": "8/5 6/5"}, "actions[1]").seat == 1
    with pytest.raises(NotationError) as raised:
        Action.from_json({"k": "move", "s": 2, "v": "8/5 6/5"}, "actions[1]")
    assert (raised.value.field, raised.value.value, raised.value.reason) == (
        "actions[1].s",
        "2",
        "expected a whole number in 0..1",
    )


def test_brackets_closed_count_down_one_level_each() -> None:
    """Closed siblings do not add up: ``[[], [[...]]]`` is as deep as its deepest branch."""

    def beside_an_empty_list(depth: int) -> str:
        return "[[], " + "[" * depth + "0" + "]" * depth + "]"

    assert load_json(beside_an_empty_list(MAX_DEPTH - 1), "request") is not None
    with pytest.raises(NotationError, match="nested more than"):
        load_json(beside_an_empty_list(MAX_DEPTH), "request")


def test_bounds_and_kinds_of_json_values_are_named_in_the_refusal() -> None:
    with pytest.raises(NotationError) as raised:
        want_int(9, "cube", maximum=5)
    assert (raised.value.value, raised.value.reason) == ("9", "expected a whole number in ..5")
    with pytest.raises(NotationError) as raised:
        want_int(-1, "score", minimum=0)
    assert raised.value.reason == "expected a whole number in 0.."
    with pytest.raises(NotationError) as raised:
        want_bool("yes", "crawford")
    assert (raised.value.field, raised.value.value, raised.value.reason) == (
        "crawford",
        '"yes"',
        "expected true or false",
    )


def test_the_first_match_format_is_read_by_its_versions() -> None:
    assert read_envelope('{"format": "tavla-match", "version": 2}').kind is RecordKind.MATCH
    with pytest.raises(NotationError) as raised:
        read_envelope('{"format": "tavla-match", "version": 3}', "match")
    assert (raised.value.field, raised.value.value, raised.value.reason) == (
        "match.version",
        "3",
        "expected 1 or 2 for a tavla-match record",
    )


def test_options_of_another_game_are_refused_showing_them() -> None:
    tapa = tavla.find_game("tapa")
    foreign = GulbaraOptions()
    with pytest.raises(OptionError) as raised:
        tapa.with_option_values(foreign)
    assert (raised.value.field, raised.value.value) == ("options", foreign)
    assert raised.value.reason == f"expected {type(tapa.options).__name__}"
