"""Indiyka positions the TPN refuses (RULES.md 7, notation 1): each refusal names the
field, the text and the rule, and the boundary points are accepted."""

from __future__ import annotations

import pytest

import tavla
from tavla.core.errors import IllegalMoveError, NotationError
from tavla.rules.indiyka import IndiykaPosition

EMPTY = ["-"] * 24


def tpn(points: dict[int, str], tail: str = "0,0 0,0 w -") -> str:
    cells = list(EMPTY)
    for point, stack in points.items():
        cells[point - 1] = stack
    return f"indiyka {'/'.join(cells)} {tail}"


@pytest.mark.parametrize(
    ("text", "field", "value", "reason"),
    [
        (tpn({7: "1w"}), "point 7", "1w", "in indiyka each player uses only his own points 1-6"),
        (tpn({18: "1b"}), "point 18", "1b", "in indiyka each player uses only his own points 1-6"),
        (tpn({1: "3w"}), "points", "3/0/0/0/0/0", "White has a point above 2 before every point holds 2"),
        (tpn({1: "1w"}, "0,0 1,0 w -"), "off", "1,0", "White removes before all entered"),
        (tpn({19: "1b"}, "0,0 0,1 w -"), "off", "0,1", "Black removes before all entered"),
        (
            tpn({1: "2w", 2: "2w", 3: "2w", 4: "2w", 5: "2w", 6: "2w"}, "0,0 4,0 w -"),
            "checkers",
            "White 16",
            "White has 12 on points and 4 off: 16, expected at most 15",
        ),
        (tpn({}, "0,0 15,0 w 31"), "dice", "31", "the game is over: no dice to play"),
        (tpn({}, "15,0 0,0 w -"), "bar", "15,0", "indiyka has no bar: expected 0,0"),
    ],
)
def test_a_position_against_the_rules_is_refused_with_its_reason(
    text: str, field: str, value: str, reason: str
) -> None:
    with pytest.raises(NotationError) as refused:
        tavla.from_notation(text)
    assert (refused.value.field, refused.value.value, refused.value.reason) == (field, value, reason)


def test_the_last_points_of_each_side_are_allowed() -> None:
    assert tavla.from_notation(tpn({6: "1w"})).outcome() is None
    assert tavla.from_notation(tpn({19: "1b"})).outcome() is None


def test_a_bar_move_is_refused_with_the_way_to_write_an_entry() -> None:
    position = tavla.find_game("indiyka").start().with_roll((3, 1))
    with pytest.raises(IllegalMoveError) as refused:
        position.parse_turn("bar/3 bar/1")
    assert "indiyka has no bar: write in/3 to enter a checker" in refused.value.reason
    assert position.parse_turn("in/3 in/1").text == "in/3 in/1"


def test_the_search_state_says_whether_the_roll_enters() -> None:
    """RULES.md 7: the mover's search state is (off, points 1-6, waiting, entering),
    entering 1 while checkers wait to come in and 0 once all are in (the bots read it)."""
    start = IndiykaPosition.from_notation(tpn({}))
    assert start.mover_state() == (0, 0, 0, 0, 0, 0, 0, 15, 1)
    entered = IndiykaPosition.from_notation(tpn({1: "2w", 2: "2w", 3: "2w", 4: "2w", 5: "2w", 6: "5w"}))
    assert entered.mover_state() == (0, 2, 2, 2, 2, 2, 5, 0, 0)
