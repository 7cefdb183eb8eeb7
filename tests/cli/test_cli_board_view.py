"""The Rich board for games with stacks and unentered checkers (RULES.md 5, 7)."""

from __future__ import annotations

import io

from rich.console import Console
from tests.cli.cli_helpers import tpn

from tavla.cli.board_view import dice_board


def plain(text: str) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None).print(dice_board(text))
    return buffer.getvalue()


def test_tapa_pin_is_drawn_under_the_stack() -> None:
    out = plain(tpn({1: "1b2w", 6: "13w", 13: "14b"}, game="tapa", dice="52"))
    lines = out.splitlines()
    borders = [index for index, line in enumerate(lines) if line.startswith("+-")]
    bottom_row = lines[borders[1] - 1]
    assert bottom_row.rstrip().endswith("[X]|   |")
    assert "pinned" in out


def test_indiyka_shows_the_checkers_not_entered_and_no_pips() -> None:
    out = plain(tpn({1: "3w", 2: "2w", 24: "2b"}, game="indiyka", dice="31"))
    assert "White: bar 0, off 0, not entered 10" in out
    assert "Black: bar 0, off 0, not entered 13" in out
    assert "pips" not in out
