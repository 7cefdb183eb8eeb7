"""The chance node's rolls, dice sources, the game registry and game definitions
(rule options and the first field of a TPN)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from typing import cast

import pytest

import tavla
from tavla.core.definition import GameOptions, check_option_value
from tavla.core.dice import ROLLS, CryptoDice, ScriptedDice, SeededDice, roll
from tavla.core.errors import NotationError, OptionError, UnknownGameError
from tavla.core.opening import OPENING_ROLLS
from tavla.rules.gulbara.position import GulbaraOptions


def test_the_21_rolls_and_their_probabilities() -> None:
    assert len(ROLLS) == 21
    assert sum(p for _, p in ROLLS) == 1
    assert dict(ROLLS)[(6, 6)] == Fraction(1, 36)
    assert dict(ROLLS)[(6, 5)] == Fraction(1, 18)


def test_opening_rolls_exclude_doubles() -> None:
    """RULES.md 1.4: equal opening dice are rolled again."""
    assert len(OPENING_ROLLS) == 30
    assert sum(p for _, p in OPENING_ROLLS) == 1
    assert all(a != b for (a, b), _ in OPENING_ROLLS)


def test_seeded_dice_repeat_and_cover_all_faces() -> None:
    one, two = SeededDice(7), SeededDice(7)
    assert [one.die() for _ in range(50)] == [two.die() for _ in range(50)]
    source = SeededDice(7)
    counts = Counter(source.die() for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(800 < n < 1200 for n in counts.values())


def test_crypto_dice_in_range() -> None:
    source = CryptoDice()
    assert {source.die() for _ in range(500)} == {1, 2, 3, 4, 5, 6}


def test_scripted_dice_replay_then_stop() -> None:
    source = ScriptedDice([3, 1])
    assert roll(source) == (3, 1)
    with pytest.raises(RuntimeError):
        source.die()
    with pytest.raises(ValueError):
        ScriptedDice([7]).die()


def test_unknown_game_names_the_value_and_the_choices() -> None:
    with pytest.raises(UnknownGameError, match="'shogi'") as info:
        tavla.find_game("shogi")
    assert "tabla" in str(info.value)


def test_a_scripted_die_out_of_range_names_the_die_and_the_range() -> None:
    with pytest.raises(NotationError) as raised:
        ScriptedDice([0]).die()
    assert (raised.value.field, raised.value.value, raised.value.reason) == (
        "die",
        "0",
        "a scripted die is 1..6",
    )


def test_options_declared_with_types_rather_than_their_names_are_understood() -> None:
    """A GameOptions subclass written without ``from __future__ import annotations``
    keeps the types themselves in its fields, not their names."""
    fields = [
        ("flag", bool, dataclasses.field(default=False)),
        ("count", int, dataclasses.field(default=1, metadata={"min": 1, "max": 3})),
    ]
    plain = cast(
        type[GameOptions], dataclasses.make_dataclass("Plain", fields, bases=(GameOptions,), frozen=True)
    )
    assert all(isinstance(field.type, type) for field in dataclasses.fields(plain))
    check_option_value("plain", plain, "flag", True)
    check_option_value("plain", plain, "count", 3)
    with pytest.raises(OptionError, match="expected true or false"):
        check_option_value("plain", plain, "flag", 1)
    with pytest.raises(OptionError, match="expected a whole number"):
        check_option_value("plain", plain, "count", True)


def test_an_option_of_the_wrong_type_is_refused_naming_the_game() -> None:
    with pytest.raises(OptionError) as raised:
        tavla.new_game("gulbara", progressive_from_roll="2")
    error = raised.value
    assert (error.game, error.field, error.value, error.reason) == (
        "gulbara",
        "progressive_from_roll",
        "2",
        "expected a whole number",
    )
    assert str(error) == "gulbara option progressive_from_roll='2': expected a whole number"


def test_the_upper_bound_of_an_option_is_allowed() -> None:
    gulbara = tavla.find_game("gulbara")
    check_option_value("gulbara", GulbaraOptions, "progressive_from_roll", 4)
    assert gulbara.with_options(progressive_from_roll=4) is gulbara
    with pytest.raises(OptionError, match="expected 1 to 4"):
        check_option_value("gulbara", GulbaraOptions, "progressive_from_roll", 5)


def test_an_unknown_option_written_as_text_names_the_game_and_its_options() -> None:
    with pytest.raises(OptionError) as raised:
        tavla.find_game("tapa").read_options({"nope": "1"})
    assert str(raised.value) == "tapa option nope='1': unknown option; tapa's options: mother_pin_wins"
    assert raised.value.game == "tapa"


def test_an_option_value_that_is_not_a_number_in_a_tpn_is_a_notation_error() -> None:
    gulbara = tavla.find_game("gulbara")
    text = "gulbara(progressive_from_roll=x)" + gulbara.start().notation()[len("gulbara") :]
    with pytest.raises(NotationError) as raised:
        tavla.from_notation(text)
    error = raised.value
    assert (error.field, error.value) == ("game", "gulbara(progressive_from_roll=x)")
    assert error.reason == "gulbara option progressive_from_roll='x': expected a whole number"


def test_options_written_wrongly_in_a_tpn_say_how_to_write_them() -> None:
    text = "tapa()" + tavla.find_game("tapa").start().notation()[len("tapa") :]
    with pytest.raises(NotationError) as raised:
        tavla.from_notation(text)
    error = raised.value
    assert (error.field, error.value, error.reason) == (
        "game",
        "tapa()",
        "options are written name(key=value,key=value)",
    )


def test_a_position_under_other_options_is_refused_naming_the_options_expected() -> None:
    gulbara = tavla.find_game("gulbara")
    first, second = (gulbara.with_options(progressive_from_roll=roll) for roll in (1, 2))
    with pytest.raises(NotationError) as raised:
        first.from_notation(second.start().notation())
    error = raised.value
    assert (error.field, error.value, error.reason) == (
        "game",
        "gulbara(progressive_from_roll=2)",
        "expected gulbara(progressive_from_roll=1)",
    )


def test_a_head_naming_another_game_is_refused_naming_the_game_expected() -> None:
    tapa = tavla.find_game("tapa")
    assert tapa.read_head("tapa(mother_pin_wins=true)") is tapa.with_options(mother_pin_wins=True)
    with pytest.raises(NotationError) as raised:
        tapa.read_head("tabla(x=1)")
    error = raised.value
    assert (error.field, error.value, error.reason) == ("game", "tabla(x=1)", "expected tapa")


def test_a_game_under_options_is_one_definition_however_it_is_reached() -> None:
    """Definitions are interned: positions compare their games by identity."""
    gulbara = tavla.find_game("gulbara")
    third = gulbara.with_options(progressive_from_roll=3)
    assert gulbara.with_options(progressive_from_roll=3) is third
    assert gulbara.with_option_values(GulbaraOptions(progressive_from_roll=3)) is third
    assert gulbara.read_head("gulbara(progressive_from_roll=3)") is third


def test_a_position_is_not_put_under_another_games_rules() -> None:
    position = tavla.find_game("tabla").start()
    with pytest.raises(OptionError) as raised:
        position.with_rules(tavla.find_game("antitabla"))
    error = raised.value
    assert (error.game, error.field, error.value, error.reason) == (
        "antitabla",
        "game",
        "tabla",
        "another game",
    )
