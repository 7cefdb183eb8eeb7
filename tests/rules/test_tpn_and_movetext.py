"""TPN (RULES.md 1.2) and move text (RULES.md 1.1) for the tabla family."""

from __future__ import annotations

import pytest

import tavla
from tavla.core.errors import NotationError
from tavla.rules.movetext import format_turn, parse_move

START = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w -"


def test_round_trip_exact() -> None:
    for text in (START, START.replace(" w -", " b 42"), START.replace("tabla", "chelebi")):
        assert tavla.from_notation(text).notation() == text


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (START.replace(" w -", " w 71"), "dice"),
        (START.replace(" w -", " w 3"), "dice"),
        (START.replace(" w -", " x -"), "side"),
        (START.replace("2b/-", "3b/-", 1), "checkers"),
        (START.replace("0,0 0,0", "0,0 1,0"), "checkers"),
        (START.replace("tabla", "tablaa"), "game"),
        (START.replace("/2w ", "/2x "), "point 24"),
        (START.replace("2b/-/", "2b/", 1), "points"),
        (START.replace("0,0 0,0", "0;0 0,0"), "bar"),
        (START + " c=55", "extra field"),
        (START.replace("5b/5w", "5b/1b4w"), "point 13"),
        (START.replace(" w -", "  w -"), "tpn"),
    ],
)
def test_bad_tpn_names_the_field(text: str, field: str) -> None:
    with pytest.raises(NotationError) as info:
        tavla.from_notation(text)
    assert info.value.field == field


@pytest.mark.parametrize(
    ("extra", "reason"),
    [("c", "expected key=value"), ("=5", "expected key=value"), ("c=", "expected key=value")],
)
def test_an_extra_field_is_key_equals_value(extra: str, reason: str) -> None:
    """RULES.md 1.2: extra fields are key=value."""
    with pytest.raises(NotationError) as info:
        tavla.from_notation(f"{START} {extra}")
    assert (info.value.field, info.value.value, info.value.reason) == ("extra field", extra, reason)


def test_an_extra_field_given_twice_is_refused() -> None:
    gulbara = "gulbara 15w/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/- 0,0 0,0 w - r=0,0"
    with pytest.raises(NotationError) as info:
        tavla.from_notation(f"{gulbara} r=1,1")
    assert (info.value.field, info.value.value, info.value.reason) == ("extra field", "r=1,1", "given twice")


def test_an_unreadable_point_names_its_text() -> None:
    """RULES.md 1.2: a point field that is neither '-' nor runs is refused with its text."""
    with pytest.raises(NotationError) as info:
        tavla.from_notation(START.replace("/2w ", "/2x "))
    assert (info.value.field, info.value.value) == ("point 24", "2x")
    assert info.value.reason  # what a field may hold, for the reader to fix it


def test_a_wrong_checker_count_and_an_unknown_game_say_what_was_found() -> None:
    """RULES.md 1.2: the reader is told the count by field, and the games that exist."""
    with pytest.raises(NotationError) as info:
        tavla.from_notation(START.replace("0,0 0,0", "0,0 1,0"))
    assert info.value.reason == "White has 15 on points, 0 on the bar and 1 off: 16, expected 15"
    with pytest.raises(NotationError) as info:
        tavla.from_notation(START.replace("tabla", "tablaa"))
    assert (info.value.value, info.value.reason.split(", ")[0]) == ("tablaa", "expected one of abluka")
    assert set(info.value.reason.removeprefix("expected one of ").split(", ")) == set(tavla.game_names())


@pytest.mark.parametrize("game", ["tabla", "antitabla", "chelebi"])
def test_a_pin_on_a_board_without_pins_is_refused_by_name(game: str) -> None:
    """RULES.md 1.2: two colours on one point are tapa's pins; the tabla family has none."""
    with pytest.raises(NotationError) as info:
        tavla.from_notation(START.replace("tabla", game).replace("5b/5w", "5b/1b4w"))
    assert (info.value.field, info.value.value) == ("point 13", "1b4w")
    assert info.value.reason == f"{game} has no stacked colours (pins)"


@pytest.mark.parametrize(
    "text",
    [
        # Tapa would otherwise read a White checker "pinned" under White ones.
        "tapa 15b/-/-/-/-/-/-/-/-/1w14w/-/-/-/-/-/-/-/-/-/-/-/-/-/- 0,0 0,0 w -",
        "tapa 15b/-/-/-/-/-/-/-/-/2w3w/-/-/-/-/-/-/-/-/-/-/-/-/-/10w 0,0 0,0 w -",
        START.replace("/5w/-/3w/", "/2w3w/-/3w/"),
        START.replace("/5b/-/", "/1b4b/-/"),
    ],
)
def test_two_runs_of_one_colour_on_a_point_are_refused(text: str) -> None:
    """RULES.md 1.2: a field is the stack as runs of count+colour, so two runs of one
    colour in a row (``1w14w``, ``2w3w``) are one run written twice: refused."""
    with pytest.raises(NotationError) as info:
        tavla.from_notation(text)
    assert info.value.field.startswith("point ")
    point = int(info.value.field.removeprefix("point "))
    assert info.value.value == text.split(" ")[1].split("/")[point - 1]
    assert "same colour" in info.value.reason


def test_format_chains_counts_and_hits() -> None:
    assert format_turn([]) == "-"
    assert format_turn([(24, 18, False), (18, 13, False)]) == "24/13"
    assert format_turn([(13, 7, True), (7, 5, False)]) == "13/7*/5"
    assert format_turn([(8, 5, False), (8, 5, False), (6, 5, False)]) == "8/5(2) 6/5"
    assert format_turn([(25, 22, True)]) == "bar/22*"
    assert format_turn([(2, 0, False), (6, 0, False)]) == "6/off 2/off"


def test_parse_move_text() -> None:
    parsed = parse_move("bar/22* 13/7*/5 8/5(2)")
    assert parsed.paths == ((25, 22), (13, 7, 5), (8, 5), (8, 5))
    assert parsed.starred == {22, 7}
    assert parse_move("-").paths == ()
    for bad in ("", "24-18", "18/24", "off/3", "3/bar", "25/20", "8/5(0)"):
        with pytest.raises(NotationError):
            parse_move(bad)
    for backwards, step in (("18/24", "18/24"), ("8/8", "8/8"), ("13/7/9", "7/9")):
        with pytest.raises(NotationError) as info:
            parse_move(backwards)
        assert (info.value.value, info.value.reason) == (backwards, f"{step} does not move forward")


def test_a_checker_borne_off_after_a_step_is_written_as_one_move() -> None:
    """RULES.md 1.1: one checker's steps join into one move: 6/2 then 2/off is 6/off."""
    position = tavla.from_notation("tabla -/-/-/-/-/1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/15b 0,0 14,0 w 42")
    assert [turn.text for turn in position.legal_turns()] == ["6/off"]
