"""Hand-made indiyka positions, each test citing the RULES.md item it checks.

White uses his points 1-6, Black his 1-6, which are White's 24-19 (RULES.md 7, 1.1).
The expected positions were worked out by hand from the rules.
"""

from __future__ import annotations

import pytest

import tavla
from tavla.core.errors import IllegalMoveError, NotationError
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason
from tavla.rules.indiyka import IndiykaPosition

FULL = {point: "2w" for point in range(1, 7)}


def indiyka(points: dict[int, str], off: str = "0,0", side: str = "w", dice: str = "-") -> str:
    fields = "/".join(points.get(point, "-") for point in range(1, 25))
    return f"indiyka {fields} 0,0 {off} {side} {dice}"


def only_turn(text: str) -> tuple[str, str]:
    """The one legal turn (indiyka leaves no choice) as (text, resulting TPN)."""
    (turn,) = IndiykaPosition.from_notation(text).legal_turns()
    return turn.text, turn.after.notation()


def test_start_has_every_checker_waiting() -> None:
    """RULES.md 7: all 15 checkers start off the board, not yet entered."""
    start = IndiykaPosition.start()
    assert start.notation() == indiyka({})
    assert start.waiting(WHITE) == start.waiting(BLACK) == 15
    assert start.is_chance
    assert tavla.find_game("indijka").position_class is IndiykaPosition


def test_each_die_enters_one_checker_on_its_point() -> None:
    """RULES.md 7: each die n puts one checker on the player's point n."""
    assert only_turn(indiyka({}, dice="53")) == ("in/5 in/3", indiyka({3: "1w", 5: "1w"}, side="b"))


def test_black_enters_on_his_own_points() -> None:
    """RULES.md 7 and 1.1: Black's point 3 is White's 22; text in Black's numbering."""
    assert only_turn(indiyka({}, side="b", dice="31")) == ("in/3 in/1", indiyka({22: "1b", 24: "1b"}))


def test_a_die_naming_a_full_point_does_nothing() -> None:
    """RULES.md 7: while fewer than 12 are on the board a point holds at most 2."""
    assert only_turn(indiyka({3: "2w"}, dice="53")) == ("in/5", indiyka({3: "2w", 5: "1w"}, side="b"))
    assert only_turn(indiyka({3: "2w", 5: "2w"}, dice="53"))[0] == "-"


def test_a_double_fills_its_point_to_two_only() -> None:
    """RULES.md 7: on a double the named point receives at most two checkers."""
    assert only_turn(indiyka({}, dice="44")) == ("in/4(2)", indiyka({4: "2w"}, side="b"))
    assert only_turn(indiyka({4: "1w"}, dice="44")) == ("in/4", indiyka({4: "2w"}, side="b"))


def test_a_double_that_completes_every_point_enters_the_rest_on_that_point() -> None:
    """RULES.md 7: the remaining moves of the double enter more checkers on the same point."""
    points = {**FULL, 4: "-"}
    text, after = only_turn(indiyka(points, dice="44"))
    assert text == "in/4(4)"
    assert after == indiyka({**FULL, 4: "4w"}, side="b")
    assert IndiykaPosition.from_notation(after).waiting(WHITE) == 1


def test_after_the_twelfth_checker_the_last_three_enter_freely() -> None:
    """RULES.md 7: once 12 stand two on each point the last 3 enter with no limit."""
    assert only_turn(indiyka(FULL, dice="66")) == ("in/6(3)", indiyka({**FULL, 6: "5w"}, side="b"))
    assert only_turn(indiyka(FULL, dice="53")) == (
        "in/5 in/3",
        indiyka({**FULL, 3: "3w", 5: "3w"}, side="b"),
    )


def test_the_twelfth_checker_then_a_free_one_in_the_same_roll() -> None:
    """RULES.md 7 and 1.3: 11 on the board, 3 short of its second checker, roll 5-3.

    Playing the 3 first completes twelve, so the 5 then enters freely: both dice play,
    which the obligation to play as many dice as possible requires.
    """
    points = {**FULL, 3: "1w"}
    assert only_turn(indiyka(points, dice="53")) == ("in/5 in/3", indiyka({**FULL, 5: "3w"}, side="b"))


