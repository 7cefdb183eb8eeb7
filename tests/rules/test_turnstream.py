"""Streaming the legal turns (tavla.rules.turnstream) where the roll cannot be played:
one empty turn that passes the dice (RULES.md 1.3)."""

from __future__ import annotations

import pytest

import tavla
from tavla.rules.dicesteps import DiceTurn
from tavla.rules.turnstream import stream_turns

pytestmark = pytest.mark.timeout(60)

# White is on the bar against Black's closed home board: 6-1 cannot enter.
CLOSED_OUT = "tabla -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/2b/2b/2b/2b/2b/2b 1,0 14,3 w 61"


def test_a_roll_with_no_move_streams_one_empty_turn() -> None:
    position = tavla.from_notation(CLOSED_OUT)
    turns = list(stream_turns(position))
    assert [turn.text for turn in turns] == ["-"]
    assert isinstance(turns[0], DiceTurn) and turns[0].steps == ()
    assert turns[0].after.notation() == CLOSED_OUT.replace(" w 61", " b -")
    assert [turn.after for turn in position.legal_turns()] == [turns[0].after]
