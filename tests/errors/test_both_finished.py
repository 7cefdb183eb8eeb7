"""A position where both players have finished cannot arise in any dice game: the
first player to bear off (or remove) all 15 checkers ends the game (RULES.md 1.5,
2-7), so the notation and gnubg's IDs must refuse it instead of naming a winner."""

from __future__ import annotations

import pytest
from tests.errors.cli_run import assert_one_line_refusal, tavla

import tavla as library
from tavla.core.errors import NotationError
from tavla.rules.backgammon.gnubg_id import decode_position_id, from_gnubg_ids

EMPTY = "/".join(["-"] * 24)
EXTRAS = {"gulbara": " r=0,0"}
GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("dice", ["-", "31"])
def test_both_sides_borne_off_is_refused_in_every_dice_game(game: str, dice: str) -> None:
    text = f"{game} {EMPTY} 0,0 15,15 w {dice}{EXTRAS.get(game, '')}"
    with pytest.raises(NotationError) as raised:
        library.from_notation(text)
    assert (raised.value.field, raised.value.value) == ("off", "15,15")


@pytest.mark.parametrize("game", GAMES)
def test_one_side_borne_off_is_still_a_finished_game(game: str) -> None:
    # White is done; Black's 15 stand on one point in White's home board (tabla's point 1).
    black = "15b/" + "/".join(["-"] * 23)
    if game == "gulbara":
        black = "/".join(["-"] * 11 + ["15b"] + ["-"] * 12)  # Black's start (RULES.md 6.1)
    elif game == "indiyka":
        black = "/".join(["-"] * 23 + ["15b"])  # Black's point 1 is White's 24 (RULES.md 7)
    position = library.from_notation(f"{game} {black} 0,0 15,0 b -{EXTRAS.get(game, '')}")
    outcome = position.outcome()
    assert outcome is not None
    assert outcome.winner == (1 if game == "antitabla" else 0)  # RULES.md 3: antitabla's finisher loses


def test_the_position_id_of_an_empty_board_is_refused() -> None:
    with pytest.raises(NotationError) as raised:
        decode_position_id("AAAAAAAAAAAAAA")
    assert raised.value.field == "position id"
    with pytest.raises(NotationError):
        from_gnubg_ids("AAAAAAAAAAAAAA", "cAgAAAAAAAAA")


def test_tavla_convert_refuses_the_empty_board_in_one_line() -> None:
    assert_one_line_refusal(tavla("convert", "AAAAAAAAAAAAAA"), "AAAAAAAAAAAAAA")
    assert_one_line_refusal(tavla("convert", "AAAAAAAAAAAAAA:cAgAAAAAAAAA"), "AAAAAAAAAAAAAA")


def test_tavla_moves_refuses_both_borne_off_in_one_line() -> None:
    ran = tavla("moves", f"tabla {EMPTY} 0,0 15,15 w -")
    assert_one_line_refusal(ran, "off", "15,15")
