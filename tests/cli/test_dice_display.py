"""Every display shows a roll with the higher die first (``6-5``), whatever the order
in which the dice fell; records and TPN keep theirs."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import typer
from rich.console import Console
from tests.cli.cli_helpers import START
from typer.testing import CliRunner

import tavla
from tavla.cli import match as match_cli
from tavla.cli import play as play_cli
from tavla.cli import replay as replay_cli
from tavla.cli import show as show_cli
from tavla.cli.board_view import position_renderable
from tavla.cli.match import describe
from tavla.cli.play_abluka import play_abluka
from tavla.cli.turn_entry import dice_text
from tavla.core.dice import SeededDice
from tavla.match.actions import ActionKind, MatchAction
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings
from tavla.render.board import board_view, roll_text, status_line
from tavla.render.svg import board_svg

LOW_FIRST = START.replace(" w -", " w 13")
SHOWN_ROLL = re.compile(r"(?:to play|rolls|rolled|with) (\d)-(\d)")


def app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    for module in (match_cli, replay_cli, play_cli, show_cli):
        module.register(app)
    return app


def rolls_shown(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in SHOWN_ROLL.findall(text)]


def test_roll_text_puts_the_higher_die_first() -> None:
    assert roll_text((1, 3)) == roll_text((3, 1)) == roll_text("13") == "3-1"
    assert roll_text((4, 4)) == "4-4"


def test_board_pictures_show_the_higher_die_first() -> None:
    assert status_line(board_view(LOW_FIRST)) == "White to play 3-1"
    console = Console(file=io.StringIO(), width=100, color_system=None)
    position = tavla.from_notation(LOW_FIRST)
    console.print(position_renderable(position))
    assert "White to play 3-1" in console.file.getvalue()  # type: ignore[attr-defined]
    assert dice_text(position) == "3-1"
    root = ET.fromstring(board_svg(board_view(LOW_FIRST)))
    dice = [
        e.get("data-value") for e in root.iter("{http://www.w3.org/2000/svg}rect") if e.get("class") == "die"
    ]
    assert dice == ["3", "1"]


def test_show_keeps_the_tpn_as_written() -> None:
    result = CliRunner().invoke(app(), ["show", LOW_FIRST])
    assert result.exit_code == 0, result.output
    assert "White to play 3-1" in result.output


def test_match_messages_show_the_higher_die_first() -> None:
    match = Match(MatchSettings("tabla", 1), dice=SeededDice(1), now=lambda: 0)
    before = match.state
    action = MatchAction(ActionKind.ROLL, 0, "25")
    assert describe(action, before, before).endswith("rolls 5-2.")


def test_match_replay_and_play_output_never_shows_the_low_die_first(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "m.json"
    played = runner.invoke(app(), ["match", "--length", "3", "--white", "random", "--black", "random",
                                   "--seed", "6", "--out", str(out)])  # fmt: skip
    assert played.exit_code == 0, played.output
    record = MatchRecord.from_json(out.read_text())
    raw = [a.value for a in record.actions if a.kind == "roll" and a.seat is not None]
    assert any(value[0] < value[1] for value in raw)  # the record keeps the order rolled
    replayed = runner.invoke(app(), ["replay", str(out), "--board"])
    human = runner.invoke(app(), ["match", "--length", "1", "--seed", "2"], input="\n" * 6)
    tabla = runner.invoke(app(), ["play", "tabla", "--seed", "3"], input="\n" * 3)
    for output in (played.output, replayed.output, human.output, tabla.output):
        shown = rolls_shown(output)
        assert shown and all(high >= low for high, low in shown), output


def test_an_empty_line_shows_the_prompt_again_in_abluka_as_in_tabla() -> None:
    prompts: list[str] = []
    answers = iter(["", "   ", "quit"])

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    console = Console(file=io.StringIO(), width=100, color_system=None)
    assert play_abluka("beginner", "b", 20, read=read, console=console, seed=1, echo=False) is None
    assert prompts == ["king to? "] * 3
    assert "Not allowed" not in console.file.getvalue()  # type: ignore[attr-defined]
    tabla = CliRunner().invoke(app(), ["play", "tabla", "--seed", "3", "--color", "w"], input="\n\nquit\n")
    prompt = next(line for line in tabla.output.splitlines() if "to play" in line and line.endswith("> "))
    assert tabla.output.count(prompt) >= 3 and "not legal" not in tabla.output
