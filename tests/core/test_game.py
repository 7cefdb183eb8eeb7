"""The mutable Game: opening roll, wrong-phase errors, undo and records."""

from __future__ import annotations

import json

import pytest

import tavla
from tavla.core.errors import IllegalMoveError, NotationError, WrongPhaseError
from tavla.core.game import Action, Game, GameRecord
from tavla.core.protocol import BLACK, WHITE
from tavla.match import MatchRecord
from tavla.rules.backgammon import BackgammonPosition


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
