"""``tavla teach``: tabla's network fitted to GNU Backgammon's estimates (docs/bots.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from tavla.bots.network import Network
from tavla.cli import teach
from tavla.oracles.gnubg import gnubg_available
from tavla.training.teacher import load_dataset


def run(*args: str) -> Result:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    teach.register(app)

    @app.callback()
    def _group() -> None:
        """Sub-commands keep their name."""

    return CliRunner().invoke(app, ["teach", *args])


@pytest.mark.gnubg
@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed")
def test_a_dataset_then_a_network_each_from_one_command(tmp_path: Path) -> None:
    data = tmp_path / "set.npz"
    made = run("--game", "tabla", "--make-dataset", str(data), "--games", "2", "--seed", "4")
    assert made.exit_code == 0, made.output
    texts, targets = load_dataset(str(data))
    assert len(texts) == len(targets) > 100
    again = tmp_path / "again.npz"
    assert run("--game", "tabla", "--make-dataset", str(again), "--games", "2", "--seed", "4").exit_code == 0
    assert load_dataset(str(again))[0] == texts  # the same games for the same seed
    out = tmp_path / "net"
    fitted = run(
        "--game", "backgammon", "--dataset", str(data), "--epochs", "1", "--hidden", "8", "--out", str(out)
    )
    assert fitted.exit_code == 0, fitted.output
    network = Network.load(out.with_suffix(".npz"))
    assert network.hidden == 8
    commands = json.loads(out.with_suffix(".json").read_text())["commands"]
    assert commands[0].startswith("tavla teach --game tabla --make-dataset") and "--epochs 1" in commands[1]


@pytest.mark.gnubg
@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed")
def test_the_student_plays_and_its_next_best_turns_are_kept(tmp_path: Path) -> None:
    data, more = tmp_path / "student.npz", tmp_path / "more.npz"
    common = ("--game", "tabla", "--games", "1", "--seed", "4", "--player", "network", "--alternatives", "0")
    made = run(*common, "--make-dataset", str(data))
    assert run(*common, "--make-dataset", str(more), "--close", "3").exit_code == made.exit_code == 0
    played, _ = load_dataset(str(data))
    texts, targets = load_dataset(str(more))
    assert len(targets) == len(texts) and ((targets >= 0) & (targets <= 1)).all()
    # The same game (the student is deterministic, the dice seeded) with three more turns a roll.
    assert set(played) < set(texts) and len(texts) > 2 * len(played) > 50
    about = json.loads(more.with_suffix(".json").read_text())
    assert about["command"].endswith("--player network --close 3") and about["games"] == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "tapa", "--dataset", "x.npz"], "teaches tabla only, not tapa"),
        (["--game", "tabla"], "either --make-dataset FILE or one or more --dataset FILE"),
        (["--game", "tabla", "--dataset", "missing.npz"], "missing.npz: no such dataset"),
        (
            ["--game", "tabla", "--make-dataset", "x.npz", "--player", "pubeval"],
            "gnubg or network, not 'pubeval'",
        ),
        (["--game", "tabla", "--make-dataset", "x.npz", "--close", "3"], "--close needs --player network"),
    ],
)
def test_what_cannot_be_taught_is_refused_in_one_line(args: list[str], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output