def test_dice_left_when_the_last_checker_enters_are_lost() -> None:
    """RULES.md 7 (decision): a roll serves one phase only; RULES.md 1.3: the larger die plays."""
    fourteen = {**FULL, 1: "3w", 2: "3w"}
    assert only_turn(indiyka(fourteen, dice="53")) == ("in/5", indiyka({**fourteen, 5: "3w"}, side="b"))
    assert only_turn(indiyka(fourteen, dice="22")) == ("in/2", indiyka({**fourteen, 2: "4w"}, side="b"))


def test_removing_by_the_dice() -> None:
    """RULES.md 7: die n removes one from point n, a double up to four; an empty point: nothing."""
    board = {1: "2w", 2: "2w", 3: "2w", 4: "3w", 5: "3w", 6: "3w"}
    assert only_turn(indiyka(board, dice="66")) == ("6/off(3)", indiyka({**board, 6: "-"}, "3,0", side="b"))
    assert only_turn(indiyka(board, dice="61")) == (
        "6/off 1/off",
        indiyka({**board, 1: "1w", 6: "2w"}, "2,0", side="b"),
    )
    no_ones = {**board, 1: "-", 2: "4w"}
    assert only_turn(indiyka(no_ones, dice="61"))[0] == "6/off"


def test_the_first_to_remove_all_fifteen_wins_one_point() -> None:
    """RULES.md 7: first to remove all 15 wins 1 point."""
    position = IndiykaPosition.from_notation(indiyka({2: "1w", 20: "3b"}, "14,12", dice="21"))
    (turn,) = position.legal_turns()
    assert turn.text == "2/off"
    assert turn.after.outcome() == Outcome(WHITE, 1, OutcomeReason.SINGLE)
    assert not turn.after.is_chance


def test_move_text_uses_in_and_off() -> None:
    """RULES.md 1.1: in indiyka `in/3` enters a checker on point 3 and `3/off` removes one."""
    position = IndiykaPosition.from_notation(indiyka({}, dice="53"))
    assert position.parse_turn("in/3 in/5").text == "in/5 in/3"
    with pytest.raises(IllegalMoveError):
        position.parse_turn("bar/5 bar/3")
    with pytest.raises(IllegalMoveError):
        position.parse_turn("in/5")
    builder = position.steps()
    assert set(builder.legal_steps()) == {"in/5", "in/3"}
    builder.step("in/3")
    builder.undo()
    builder.step("in/5")
    builder.step("in/3")
    assert builder.commit().after == position.legal_turns()[0].after


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (indiyka({10: "1w"}), "point 10"),
        (indiyka({3: "1b"}), "point 3"),
        (indiyka({20: "1w"}), "point 20"),
        (indiyka({1: "2w"}, off="1,0"), "off"),
        (indiyka({3: "3w", 4: "1w"}), "points"),
        (indiyka({3: "1b1w"}), "point 3"),
        (indiyka({1: "9w", 2: "7w"}), "checkers"),
        (indiyka({}).replace(" 0,0 0,0", " 0,1 0,0"), "bar"),
    ],
)
def test_bad_notation_names_the_field(text: str, field: str) -> None:
    """RULES.md 1.2 and 7: own points 1-6 only, no removing before all entered, no pins."""
    with pytest.raises(NotationError) as caught:
        IndiykaPosition.from_notation(text)
    assert caught.value.field == field


def test_not_yet_entered_checkers_round_trip() -> None:
    """RULES.md 1.2: checkers neither on a point nor off are not yet entered."""
    text = indiyka({1: "2w", 2: "1w", 24: "2b", 19: "2b"}, side="b", dice="64")
    position = tavla.from_notation(text)
    assert isinstance(position, IndiykaPosition)
    assert position.notation() == text
    assert position.waiting(WHITE) == 12 and position.waiting(BLACK) == 11
    assert position.board(BLACK) == (2, 0, 0, 0, 0, 2)
