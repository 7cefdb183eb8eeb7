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
