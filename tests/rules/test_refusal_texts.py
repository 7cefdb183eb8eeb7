"""The words of the rules layer's refusals, and values computed once at import.

A player who types a move wrong reads these messages (RULES.md 1.1, 1.3): each names
the field, the text and why. The last tests call, at test time, the functions whose
results the modules keep in constants when imported (start points, square names, a
game's facts), so that a slip in them cannot hide behind the import.
"""

from __future__ import annotations

import pytest

import tavla
from tavla.core.errors import IllegalMoveError, NotationError
from tavla.rules.abluka.board import SIZE, square_name
from tavla.rules.backgammon.position import BackgammonPosition, _start_points, tabla_family_facts
from tavla.rules.movetext import parse_move

pytestmark = pytest.mark.timeout(60)

UNREADABLE_MOVES = [
    ("", "", "empty move; write '-' for a turn with no move"),
    ("24/18 (2)", "(2)", "expected from/to such as 24/18, bar/22* or 8/5(2)"),
    ("24", "24", "expected from/to such as 24/18"),
    ("bar*/22", "bar*/22", "'*' marks the point landed on, not the start"),
    ("24/x", "24/x", "point 'x' is not 1-24, 'bar' (from) or 'off' (to)"),
]


@pytest.mark.parametrize(("text", "value", "reason"), UNREADABLE_MOVES)
def test_an_unreadable_move_names_its_token_and_why(text: str, value: str, reason: str) -> None:
    """RULES.md 1.1: the move text's grammar; the token at fault is quoted back."""
    with pytest.raises(NotationError) as refused:
        parse_move(text)
    assert (refused.value.field, refused.value.value, refused.value.reason) == ("move", value, reason)


def test_a_refused_step_lists_the_steps_allowed() -> None:
    """RULES.md 1.3: a step the dice do not allow is refused with the ones they do."""
    position = tavla.find_game("tabla").start().with_side(0).with_roll((6, 5))
    steps = position.steps()
    with pytest.raises(IllegalMoveError) as refused:
        steps.step("24/20")
    assert refused.value.move == "24/20"
    assert refused.value.position == position.notation()
    assert refused.value.reason == f"step not allowed (allowed: {', '.join(steps.legal_steps())})"
    with pytest.raises(IllegalMoveError) as refused:
        steps.commit()
    assert (refused.value.move, refused.value.position) == ("-", position.notation())
    steps.step("24/18")
    with pytest.raises(IllegalMoveError) as refused:
        steps.commit()
    assert (refused.value.move, refused.value.reason) == ("24/18", "the turn is not complete")


def test_no_step_at_all_is_said_as_none() -> None:
    """RULES.md 1.3: once the turn's dice are played, nothing more is allowed."""
    steps = tavla.find_game("tabla").start().with_side(0).with_roll((6, 5)).steps()
    steps.step("24/18")
    steps.step("18/13")
    with pytest.raises(IllegalMoveError) as refused:
        steps.step("13/7")
    assert refused.value.reason == "step not allowed (allowed: none)"


def test_an_unfinished_abluka_turn_names_what_was_played() -> None:
    """RULES.md 8.1: a turn is a move and a blocker; the move alone is not a turn."""
    position = tavla.find_game("abluka").start()
    steps = position.steps()
    first = steps.legal_steps()[0]
    steps.step(first)
    with pytest.raises(IllegalMoveError) as refused:
        steps.commit()
    assert (refused.value.move, refused.value.reason) == (first, "the turn is not complete")
    assert refused.value.position == position.notation()


def test_square_names_run_a1_to_g7() -> None:
    """RULES.md 8.2: files a-g from White's left, ranks 1-7 from White's side."""
    assert [square_name(s) for s in (0, 1, SIZE - 1, SIZE, SIZE * SIZE - 1)] == ["a1", "b1", "g1", "a2", "g7"]


def test_the_start_points_and_facts_of_the_tabla_family() -> None:
    """RULES.md 2.1: 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side, in White's numbering."""
    points = _start_points()
    assert points == BackgammonPosition.start_points
    white = {index + 1: n for index, n in enumerate(points) if n > 0}
    black = {index + 1: -n for index, n in enumerate(points) if n < 0}
    assert white == {24: 2, 13: 5, 8: 3, 6: 5}
    assert black == {1: 2, 12: 5, 17: 3, 19: 5}
    facts = tabla_family_facts("Tabla")
    assert (facts.has_dice, facts.has_pips, facts.has_bar, facts.has_cube, facts.checkers) == (
        True,
        True,
        True,
        True,
        15,
    )
