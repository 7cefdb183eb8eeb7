"""``tavla convert`` between TPN and gnubg's Position ID / Match ID (issue: CLI, notation).

Expected IDs come from GNU Backgammon: the published start IDs and match states
that gnubg itself wrote into ``tests/data/gnubg_ids.json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from tavla.cli import convert

REPO = Path(__file__).resolve().parents[2]
START = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w -"
START_IDS = "Position ID: 4HPwATDgc/ABMA\nMatch ID: cAgAAAAAAAAA\n"


def run(*args: str) -> Result:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.callback()(lambda: None)  # keep "convert" a subcommand, as in the real app
    convert.register(app)
    return CliRunner().invoke(app, ["convert", *args])


def gnubg_scenario(*commands: str) -> dict[str, Any]:
    """The state gnubg reached after ``commands`` (recorded in the IDs fixture)."""
    data = json.loads((REPO / "tests" / "data" / "gnubg_ids.json").read_text())
    for case in data["scenarios"]:
        if case["commands"] == list(commands):
            found: dict[str, Any] = case
            return found
    raise LookupError(commands)


def test_start_position_gives_the_published_ids() -> None:
    result = run(START)
    assert result.exit_code == 0, result.output
    assert result.stdout == START_IDS


def test_match_options_give_the_match_id_gnubg_wrote() -> None:
    # gnubg: player 0 (Black) has 2, player 1 (White) 4, Black owns a 4-cube, White rolled 52.
    case = gnubg_scenario(
        "new match 7", "set score 2 4", "set cube value 4", "set cube owner 0", "set turn 1", "set dice 5 2"
    )
    tpn = START.replace(" w -", " w 52")
    result = run(tpn, "--length", "7", "--score", "4,2", "--cube", "4", "--owner", "b")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"Position ID: {case['position_id']}\nMatch ID: {case['match_id']}\n"


def test_crawford_game() -> None:
    case = gnubg_scenario("new match 5", "set score 4 2", "set crawford on", "set turn 0", "set dice 6 5")
    tpn = START.replace(" w -", " b 65")
    result = run(tpn, "--length", "5", "--score", "2,4", "--crawford")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1] == f"Match ID: {case['match_id']}"


def test_ids_give_the_tpn_in_every_form() -> None:
    expected = START.replace(" w -", " w 52") + "\n"
    assert run("4HPwATDgc/ABMA:QonqACAAIAAE").stdout == expected
    assert run("--position-id", "4HPwATDgc/ABMA", "--match-id", "QonqACAAIAAE").stdout == expected
    assert run("4HPwATDgc/ABMA", "--match-id", "QonqACAAIAAE").stdout == expected
    assert run("--position-id", "4HPwATDgc/ABMA").stdout == START + "\n"
    black_to_roll = START.replace(" w -", " b -") + "\n"
    assert run("--position-id", "4HPwATDgc/ABMA", "--side", "b").stdout == black_to_roll
    assert run("4HPwATDgc/ABMA", "--game", "chelebi").stdout == START.replace("tabla", "chelebi", 1) + "\n"


@pytest.mark.parametrize(
    "tpn",
    [
        "tabla -/-/-/-/-/13w/-/-/-/-/-/-/-/-/-/-/2b/-/3b/2b/2b/2b/2b/2b 2,0 0,0 w 66",
        "tabla 1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/3b 0,0 14,12 b 61",
        "antitabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/4b/-/-/-/-/2w 0,1 0,0 b -",
    ],
)
def test_tpn_to_ids_and_back(tpn: str) -> None:
    lines = run(tpn).stdout.splitlines()
    pid = lines[0].removeprefix("Position ID: ")
    mid = lines[1].removeprefix("Match ID: ")
    game = tpn.split(" ")[0]
    assert run(f"{pid}:{mid}", "--game", game).stdout == tpn + "\n"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 72",), "dice '72'"),
        (("QonqACAAIAAE",), "position id 'QonqACAAIAAE'"),
        (("4HPwATDgc/ABMA:cAgAAAAAAAA",), "match id 'cAgAAAAAAAA'"),
        ((START, "--score", "2,4"), "score '2,4'"),
        ((START, "--length", "5", "--score", "2,5"), "score '2,5'"),
        ((START, "--length", "seven"), "length 'seven'"),
        ((START, "--cube", "3"), "cube '3'"),
        ((START, "--owner", "b"), "owner 'b'"),
        ((START, "--cube", "2", "--owner", "x"), "owner 'x'"),
        ((START, "--length", "5", "--crawford"), "crawford"),
        (("4HPwATDgc/ABMA", "--length", "3"), "--length '3'"),
        (("4HPwATDgc/ABMA:cAgAAAAAAAAA", "--side", "b"), "side 'b'"),
        ((START, "--position-id", "4HPwATDgc/ABMA"), f"input {START!r}: give either a TPN or --position-id"),
        ((START, "--length", "5", "--score", "x,1"), "score 'x': expected a whole number"),
        (("--position-id", "4HPwATDgc/ABMA", "--side", "q"), "side 'q': expected 'w' (White) or 'b' (Black)"),
        (("4HPwATDgc/ABMA", "--crawford"), "--crawford 'on': match options go with a TPN"),
        (("3W3/7/7/7/7/7/3B3 b",), "game 'abluka'"),
        ((), "input"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: tuple[str, ...], named: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tavla: ")
    assert named in lines[0]


def test_the_installed_command() -> None:
    command = Path(sys.executable).with_name("tavla")
    done = subprocess.run([str(command), "convert", START], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == START_IDS
