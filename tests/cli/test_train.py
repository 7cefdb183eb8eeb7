"""``tavla train``: checkpoints, the strength log and plot, resumption, final weights."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import numpy as np
import pytest
from tests.cli.cli_helpers import run_subcommand
from typer.testing import Result

from tavla.bots.network import Network
from tavla.cli import train
from tavla.training.run import file_digest


def run(*args: str) -> Result:
    return run_subcommand(train, "train", *args)


QUICK = [
    "--games",
    "4",
    "--hidden",
    "8",
    "--bench-every",
    "2",
    "--bench-games",
    "2",
    "--checkpoint-every",
    "2",
]


def test_train_writes_checkpoint_log_and_weights(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    result = run("--game", "tabla", "--dir", str(folder), "--seed", "2", "--no-plot", *QUICK)
    assert result.exit_code == 0, result.output
    assert "4 games" in result.output
    assert (folder / "checkpoint.npz").exists()
    assert not (folder / "strength.png").exists()
    log = (folder / "strength.csv").read_text().splitlines()
    assert log[0].startswith("games,") and [line.split(",")[0] for line in log[1:]] == ["0", "2", "4"]
    metadata = json.loads((folder / "tabla.json").read_text())
    assert metadata["games"] == 4 and metadata["seed"] == 2 and metadata["game"] == "tabla"
    assert metadata["command"].startswith("tavla train --game tabla")
    # Going on from the checkpoint: more games, the same folder, a second command noted.
    result = run("--game", "tabla", "--dir", str(folder), "--resume", "--games", "6", "--no-plot")
    assert result.exit_code == 0, result.output
    network = Network.load(folder / "tabla.npz")
    assert network.metadata["games"] == 6 and len(network.metadata["commands"]) == 2
    whole = tmp_path / "whole"
    result = run(
        "--game", "tabla", "--dir", str(whole), "--seed", "2", "--no-plot", *QUICK[:-2], "--games", "6"
    )
    assert result.exit_code == 0, result.output
    assert np.array_equal(Network.load(whole / "tabla.npz").w1, network.w1)


def test_train_refuses_to_overwrite_a_run_and_games_without_dice(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    assert run("--game", "indiyka", "--dir", str(folder), "--no-plot", *QUICK).exit_code == 0
    again = run("--game", "indiyka", "--dir", str(folder), "--no-plot", *QUICK)
    assert again.exit_code == 2 and "--resume" in again.output
    other = run("--game", "tabla", "--dir", str(folder), "--resume", "--no-plot")
    assert other.exit_code == 2 and "indiyka" in other.output
    abluka = run("--game", "abluka", "--dir", str(tmp_path / "a"), "--no-plot")
    assert abluka.exit_code == 2 and "no dice" in abluka.output
    unknown = run("--game", "tabla", "--dir", str(tmp_path / "b"), "--no-plot", "--opponent", "gnubg")
    assert unknown.exit_code == 2 and "opponent" in unknown.output


def test_train_plots_the_strength_log(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    folder = tmp_path / "run"
    result = run("--game", "tabla", "--dir", str(folder), *QUICK)
    assert result.exit_code == 0, result.output
    assert (folder / "strength.png").read_bytes()[:4] == b"\x89PNG"


def test_a_run_can_start_from_weights_made_elsewhere(tmp_path: Path) -> None:
    first = tmp_path / "first"
    assert run("--game", "tabla", "--dir", str(first), "--seed", "2", "--no-plot", *QUICK).exit_code == 0
    start = Network.load(first / "tabla.npz")
    second = tmp_path / "second"
    quick = ["--games", "2", *QUICK[4:]]  # two more games, from those weights
    result = run(
        "--game", "tabla", "--dir", str(second), "--init", str(first / "tabla.npz"), "--no-plot", *quick
    )
    assert result.exit_code == 0, result.output
    network = Network.load(second / "tabla.npz")
    assert network.hidden == start.hidden and not np.array_equal(network.w1, start.w1)
    meta = network.metadata
    assert meta["init_games"] == 4 and meta["games"] == 2
    source = first / "tabla.npz"
    assert meta["init_weights"] == {"path": str(source), "sha256": file_digest(source)}
    assert meta["commands"][0] == start.metadata["commands"][0]
    words = shlex.split(meta["commands"][-1])
    assert words[words.index("--init") + 1] == str(source)
    assert meta["command"] == meta["commands"][-1]  # this run's own, the lineage before it
    # The weights were loaded, not drawn: its benchmark at game 0 is the first run's last.
    first_log = (first / "strength.csv").read_text().splitlines()
    second_log = (second / "strength.csv").read_text().splitlines()
    assert first_log[-1].split(",")[3:] == second_log[1].split(",")[3:]
    again = run("--game", "tabla", "--dir", str(second), "--resume", "--init", str(first / "tabla.npz"))
    assert again.exit_code == 2 and "does not go with --resume" in again.output
    other = run(
        "--game", "tapa", "--dir", str(tmp_path / "t"), "--init", str(first / "tabla.npz"), "--no-plot"
    )
    assert other.exit_code == 2 and "a network of tabla cannot start one of tapa" in other.output
    missing = run("--game", "tabla", "--dir", str(tmp_path / "m"), "--init", str(tmp_path / "none.npz"))
    assert missing.exit_code == 2 and "none.npz: no such weights" in missing.output


def test_a_run_from_weights_may_widen_them(tmp_path: Path) -> None:
    first = tmp_path / "first"
    assert run("--game", "tabla", "--dir", str(first), "--seed", "2", "--no-plot", *QUICK).exit_code == 0
    second = tmp_path / "second"
    quick = ["--games", "2", "--hidden", "12", *QUICK[4:]]
    result = run(
        "--game", "tabla", "--dir", str(second), "--init", str(first / "tabla.npz"), "--no-plot", *quick
    )
    assert result.exit_code == 0, result.output
    network = Network.load(second / "tabla.npz")
    assert network.hidden == 12 and network.metadata["widened_from"] == 8
    assert np.any(network.w2[8:])  # training has given the new units a say
    assert "--hidden 12" in network.metadata["command"] and "--init" in network.metadata["command"]
    # Widening leaves the estimates as they were: the benchmark at game 0 is the first run's last.
    first_log = (first / "strength.csv").read_text().splitlines()
    second_log = (second / "strength.csv").read_text().splitlines()
    assert first_log[-1].split(",")[3:] == second_log[1].split(",")[3:]
    narrow = run(
        "--game",
        "tabla",
        "--dir",
        str(tmp_path / "n"),
        "--init",
        str(first / "tabla.npz"),
        "--hidden",
        "4",
        "--no-plot",
    )
    assert narrow.exit_code == 2 and "cannot be narrowed to 4" in narrow.output


def test_a_run_from_weights_may_give_them_the_next_rolls_chances(tmp_path: Path) -> None:
    first = tmp_path / "first"
    assert run("--game", "tapa", "--dir", str(first), "--seed", "2", "--no-plot", *QUICK).exit_code == 0
    second = tmp_path / "second"
    quick = ["--games", "2", *QUICK[4:]]
    result = run(
        "--game",
        "tapa",
        "--dir",
        str(second),
        "--init",
        str(first / "tapa.npz"),
        "--chances",
        "--no-plot",
        *quick,
    )
    assert result.exit_code == 0, result.output
    start, network = Network.load(first / "tapa.npz"), Network.load(second / "tapa.npz")
    assert network.term_label == "chances" and network.inputs == start.inputs + 4
    assert np.any(network.w1[start.inputs :])  # training has given the chances a say
    assert "--chances" in network.metadata["command"] and "--init" in network.metadata["command"]
    # The chances start with no weight: the benchmark at game 0 is the first run's last.
    first_log = (first / "strength.csv").read_text().splitlines()
    second_log = (second / "strength.csv").read_text().splitlines()
    assert first_log[-1].split(",")[3:] == second_log[1].split(",")[3:]
    raw = run("--game", "tapa", "--dir", str(tmp_path / "raw"), "--raw", "--chances", "--no-plot")
    assert raw.exit_code == 2 and "--chances goes with the board terms" in raw.output
    none = run("--game", "gulbara", "--dir", str(tmp_path / "g"), "--chances", "--no-plot", *QUICK)
    assert none.exit_code == 2 and "no board terms called 'chances'" in none.output


def test_a_run_may_play_by_a_policy_network_and_names_it(tmp_path: Path) -> None:
    policy = Network.create("tabla", hidden=8, seed=5).save(tmp_path / "policy.npz")
    folder = tmp_path / "run"
    result = run("--game", "tabla", "--dir", str(folder), "--policy", str(policy), "--no-plot", *QUICK)
    assert result.exit_code == 0, result.output
    metadata = json.loads((folder / "tabla.json").read_text())
    assert metadata["command"].endswith(f"--policy {policy}")
    assert metadata["policy"]["path"] == str(policy) and len(metadata["policy"]["sha256"]) == 64
    again = run("--game", "tabla", "--dir", str(folder), "--resume", "--policy", str(policy), "--no-plot")
    assert again.exit_code == 2 and "keeps the policy" in again.output
    missing = run(
        "--game", "tabla", "--dir", str(tmp_path / "b"), "--policy", str(tmp_path / "x.npz"), "--no-plot"
    )
    assert missing.exit_code == 2 and "no such policy weights" in missing.output


@pytest.mark.timeout(120)
def test_the_commands_noted_with_the_weights_make_them_again(tmp_path: Path) -> None:
    """The metadata's commands, run as written in another folder, give the same weights:
    the first run's every setting, then the resumption's."""
    first = tmp_path / "first"
    options = ["--seed", "5", "--coached", "0.5", "--alpha", "0.05", "--no-plot", *QUICK]
    assert run("--game", "tapa", "--dir", str(first), *options).exit_code == 0
    resumed = run(
        "--game", "tapa", "--dir", str(first), "--resume", "--games", "6", "--alpha", "0.02", "--no-plot"
    )
    assert resumed.exit_code == 0, resumed.output
    made = Network.load(first / "tapa.npz")
    again = tmp_path / "again"
    for command in made.metadata["commands"]:
        words = shlex.split(command)
        assert words[:2] == ["tavla", "train"] and words[words.index("--dir") + 1] == str(first)
        words[words.index("--dir") + 1] = str(again)
        done = run(*words[2:], "--no-plot")
        assert done.exit_code == 0, (command, done.output)
    remade = Network.load(again / "tapa.npz")
    assert remade.metadata["games"] == 6 and remade.metadata["alpha"] == 0.02
    assert np.array_equal(remade.w1, made.w1) and np.array_equal(remade.w2, made.w2)
