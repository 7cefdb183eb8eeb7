"""``tavla show``: the terminal board and ``--svg`` (issue 2, CLI)."""

from __future__ import annotations

import sys
import types
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from tests.cli.cli_helpers import START, Invoke, tpn

import tavla
from tavla.cli import board_view
from tavla.core.definition import BoardKind


def column_of(numbers_line: str, point: int) -> int:
    """The text column where ``point``'s label ends (its checkers are drawn one to the left)."""
    start = f" {numbers_line} ".index(f" {point} ")  # the label starts here, unpadded
    return start + len(str(point)) - 1


def bottom_half(output: str) -> tuple[str, list[str]]:
    lines = output.splitlines()
    middle = next(i for i, line in enumerate(lines) if "BAR" in line)
    return lines[middle + 7], lines[middle + 1 : middle + 6]


def test_start_board_shows_numbers_stacks_side_dice_and_pips(invoke: Invoke) -> None:
    result = invoke("show", START.replace(" w -", " w 31"))
    assert result.exit_code == 0
    out = result.stdout
    assert "tabla" in out and "White to play 3-1" in out
    lines = out.splitlines()
    assert [int(n) for n in lines[1].split()] == list(range(13, 25))
    numbers, rows = bottom_half(out)
    assert [int(n) for n in numbers.split()] == list(range(12, 0, -1))
    # 167 pips each at the start: 2*24 + 5*13 + 3*8 + 5*6
    assert "White: pips 167, bar 0, off 0" in out
    assert "Black: pips 167, bar 0, off 0" in out
    for point, glyph, count in ((6, "O", 5), (8, "O", 3), (12, "X", 5), (1, "X", 2), (5, " ", 0)):
        column = column_of(numbers, point) - 1
        cells = [row[column] for row in rows]
        assert cells.count(glyph) == (count or 5), (point, cells)


def test_board_is_numbered_for_black_when_black_acts(invoke: Invoke) -> None:
    out = invoke("show", START.replace(" w -", " b 52")).stdout
    assert "Black to play 5-2" in out
    numbers, rows = bottom_half(out)
    # Black's own 6 (White's 19) holds his five checkers at the bottom right.
    column = column_of(numbers, 6) - 1
    assert [row[column] for row in rows] == ["X"] * 5
    assert out.index("X Black") < out.index("O White")


def test_tall_stacks_show_their_count_and_trays_their_checkers(invoke: Invoke) -> None:
    text = tpn({6: "9w", 24: "12b"}, bar="1,0", off="5,3", dice="64")
    out = invoke("show", text).stdout
    numbers, rows = bottom_half(out)
    column = column_of(numbers, 6)
    assert rows[0][column - 2 : column + 1].strip() == "9"
    assert "White: pips 79, bar 1, off 5" in out  # 9*6 + 25
    assert "Black: pips 12, bar 0, off 3" in out


def test_bad_positions_exit_2_with_one_line(invoke: Invoke) -> None:
    result = invoke("show", START.replace(" w -", " w 07"))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip() == ("tavla: dice '07': expected two dice 1-6 such as 31 or 44, or '-'")


def test_svg_file_is_written(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    result = invoke("show", START.replace(" w -", " w 31"), "--svg", str(target))
    assert result.exit_code == 0
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    circles = [e for e in root.iter("{http://www.w3.org/2000/svg}circle") if "checker" in e.get("class", "")]
    assert len(circles) == 30


def test_svg_to_an_unwritable_place_is_one_line(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "board.svg"
    result = invoke("show", START, "--svg", str(target))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "--svg" in result.stderr


ABLUKA_START = "3W3/7/7/7/7/7/3B3 b"


def test_abluka_uses_its_own_view(invoke: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("fake_abluka_view")
    fake.render = lambda position: f"ABLUKA BOARD {position.notation()}"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_abluka_view", fake)
    monkeypatch.setitem(board_view.GAME_VIEWS, BoardKind.GRID, "fake_abluka_view")
    result = invoke("show", ABLUKA_START)
    assert result.exit_code == 0
    assert result.stdout.strip() == f"ABLUKA BOARD {ABLUKA_START}"


def test_abluka_without_its_view_prints_the_notation(invoke: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(board_view.GAME_VIEWS, BoardKind.GRID, "tavla.cli.no_such_view_module")
    result = invoke("show", ABLUKA_START)
    assert result.exit_code == 0
    assert result.stdout.strip() == ABLUKA_START


@pytest.mark.parametrize("name", tavla.game_names())
def test_every_registered_game_shows_its_start(invoke: Invoke, name: str) -> None:
    start = tavla.find_game(name).start().notation()
    result = invoke("show", start)
    assert result.exit_code == 0
    if tavla.find_game(name).facts.board not in board_view.GAME_VIEWS:
        assert result.stdout.startswith(f"{name}: White to roll")
