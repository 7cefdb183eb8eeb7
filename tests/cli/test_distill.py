"""``tavla distill``: decisions of a network's self-play with its lookahead's estimates,
then the network fitted to choose as that lookahead does (docs/bots.md, "Distilling
the lookahead")."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tests.cli.cli_helpers import run_subcommand
from typer.testing import Result

from tavla.bots.network import Network
from tavla.cli import distill
from tavla.training.distill import Decisions

pytestmark = pytest.mark.timeout(300)


def run(*args: str) -> Result:
    return run_subcommand(distill, "distill", *args)


def test_decisions_then_a_network_each_from_one_command(tmp_path: Path) -> None:
    data = tmp_path / "a.npz"
    made = run(
        *("--game", "tapa", "--make-decisions", str(data), "--games", "1", "--seed", "2"),
        *("--candidates", "4", "--processes", "1"),
    )
    assert made.exit_code == 0, made.output
    decisions = Decisions.load(data)
    assert len(decisions) > 20 and decisions.texts.shape[1] == 4
    assert all(str(text).startswith("tapa ") for text in decisions.texts[decisions.texts != ""])
    about = json.loads(data.with_suffix(".json").read_text())
    assert about["decisions"] == len(decisions) and about["games"] == 1 and about["plies"] == 1
    assert about["network"] == Network.shipped("tapa").metadata["commands"]
    assert about["command"].startswith("tavla distill --game tapa --make-decisions")
    candidates = int(decisions.counts.sum())
    assert (
        made.output.splitlines()[-1]
        == f"{len(decisions)} decisions ({candidates} candidates) from 1 game: {data}"
    )
    assert run("--game", "tapa", "--make-decisions", str(data)).exit_code == 2  # never overwritten

    out = tmp_path / "net"
    fitted = run("--game", "tapa", "--decisions", str(data), "--epochs", "2", "--out", str(out))
    assert fitted.exit_code == 0, fitted.output
    assert "epoch 2: held out, the lookahead's best picked" in fitted.output
    network, shipped = Network.load(out.with_suffix(".npz")), Network.shipped("tapa")
    assert network.hidden == shipped.hidden and not np.array_equal(network.w1, shipped.w1)
    commands = network.metadata["commands"]
    assert commands[: len(shipped.metadata["commands"])] == shipped.metadata["commands"]
    assert commands[-2] == about["command"] and commands[-1].startswith(
        "tavla distill --game tapa --decisions"
    )
    assert network.metadata["distilled_decisions"] == len(decisions)
    assert network.metadata["games"] == shipped.metadata["games"] + 1 and network.metadata["seed"] == 0
    assert "last_benchmark" not in network.metadata  # it was the shipped network's
    last_epoch = [line for line in fitted.output.splitlines() if line.startswith("epoch 2:")]
    assert f"picked {network.metadata['distilled_agreement']:.1%}" in last_epoch[0]

    # Ten decisions are too few to hold one out: the fit says so and writes no figure for it.
    few = tmp_path / "few.npz"
    Decisions(decisions.texts[:10], decisions.estimates[:10]).save(few)
    small = run("--game", "tapa", "--decisions", str(few), "--epochs", "1", "--out", str(tmp_path / "small"))
    assert small.exit_code == 0, small.output
    assert "epoch 1: nothing held out (too few decisions)" in small.output
    written = json.loads((tmp_path / "small.json").read_text())
    assert written["distilled_agreement"] is None and written["distilled_equity_lost"] is None


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "tapa"], "either --make-decisions FILE or one or more --decisions FILE"),
        (["--game", "indiyka", "--decisions", "x.npz"], "indiyka has no network to teach"),
        (["--game", "tapa", "--decisions", "missing.npz"], "missing.npz: no such decisions"),
        (["--game", "tapa", "--decisions", __file__], f"{__file__}: not decisions made by tavla distill"),
        (["--game", "tapa", "--decisions", "x.npz", "--refine", "none.npz"], "none.npz: no such weights"),
        (
            ["--game", "tapa", "--make-decisions", "x.npz", "--weights", "none.npz"],
            "none.npz: no such weights",
        ),
        (["--game", "tapa", "--decisions", "x.npz", "--temperature", "0"], "--temperature must be above 0"),
        (
            ["--game", "tapa", "--make-decisions", "x.npz", "--candidates", "1"],
            "Invalid value for '--candidates'",
        ),
    ],
)
def test_what_cannot_be_distilled_is_refused_in_one_line(args: list[str], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output
