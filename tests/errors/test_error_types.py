"""Every refusal of bad input is a TavlaError naming the field and the value."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tavla
from tavla.core.errors import NotationError, TavlaError, WrongPhaseError

SOURCE = Path(__file__).resolve().parents[2] / "src" / "tavla"
DICE_GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka")


def test_tavla_error_is_a_value_error() -> None:
    assert issubclass(TavlaError, ValueError)
    assert issubclass(NotationError, TavlaError)


def test_no_assert_statement_steers_the_library() -> None:
    # `python -O` drops asserts: a check that matters must be an explicit raise.
    found = [
        f"{path.relative_to(SOURCE)}:{node.lineno}"
        for path in sorted(SOURCE.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Assert)
    ]
    assert found == []


@pytest.mark.parametrize("game", DICE_GAMES)
@pytest.mark.parametrize("roll", [(7, 1), (0, 3), (3, 0), (1, 2, 3), (6,)])
def test_a_roll_that_is_not_two_dice_is_a_notation_error_naming_the_dice(
    game: str, roll: tuple[int, ...]
) -> None:
    # RULES.md 1.2: the dice are two digits 1-6; a wrong value is bad input, not a wrong phase.
    start = tavla.find_game(game).start()
    with pytest.raises(NotationError) as raised:
        start.with_roll(roll)  # type: ignore[arg-type]  # dice of the wrong shape, on purpose
    assert raised.value.field == "dice"
    assert raised.value.value == repr(roll)
    assert not isinstance(raised.value, WrongPhaseError)


def test_bad_dice_are_named_even_when_no_roll_is_due() -> None:
    rolled = tavla.find_game("tabla").start().with_roll((3, 1))
    with pytest.raises(NotationError, match=r"\(7, 1\)"):
        rolled.with_roll((7, 1))
    with pytest.raises(WrongPhaseError):
        rolled.with_roll((2, 2))


def test_game_roll_refuses_dice_out_of_range_as_notation() -> None:
    game = tavla.new_game("tabla")
    with pytest.raises(NotationError, match="dice"):
        game.roll((7, 1))  # at the opening roll (RULES.md 1.4)
    assert game.awaiting_opening and game.actions == []
    with pytest.raises(WrongPhaseError):
        game.roll((3, 3))  # equal opening dice: rolled again, not bad notation


def test_scripted_dice_out_of_range_are_refused_as_tavla_errors() -> None:
    with pytest.raises(NotationError, match="die '7'"):
        tavla.ScriptedDice([7]).die()
