"""Rule options travel with every position, game and match (RULES.md 1.2, 5, 6.2).

For every game with options and every value other than the default: the TPN names
the options (``tapa(mother_pin_wins=true) ...``) and reads back to the same rules,
game and match records replay under them, and positions, definitions and records
pickle.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest

import tavla
from tavla.core.definition import GameDefinition
from tavla.core.dice import SeededDice
from tavla.core.game import Game, GameRecord
from tavla.match import Match, MatchRecord, MatchSettings
from tavla.match.players import RandomPlayer, play_random_match
from tavla.match.record import replay

CHANGED = [
    ("tapa", {"mother_pin_wins": True}, "tapa(mother_pin_wins=true)"),
    ("gulbara", {"progressive_from_roll": 1}, "gulbara(progressive_from_roll=1)"),
    ("gulbara", {"progressive_from_roll": 2}, "gulbara(progressive_from_roll=2)"),
]


def played(definition: GameDefinition, seed: int, actions: int = 60) -> Game:
    game = Game(definition.start(), opening=True)
    rng = random.Random(seed)
    dice = SeededDice(seed)
    for _ in range(actions):
        if game.is_over:
            break
        if game.is_chance:
            game.roll(source=dice)
        else:
            builder = game.position.steps()
            while not builder.complete:
                builder.step(rng.choice(list(builder.legal_steps())))
            game.play(builder.commit())
    return game


@pytest.mark.parametrize(("name", "options", "head"), CHANGED)
def test_tpn_names_the_options_and_reads_them_back(name: str, options: dict[str, Any], head: str) -> None:
    definition = tavla.find_game(name).with_options(**options)
    assert definition.head == head
    game = played(definition, seed=7)
    for action_position in (definition.start(), game.position):
        text = action_position.notation()
        assert text.split(" ")[0] == head
        again = tavla.from_notation(text)
        assert again == action_position
        assert again.definition is definition
        assert again.notation() == text
    default_text = tavla.find_game(name).start().notation()
    assert default_text.split(" ")[0] == name
    assert tavla.from_notation(default_text) != definition.start()


@pytest.mark.parametrize(("name", "options", "head"), CHANGED)
def test_game_records_replay_under_the_options(name: str, options: dict[str, Any], head: str) -> None:
    game = tavla.new_game(name, **options)
    definition = game.position.definition
    assert definition.changed_options() == options
    replayed = Game.replay(GameRecord.from_json(played(definition, seed=3).record().to_json()))
    assert replayed.position.definition is definition
    assert replayed.position == played(definition, seed=3).position


@pytest.mark.parametrize(("name", "options", "head"), CHANGED)
def test_match_records_replay_under_the_options(name: str, options: dict[str, Any], head: str) -> None:
    settings = MatchSettings(name, length=3, options=tuple(options.items()))
    assert settings.definition.changed_options() == options
    match = Match(settings, dice=SeededDice(11), now=lambda: 0)
    play_random_match(match, (RandomPlayer(random.Random(1)), RandomPlayer(random.Random(2))))
    assert match.state.over
    record = MatchRecord.from_json(MatchRecord.of(match).to_json())
    assert record.settings.options == tuple(options.items())
    final = replay(record)
    assert final.position == match.state.position
    assert final.position.definition is settings.definition


@pytest.mark.parametrize(("name", "options", "head"), CHANGED)
def test_positions_definitions_and_records_pickle(name: str, options: dict[str, Any], head: str) -> None:
    definition = tavla.find_game(name).with_options(**options)
    game = played(definition, seed=5)
    for value in (definition, game.position, game.record(), definition.start()):
        assert pickle.loads(pickle.dumps(value)) == value
    assert pickle.loads(pickle.dumps(definition)) is definition


@pytest.mark.parametrize("name", tavla.game_names())
def test_every_game_pickles_and_has_its_definition(name: str) -> None:
    definition = tavla.find_game(name)
    start = definition.start()
    assert start.definition is definition
    assert pickle.loads(pickle.dumps(start)) == start
    assert definition.position_class.game == name
    assert definition.facts.title


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("indiyka", {"x": 1}, "indiyka has no rule options"),
        ("gulbara", {"progressive_from_roll": "2"}, "expected a whole number"),
        ("gulbara", {"progressive_from_roll": 5}, "expected 1 to 4"),
        ("gulbara", {"progressive_from_roll": True}, "expected a whole number"),
        ("tapa", {"mother_pin_wins": "yes"}, "expected true or false"),
        ("tapa", {"mother_pin_wins": 1}, "expected true or false"),
        ("tapa", {"no_such_rule": True}, "unknown option; tapa's options: mother_pin_wins"),
    ],
)
def test_bad_options_are_refused_naming_the_option(
    name: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(tavla.OptionError, match=message) as error:
        tavla.new_game(name, **options)  # type: ignore[arg-type]  # bad values, on purpose
    assert error.value.field == next(iter(options))
    with pytest.raises(tavla.TavlaError):
        MatchSettings(name, options=tuple(options.items()))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "head",
    [
        "tapa(mother_pin_wins=yes)",
        "tapa(mother_pin_wins=true",
        "tapa(mother_pin_wins=true,mother_pin_wins=false)",
        "tapa()",
        "tabla(x=1)",
        "gulbara(progressive_from_roll=9)",
        "gulbara(progressive_from_roll=²)",
    ],
)
def test_bad_options_in_a_tpn_are_a_notation_error(head: str) -> None:
    name = head.partition("(")[0]
    text = tavla.find_game(name).start().notation()
    with pytest.raises(tavla.NotationError) as error:
        tavla.from_notation(head + text[len(name) :])
    assert error.value.field == "game"


def test_default_options_written_out_are_read_and_left_out() -> None:
    text = tavla.find_game("tapa").start().notation()
    spelled = "tapa(mother_pin_wins=false)" + text[len("tapa") :]
    assert tavla.from_notation(spelled).notation() == text


def test_definitions_are_interned_and_options_typed() -> None:
    tapa = tavla.find_game("plakoto")
    greek = tapa.with_options(mother_pin_wins=True)
    assert greek is tapa.with_options(mother_pin_wins=True)
    assert greek.defaults is tapa
    assert greek.with_options(mother_pin_wins=False) is tapa
    assert dataclasses.is_dataclass(greek.options)
    assert greek.option_values() == {"mother_pin_wins": True}


@pytest.mark.parametrize("name", ["tabla", "tapa", "gulbara", "abluka"])
def test_a_game_record_replays_as_a_one_game_match(name: str) -> None:
    """One record format: a single game from the start is a one-game match without cube."""
    game = played(tavla.find_game(name), seed=9, actions=40)
    as_match = MatchRecord.of_game(GameRecord.from_json(game.record().to_json()))
    assert replay(as_match).position == game.position
    assert MatchRecord.from_json(as_match.to_json()) == as_match
