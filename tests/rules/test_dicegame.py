"""Reading a turn's text in the dice-game framework (tavla.rules.dicegame), as tapa,
gulbara and indiyka do: each refusal names the text, the position and the reason
(RULES.md 1.2, 1.3)."""

from __future__ import annotations

import pytest

import tavla
from tavla.core.errors import IllegalMoveError

pytestmark = pytest.mark.timeout(60)

TAPA_31 = "tapa 15b/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w 31"
INDIYKA_OVER = "indiyka -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- 0,0 15,0 b -"


@pytest.mark.parametrize(
    ("position", "text", "reason"),
    [
        (TAPA_31, "-", "a move is possible, '-' is not legal"),  # RULES.md 1.3: play what can be played
        (TAPA_31, "24/1", "illegal move"),
        (INDIYKA_OVER, "-", "the game is over"),  # White has removed all fifteen
    ],
)
def test_a_turn_text_that_names_no_legal_turn_is_refused(position: str, text: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as refused:
        tavla.from_notation(position).parse_turn(text)
    assert (refused.value.move, refused.value.position, refused.value.reason) == (text, position, reason)


def test_the_same_text_in_any_order_reads_as_the_one_legal_turn() -> None:
    """The counterpart: a legal turn is found whatever the order of its steps."""
    position = tavla.from_notation(TAPA_31)
    assert position.parse_turn("24/21 24/23").text == position.parse_turn("24/23 24/21").text


def test_a_checker_written_through_its_stops_reads_as_the_turn_it_makes() -> None:
    """RULES.md 1.2: '24/21/20' names one checker's walk, the same turn as '24/21 21/20'
    and '24/20'; the turn is where the walk ends, not its first stop."""
    position = tavla.from_notation(TAPA_31)
    walked = position.parse_turn("24/21/20")
    assert walked.text == position.parse_turn("24/21 21/20").text == "24/20"
    assert walked.after == position.play("24/20")


def test_a_turn_of_another_position_is_refused_and_changes_nothing() -> None:
    """RULES.md 1.3: only this position's legal turns are played; a turn object made by
    another position (here: the 6-5 of the start, played where 3-1 was rolled) is checked
    against this one's turns, not trusted."""
    position = tavla.from_notation(TAPA_31)
    other = tavla.from_notation(TAPA_31[: -len("31")] + "65")
    foreign = other.legal_turns()[0]
    with pytest.raises(IllegalMoveError) as refused:
        position.play(foreign)
    assert (refused.value.move, refused.value.position) == (foreign.text, TAPA_31)
    assert position.notation() == TAPA_31
    # The same turn made by an equal position is this position's own turn.
    assert tavla.from_notation(TAPA_31[: -len("31")] + "65").play(foreign) == foreign.after
