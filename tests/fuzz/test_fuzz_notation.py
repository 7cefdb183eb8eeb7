"""Fuzzing every text reader of positions and moves: each input gives a value or a
TavlaError, never another exception; an accepted position round-trips (RULES.md 1.2,
1.1, 8.2, 9.4)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tests.fuzz.strategies import abluka_text, move_text, mutated, tpn_text

import tavla
from tavla.core.errors import TavlaError
from tavla.rules.backgammon.gnubg_id import (
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
    from_gnubg_ids,
)
from tavla.rules.movetext import parse_move

TABLA = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 31"
VALID_POSITIONS = [
    TABLA,
    TABLA.replace("tabla", "chelebi").replace(" w 31", " b 55"),
    TABLA.replace("tabla", "antitabla").replace(" w 31", " w -"),
    "gulbara -/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w 66 r=3,3",
    "gulbara -/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w - c=556666 r=3,3",
    "tapa 15b/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w 21",
    "tapa 1w2b/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/14w 0,0 0,13 w -",
    "indiyka 2w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/1b 0,0 0,0 b 42",
    "3W3/7/7/7/7/7/3B3 b",
    "3W3/7/2x4/7/7/1B5/7 w",
]
# One object per position: the turn lists they compute are kept between examples.
MOVE_POSITIONS = [tavla.from_notation(text) for text in VALID_POSITIONS if not text.endswith(" -")]
MOVE_POSITIONS = [position for position in MOVE_POSITIONS if not position.is_chance]

BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
ID_TEXT = st.one_of(
    st.text(BASE64, min_size=14, max_size=14),
    st.text(BASE64, min_size=12, max_size=12),
    st.text(BASE64 + "=²:- ", max_size=16),
)


def read_back(position: Any) -> None:
    """RULES.md 1.2: the notation of an accepted position reads as the same position."""
    text = position.notation()
    again = tavla.from_notation(text)
    assert again == position
    assert again.notation() == text


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(tpn_text(), st.sampled_from(VALID_POSITIONS).flatmap(mutated), st.text(max_size=80)))
@example("tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w ²,0 0,0 w 31")
@example("tabla -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- 0,0 15,15 w -")
def test_tpn_and_abluka_positions(text: str) -> None:
    try:
        position = tavla.from_notation(text)
    except TavlaError:
        return
    read_back(position)


@given(st.one_of(abluka_text(), st.sampled_from(VALID_POSITIONS[-2:]).flatmap(mutated)))
@example("3W3/7/7/7/7/²²²/3B3 b")
def test_abluka_notation(text: str) -> None:
    try:
        position = tavla.from_notation(text)
    except TavlaError:
        return
    read_back(position)


@given(move_text())
@example("²/5 6/5")
def test_parse_move(text: str) -> None:
    try:
        parsed = parse_move(text)
    except TavlaError:
        return
    for path in parsed.paths:  # a path moves forward through points 25 (bar) .. 0 (off)
        assert all(25 >= a > b >= 0 for a, b in itertools.pairwise(path))


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(MOVE_POSITIONS),
    st.one_of(move_text(), st.text("abcdefg12345678/²x", max_size=7)),
)
def test_parse_turn_of_every_game(position: Any, text: str) -> None:
    try:
        turn = position.parse_turn(text)
    except TavlaError:
        return
    # RULES.md 1.1: the canonical text of the turn names the same turn.
    assert position.parse_turn(turn.text).after == turn.after
    assert turn.after in {legal.after for legal in position.legal_turns()}


@given(ID_TEXT, st.sampled_from((0, 1)), st.sampled_from(("tabla", "antitabla", "chelebi", "tapa")))
@example("AAAAAAAAAAAAAA", 0, "tabla")
def test_gnubg_position_id(text: str, side: int, game: str) -> None:
    try:
        position = decode_position_id(text, side=side, game=game)
    except TavlaError:
        return
    again = decode_position_id(encode_position_id(position), side=side, game=game)
    assert again == position
    read_back(position)


@given(ID_TEXT)
def test_gnubg_match_id(text: str) -> None:
    try:
        info = decode_match_id(text)
    except TavlaError:
        return
    assert decode_match_id(encode_match_id(info)) == info


@given(ID_TEXT, ID_TEXT)
@example("4HPwATDgc/ABMA", "cAgAAAAAAAAA")
def test_gnubg_ids_together(position_id: str, match_id: str) -> None:
    try:
        position, _ = from_gnubg_ids(position_id, match_id)
    except TavlaError:
        return
    read_back(position)


@pytest.mark.parametrize("text", ["", " ", "\x00", "tabla", "-"])
def test_short_inputs_are_refused_cleanly(text: str) -> None:
    with pytest.raises(TavlaError):
        tavla.from_notation(text)
