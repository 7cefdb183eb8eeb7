"""``tavla analyze FILE``: each player's errors, cube decisions and luck, and the
equity plot (docs/analysis.md)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from tests.cli.cli_helpers import run_subcommand
from typer.testing import Result

from tavla.cli import analyze
from tavla.core.dice import SeededDice
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings


def run(*args: str) -> Result:
    return run_subcommand(analyze, "analyze", *args)


def random_game(path: Path, game: str = "tabla", turns: int = 40) -> Path:
    """A money game of random turns (some of them blunders), stopped by a drop."""
    rng = random.Random(7)
    match = Match(MatchSettings(game=game, length=0, names=("Ayşe", "Boyan")), dice=SeededDice(7))
    while len([a for a in match.actions if a.kind == "move"]) < turns and match.state.result is None:
        match.roll()
        seat = match.state.actor
        if match.state.phase == "move" and seat is not None:
            match.move(seat, rng.choice(list(match.state.position.legal_turns())))
    if match.state.result is None:
        seat = match.state.actor
        assert seat is not None
        match.double(seat)
        match.drop(1 - seat)
    path.write_text(MatchRecord.of(match).to_json())
    return path


def test_the_report_names_each_player_and_the_marked_turns(tmp_path: Path) -> None:
    record = random_game(tmp_path / "game.json")
    result = run(str(record))
    assert result.exit_code == 0, result.output
    assert "Ayşe" in result.output and "Boyan" in result.output
    assert "Marked decisions" in result.output
    assert "blunder" in result.output  # random turns blunder somewhere in 40 turns
    players, marked = result.output.split("Marked decisions")
    heading = next(line for line in players.splitlines() if "player" in line)
    assert cells(heading) == ["player", "turns", "rate", "marks", "cube", "rate", "marks", "luck"]
    figures = r"\d+", r"\d+\.\d", r"\d+/\d+/\d+", r"\d+", r"\d+\.\d", r"\d+/\d+/\d+", r"[+-]\d\.\d{3}"
    for name in ("Ayşe", "Boyan"):
        (row,) = [cells(line) for line in players.splitlines() if f"│ {name} " in line]
        assert row[0] == name and len(row) == 8
        assert all(re.fullmatch(pattern, cell) for pattern, cell in zip(figures, row[1:], strict=True)), row
    heading = next(line for line in marked.splitlines() if "player" in line)
    assert cells(heading) == ["game", "player", "roll", "played", "best", "loss", "mark"]
    loss = heading.split("┃")[6]
    assert loss.startswith("  ") and loss.endswith("loss "), loss  # figures are aligned right


def cells(line: str) -> list[str]:
    """The cells of a row of a table drawn by Rich."""
    return [cell.strip() for cell in re.split("[│┃]", line)[1:-1]]


def test_the_plot_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    record = random_game(tmp_path / "game.json", turns=12)
    picture = tmp_path / "equity.png"
    result = run(str(record), "--plot", str(picture))
    assert result.exit_code == 0, result.output
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_game_no_bot_reviews_is_refused_in_one_line(tmp_path: Path) -> None:
    record = random_game(tmp_path / "indiyka.json", game="indiyka", turns=4)
    result = run(str(record))
    assert result.exit_code == 2
    assert "no trained bot reviews indiyka" in result.output
    assert "Traceback" not in result.output


def test_marked_turns_are_rolled_out_on_request(tmp_path: Path) -> None:
    record = random_game(tmp_path / "game.json", turns=16)
    before = run(str(record))
    result = run(str(record), "--rollout", "--trials", "3", "--truncate", "2")
    assert result.exit_code == 0, result.output
    assert "Marked decisions" in before.output
    rolled = re.search(r"(\d+) marked turns rolled out \(rollout 3x2 vr\)", result.output)
    assert rolled is not None and int(rolled.group(1)) >= 1
    assert "rolled out" in result.output and " ± " in result.output


def test_rollout_settings_are_checked(tmp_path: Path) -> None:
    record = random_game(tmp_path / "game.json", turns=4)
    result = run(str(record), "--rollout", "--trials", "0")
    assert result.exit_code == 2
    assert "--trials" in result.output and "Traceback" not in result.output
    for setting in (
        ["--trials", "9"],
        ["--truncate", "0"],
        ["--no-variance-reduction"],
        ["--processes", "2"],
    ):
        alone = run(str(record), *setting)
        assert alone.exit_code == 2, setting
        assert "go with --rollout" in alone.output and "Traceback" not in alone.output


def test_each_rollout_setting_given_replaces_the_games_default(tmp_path: Path) -> None:
    record = random_game(tmp_path / "game.json", turns=16)
    result = run(
        str(record),
        "--rollout",
        "--trials",
        "2",
        "--truncate",
        "1",
        "--no-variance-reduction",
        "--processes",
        "2",
    )
    assert result.exit_code == 0, result.output
    assert "(rollout 2x1)" in result.output


def test_games_other_than_tabla_are_reviewed_one_roll_deep_unless_told(tmp_path: Path) -> None:
    tabla = run(str(random_game(tmp_path / "tabla.json", turns=4)))
    assert "turns reviewed at 0 plies" in tabla.output
    tapa = random_game(tmp_path / "tapa.json", game="tapa", turns=4)
    assert "turns reviewed at 1 ply" in run(str(tapa)).output
    assert "turns reviewed at 0 plies" in run(str(tapa), "--plies", "0").output
