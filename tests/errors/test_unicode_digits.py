"""Numbers in notation are ASCII digits: '²' and '٣' are refused as NotationError,
never a ValueError from int() nor a silently read number (RULES.md 1.2, 8.2)."""

from __future__ import annotations

import pytest
from tests.errors.cli_run import TABLA_START, assert_one_line_refusal, tavla

import tavla as library
from tavla.core.digits import is_digits, parse_natural, parse_roll_text
from tavla.core.errors import IllegalMoveError, NotationError
from tavla.rules.movetext import parse_move

POINTS = "2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w"
UNICODE_DIGITS = ["²", "٣", "１", "𝟙", "¹5"]


@pytest.mark.parametrize("text", UNICODE_DIGITS)
def test_the_helper_takes_ascii_digits_only(text: str) -> None:
    assert text.isdigit() or text[0].isdigit()  # what str.isdigit() would have let through
    assert not is_digits(text)
    with pytest.raises(NotationError):
        parse_natural(text, "count")
    with pytest.raises(NotationError):
        parse_roll_text(text + text, "dice")


def test_the_helper_reads_ascii_numbers() -> None:
    assert parse_natural("042", "count") == 42
    assert parse_roll_text("52") == (5, 2)
    assert not is_digits("") and not is_digits("1 2") and not is_digits("-1")


@pytest.mark.parametrize("digit", UNICODE_DIGITS)
@pytest.mark.parametrize(
    ("tpn", "field"),
    [
        (f"tabla {POINTS} D,0 0,0 w 31", "bar"),
        (f"tabla {POINTS} 0,0 0,D w 31", "off"),
        (f"tabla {POINTS} 0,0 0,0 w 3D", "dice"),
        (f"tabla {POINTS.replace('5w', 'Dw', 1)} 0,0 0,0 w 31", "point 6"),
        ("gulbara -/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w - c=D r=3,3", "c"),
        ("gulbara -/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w 11 r=D,3", "r"),
        ("tapa -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- 0,0 D,15 w -", "off"),
        ("indiyka -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- 0,0 0,D w 31", "off"),
        ("3W3/7/7/7/7/7/DB5 b", "rank 1"),
    ],
)
def test_every_position_reader_refuses_unicode_digits(digit: str, tpn: str, field: str) -> None:
    with pytest.raises(NotationError) as raised:
        library.from_notation(tpn.replace("D", digit))
    assert raised.value.field == field


@pytest.mark.parametrize("digit", UNICODE_DIGITS)
def test_move_text_refuses_unicode_digits(digit: str) -> None:
    with pytest.raises(NotationError, match="move"):
        parse_move(f"{digit}/5 6/5")
    position = library.from_notation(TABLA_START.replace(" w -", " w 31"))
    with pytest.raises(IllegalMoveError):
        position.parse_turn(f"{digit}/5 6/5")
    gulbara = library.from_notation(
        "gulbara -/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w 31 r=0,0"
    )
    with pytest.raises(IllegalMoveError):
        gulbara.parse_turn(f"24/2{digit}")


def test_tavla_moves_reports_a_unicode_digit_in_one_line() -> None:
    ran = tavla("moves", f"tabla {POINTS} ²,0 0,0 w 31")
    assert_one_line_refusal(ran, "bar", "²")
    assert ran.stdout == ""


def test_tavla_moves_stream_reports_the_line_and_goes_on() -> None:
    good = f"tabla {POINTS} 0,0 0,0 w 21"
    ran = tavla("moves", "-", input=f"tabla {POINTS} ²,0 0,0 w 31\n{good}\n")
    assert ran.exception is None and ran.exit_code == 2
    assert ran.stderr.splitlines() == [
        "tavla: line 1: bar '²,0': expected two counts such as 0,0 (White,Black)"
    ]
    empty, answer = ran.stdout.split("\n", 1)
    assert empty == ""  # the first line's answer is empty ...
    assert "24/21\t" in answer and "13/11 6/5\t" in answer  # ... the second line is answered


@pytest.mark.parametrize("option", ["--cube", "--length"])
def test_tavla_convert_refuses_unicode_digits_in_match_options(option: str) -> None:
    assert_one_line_refusal(tavla("convert", option, "²", TABLA_START), option.strip("-"), "²")
