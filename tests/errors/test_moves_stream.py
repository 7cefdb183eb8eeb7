"""``tavla moves`` shows turns as they are found and takes ``--limit`` (RULES.md 1.3,
4 and 6.2: a progressive double can have over a hundred thousand turns)."""

from __future__ import annotations

import itertools
import time

import pytest
from tests.errors.cli_run import TABLA_START, assert_one_line_refusal, tavla

import tavla as library
from tavla.cli.moves import turn_lines
from tavla.rules.turnstream import stream_turns

CHELEBI_11 = TABLA_START.replace("tabla", "chelebi").replace(" w -", " w 11")
GULBARA_11 = "gulbara -/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w 11 r=3,3"

SMALL_TURN_LISTS = [
    TABLA_START.replace(" w -", " w 31"),
    TABLA_START.replace(" w -", " b 33"),
    TABLA_START.replace("tabla", "antitabla").replace(" w -", " w 66"),
    TABLA_START.replace("tabla", "chelebi").replace(" w -", " w 44"),  # 5,278 turns
    "tabla -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/2b/2b 1,0 14,11 w 66",  # nothing to play
    "tabla 1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/15b 0,0 14,0 w 21",  # the last checker off
    "gulbara -/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w 55 r=3,3",
    "gulbara -/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w 31 r=0,0",
    "tapa 15b/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w 33",
    "indiyka -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- 0,0 0,0 w 21",
    "3W3/7/7/7/7/7/3B3 b",
]


@pytest.mark.parametrize("text", SMALL_TURN_LISTS)
def test_the_stream_gives_exactly_the_legal_turns_once_each(text: str) -> None:
    listed = {turn.after.notation() for turn in library.from_notation(text).legal_turns()}
    position = library.from_notation(text)
    streamed = [turn.after.notation() for turn in stream_turns(position)]
    assert len(streamed) == len(set(streamed))
    assert set(streamed) == listed
    # Each streamed text reads back as the turn it names (RULES.md 1.1: one text everywhere).
    for turn in itertools.islice(stream_turns(position), 40):
        assert position.parse_turn(turn.text).after == turn.after


@pytest.mark.parametrize("text", [CHELEBI_11, GULBARA_11])
def test_a_long_progressive_double_streams_without_listing_its_turns(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    position = library.from_notation(text)

    def no_list(self: object) -> None:
        raise AssertionError("the whole turn list was made")

    monkeypatch.setattr(type(position), "legal_turns", no_list)
    lines = list(itertools.islice(turn_lines(position), 25))
    assert len(lines) == 25 and len(set(lines)) == 25
    for line in lines:
        move, after = line.rstrip("\n").split("\t")
        monkeypatch.undo()
        assert position.parse_turn(move).after.notation() == after


def test_limit_on_a_known_list_says_how_many_of_how_many() -> None:
    ran = tavla("moves", "--limit", "3", TABLA_START.replace(" w -", " w 31"))
    assert ran.exit_code == 0 and ran.exception is None
    assert len(ran.stdout.splitlines()) == 3
    assert ran.stderr == "tavla: --limit 3: showed 3 of 16 legal turns\n"  # RULES.md 2: 16 plays of 3-1


def test_limit_that_cuts_nothing_says_nothing() -> None:
    ran = tavla("moves", "--limit", "16", TABLA_START.replace(" w -", " w 31"))
    assert len(ran.stdout.splitlines()) == 16 and ran.stderr == ""


@pytest.mark.parametrize("text", [CHELEBI_11, GULBARA_11])
def test_limit_on_a_progressive_double_answers_promptly(text: str) -> None:
    started = time.monotonic()
    ran = tavla("moves", "--limit", "5", text)
    # Listing every turn first took over a minute; the stream needs a fraction of a second.
    assert time.monotonic() - started < 30
    assert ran.exit_code == 0 and len(ran.stdout.splitlines()) == 5
    assert ran.stderr == "tavla: --limit 5: showed the first 5 legal turns; there are more\n"


def test_limit_applies_to_each_line_of_the_stream_mode() -> None:
    lines = f"{TABLA_START.replace(' w -', ' w 31')}\n{CHELEBI_11}\n"
    ran = tavla("moves", "--limit", "2", "-", input=lines)
    assert ran.exit_code == 0
    first, second, end = ran.stdout.split("\n\n")
    assert len(first.splitlines()) == 2 and len(second.splitlines()) == 2 and end == ""
    assert ran.stderr.splitlines() == [
        "tavla: line 1: --limit 2: showed 2 of 16 legal turns",
        "tavla: line 2: --limit 2: showed the first 2 legal turns; there are more",
    ]


def test_limit_must_be_positive() -> None:
    assert tavla("moves", "--limit", "0", TABLA_START.replace(" w -", " w 31")).exit_code == 2


@pytest.mark.parametrize("command", ["moves", "show", "convert"])
def test_a_position_that_begins_with_a_dash_gets_one_line_not_a_usage_box(command: str) -> None:
    ran = tavla(command, "-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- 0,0 15,15 w -")
    assert_one_line_refusal(ran, "-/-/-")
    assert "Usage" not in ran.stderr and "╭" not in ran.stderr


def test_a_mistyped_option_gets_one_line() -> None:
    assert_one_line_refusal(tavla("moves", "--lmit"), "no such option: --lmit")


def test_a_position_after_double_dash_is_read_as_before() -> None:
    ran = tavla("moves", "--", TABLA_START.replace(" w -", " w 31"))
    assert ran.exit_code == 0 and len(ran.stdout.splitlines()) == 16
