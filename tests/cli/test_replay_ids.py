"""``tavla replay --ids``: gnubg's Position ID and Match ID after each action (RULES.md 9.4)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import typer
from typer.testing import CliRunner, Result

from tavla.cli import match as match_cli
from tavla.cli import replay as replay_cli
from tavla.core.dice import SeededDice
from tavla.match import Match, MatchRecord, MatchSettings, match_ids, replay_states
from tavla.match.players import RandomPlayer, play_random_match

DATA = Path(__file__).parent.parent / "data" / "match"


def run(*args: str) -> Result:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    match_cli.register(app)  # two commands, so that typer keeps the command name
    replay_cli.register(app)
    return CliRunner().invoke(app, list(args))


def random_record(game: str = "tabla", length: int = 3, setup: tuple[str, str] | None = None) -> MatchRecord:
    settings = MatchSettings(game, length)
    if setup is None:
        match = Match(settings, dice=SeededDice(4), now=lambda: 0)
    else:
        match = Match.from_ids(*setup, settings, dice=SeededDice(4), now=lambda: 0)
    players = (RandomPlayer(random.Random(1)), RandomPlayer(random.Random(2)))
    return MatchRecord.of(play_random_match(match, players))


def id_lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if "Position ID: " in line]


def test_ids_after_every_action_and_in_the_summary(tmp_path: Path) -> None:
    """RULES.md 9.4: one ID line per action, the last also in the summary and the record's ``final``."""
    record = random_record()
    path = tmp_path / "m.json"
    path.write_text(record.to_json())
    result = run("replay", str(path), "--ids")
    assert result.exit_code == 0, result.output
    states = list(replay_states(record))
    expected = [f"Position ID: {p}  Match ID: {m}" for p, m in map(match_ids, states[1:])]
    lines = id_lines(result.output)
    assert lines[:-1] == expected
    assert lines[-1] == "Final " + expected[-1]
    final = json.loads(path.read_text())["final"]
    assert expected[-1] == f"Position ID: {final['position_id']}  Match ID: {final['match_id']}"
    assert id_lines(run("replay", str(path)).output) == []


def test_ids_of_a_gnubg_mat_in_the_final_summary() -> None:
    """RULES.md 9.4: a .mat record has IDs too; ``--final`` prints only the last."""
    result = run("replay", str(DATA / "gnubg" / "gnubg_0.mat"), "--final", "--ids")
    assert result.exit_code == 0, result.output
    assert len(id_lines(result.output)) == 1


def test_a_record_set_up_from_gnubg_ids_replays(tmp_path: Path) -> None:
    """RULES.md 9.4: a record that starts from gnubg IDs says so and replays from them."""
    setup = ("4HPwATDgc/ABMA", "8AmgADAAIAAE")  # gnubg: 5 points, 3-4, Crawford, player 1 to roll
    record = random_record(length=5, setup=setup)
    path = tmp_path / "m.json"
    path.write_text(record.to_json())
    result = run("replay", str(path), "--ids")
    assert result.exit_code == 0, result.output
    assert "Set up from gnubg Position ID 4HPwATDgc/ABMA, Match ID 8AmgADAAIAAE." in result.output
    assert result.output.count("Position ID: ") == len(record.actions) + 1


def test_ids_refused_for_games_without_them(tmp_path: Path) -> None:
    """RULES.md 9.4: gnubg IDs describe the tabla family only; one line and status 2."""
    path = tmp_path / "a.json"
    path.write_text(MatchRecord(MatchSettings("abluka")).to_json())
    result = run("replay", str(path), "--ids")
    assert result.exit_code == 2 and "--ids" in result.output and "abluka" in result.output


def test_a_corrupted_record_is_refused(tmp_path: Path) -> None:
    """RULES.md 9.4: a record whose ``final`` IDs are not its replay's is refused."""
    data = json.loads(random_record().to_json())
    data["final"]["match_id"] = "cAgAAAAAAAAE"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = run("replay", str(path))
    assert result.exit_code == 2 and "final" in result.output and "corrupted" in result.output
