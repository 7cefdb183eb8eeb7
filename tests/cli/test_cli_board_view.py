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


def diagram(text: str) -> list[str]:
    return [line.rstrip() for line in plain(text).splitlines()]


def test_the_halves_are_drawn_from_the_edge_inwards_with_the_bar_between() -> None:
    # The top half hangs from the top edge, the bottom half stands on the bottom edge; a
    # checker on the bar sits next to the middle line, each side's in its opponent's half
    # as in a printed diagram; a stack taller than five shows its count in its last row.
    out = diagram(
        tpn(
            {1: "2b", 6: "5w", 8: "2w", 12: "5b", 13: "2w", 17: "3b", 19: "3b", 24: "6w"},
            bar="0,2",
            dice="31",
        )
    )
    assert out[:14] == [
        "tabla: White to play 3-1",
        "  13 14 15 16 17 18      19 20 21 22 23 24",
        "+------------------+---+------------------+---+",
        "| O           X    |   | X              O |   |",
        "| O           X    |   | X              O |   |",
        "|             X    |   | X              O |   |",
        "|                  | X |                O |   |",
        "|                  | X |                6 |   |",
        "|                  |BAR|                  |OFF|",
        "| X                |   | O                |   |",
        "| X                |   | O                |   |",
        "| X                |   | O                |   |",
        "| X           O    |   | O              X |   |",
        "| X           O    |   | O              X |   |",
    ]


def test_a_board_is_drawn_in_the_numbering_of_the_side_to_play_with_its_trays() -> None:
    # Black to play: his home board at the bottom right, White's checkers on Black's 23 and 24,
    # each side's borne-off checkers in the tray of its own half (five shown, then the count).
    out = diagram(tpn({1: "2w", 2: "1w", 24: "2b"}, off="12,13", side="b", dice="31"))
    assert out[1:17] == [
        "  13 14 15 16 17 18      19 20 21 22 23 24",
        "+------------------+---+------------------+---+",
        "|                  |   |             O  O | O |",
        "|                  |   |                O | O |",
        "|                  |   |                  | O |",
        "|                  |   |                  | O |",
        "|                  |   |                  |12 |",
        "|                  |BAR|                  |OFF|",
        "|                  |   |                  |13 |",
        "|                  |   |                  | X |",
        "|                  |   |                  | X |",
        "|                  |   |                X | X |",
        "|                  |   |                X | X |",
        "+------------------+---+------------------+---+",
        "  12 11 10  9  8  7       6  5  4  3  2  1",
        "X Black: pips 2, bar 0, off 13",
    ]
