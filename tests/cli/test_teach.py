"""``tavla teach``: tabla's network fitted to GNU Backgammon's estimates (docs/bots.md)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from tests.cli.cli_helpers import run_subcommand
from typer.testing import Result

from tavla.bots.network import Network
from tavla.cli import teach
from tavla.oracles.gnubg import gnubg_available
from tavla.training.teacher import load_dataset


def run(*args: str) -> Result:
    return run_subcommand(teach, "teach", *args)


def taught_by_own_network(
    data: Path, game: str, *args: str
) -> tuple[list[str], npt.NDArray[np.float64], dict[str, object]]:
    """A dataset of one self-play game of ``game`` labelled by its shipped network as
    ``args`` ask: its texts, targets and description, after the checks every such set passes."""
    made = run(
        *("--game", game, "--games", "1", "--seed", "3", "--alternatives", "0", "--processes", "1"),
        *("--make-dataset", str(data), *args),
    )
    assert made.exit_code == 0, made.output
    texts, targets = load_dataset(str(data))
    assert len(texts) == len(targets) > 20 and all(text.startswith(f"{game} ") for text in texts)
    about: dict[str, object] = json.loads(data.with_suffix(".json").read_text())
    assert str(about["command"]).endswith(" ".join(args))
    assert about["teacher_network"] == Network.shipped(game).metadata["commands"]
    return texts, targets, about


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


@pytest.mark.gnubg
@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed")
def test_deeper_targets_for_a_sample_of_found_positions_then_a_refined_network(tmp_path: Path) -> None:
    found, deeper = tmp_path / "found.npz", tmp_path / "deeper.npz"
    assert run("--game", "tabla", "--make-dataset", str(found), "--games", "1", "--seed", "2").exit_code == 0
    made = run(
        *("--game", "tabla", "--make-dataset", str(deeper), "--relabel", str(found)),
        *("--plies", "1", "--sample", "40", "--seed", "5"),
    )
    assert made.exit_code == 0, made.output
    texts, shallow = load_dataset(str(found))
    sampled, targets = load_dataset(str(deeper))
    assert len(sampled) == 40 and set(sampled) <= set(texts)
    at_zero = shallow[[texts.index(text) for text in sampled]]
    assert np.abs(targets - at_zero).max() > 0.01  # 1-ply estimates, not the 0-ply ones again
    about = json.loads(deeper.with_suffix(".json").read_text())
    assert (
        about["teacher"] == "gnubg 1-ply" and about["positions"] == 40 and "--sample 40" in about["command"]
    )
    first, refined = tmp_path / "first", tmp_path / "refined"
    common = ("--game", "tabla", "--epochs", "1", "--hidden", "8")
    assert run(*common, "--dataset", str(found), "--out", str(first)).exit_code == 0
    again = run(*common, "--dataset", str(deeper), "--out", str(refined), "--refine", f"{first}.npz")
    assert again.exit_code == 0, again.output
    before, after = Network.load(f"{first}.npz"), Network.load(f"{refined}.npz")
    assert after.hidden == 8 and not np.array_equal(before.w1, after.w1)
    meta = after.metadata
    assert meta["teacher"] == "gnubg 1-ply" and "--refine" in meta["command"]
    # first's dataset and fit, then the relabelled set's source, its relabelling and this fit
    assert len(meta["commands"]) == 5 and meta["commands"][2] == meta["commands"][0]
    # Both sets at once, with the chance terms: the 40 relabelled positions are fitted
    # once, on their 1-ply labels.
    both = tmp_path / "both"
    fitted = run(
        *common, "--dataset", str(found), "--dataset", str(deeper), "--terms", "--chances", "--out", str(both)
    )
    assert fitted.exit_code == 0, fitted.output
    assert "40 rows of positions labelled more than once left out" in fitted.output
    network = Network.load(f"{both}.npz")
    assert network.term_label == "chances" and "--terms --chances" in network.metadata["command"]
    assert network.metadata["positions"] == len(set(texts))


def test_a_variant_is_taught_by_its_network_s_own_lookahead(tmp_path: Path) -> None:
    data = tmp_path / "tapa.npz"
    texts, targets, about = taught_by_own_network(
        data, "tapa", "--player", "network", "--close", "1", "--teacher", "network", "--plies", "1"
    )
    assert len(texts) > 50 and about["teacher"] == "network 1-ply"
    # A sample of it again, two plies deep, then a network fitted on both: each position
    # once, on its deepest label.
    deeper = tmp_path / "deeper.npz"
    again = run(
        *("--game", "tapa", "--make-dataset", str(deeper), "--relabel", str(data)),
        *("--teacher", "network", "--plies", "2", "--sample", "3", "--seed", "1", "--processes", "1"),
    )
    assert again.exit_code == 0, again.output
    sampled, two_ply = load_dataset(str(deeper))
    one_ply = targets[[texts.index(text) for text in sampled]]
    assert len(sampled) == 3 and np.abs(two_ply - one_ply).max() > 0.001
    # The rest of them, none of those already relabelled.
    rest = tmp_path / "rest.npz"
    common = ("--teacher", "network", "--plies", "1", "--processes", "1")
    more = run(
        *("--game", "tapa", "--make-dataset", str(rest), "--relabel", str(data), "--skip", str(deeper)),
        *common,
    )
    assert more.exit_code == 0, more.output
    others, _ = load_dataset(str(rest))
    assert len(others) == len(texts) - 3 and not set(others) & set(sampled)
    assert f"--skip {deeper}" in json.loads(rest.with_suffix(".json").read_text())["command"]
    # Fitted alone, the relabelled positions still come from the one game played.
    alone = run(
        "--game",
        "tapa",
        "--dataset",
        str(rest),
        "--hidden",
        "8",
        "--epochs",
        "1",
        "--out",
        str(tmp_path / "a"),
    )
    assert alone.exit_code == 0, alone.output
    assert Network.load(tmp_path / "a.npz").metadata["games"] == 1
    out = tmp_path / "net"
    fitted = run(
        *("--game", "tapa", "--dataset", str(data), "--dataset", str(deeper)),
        *("--terms", "--hidden", "8", "--epochs", "1", "--out", str(out)),
    )
    assert fitted.exit_code == 0, fitted.output
    assert "3 rows of positions labelled more than once left out" in fitted.output
    network = Network.load(out.with_suffix(".npz"))
    assert network.game == "tapa" and network.term_label is not None
    assert network.metadata["teacher"] == "network 1-ply and network 2-ply" and network.metadata["games"] == 1
    teacher = Network.shipped("tapa").metadata["commands"]
    assert network.metadata["commands"][: len(teacher)] == teacher
    # The fit's own command, run again as written but for its --out, fits the same weights.
    words = shlex.split(network.metadata["command"])
    assert words[:2] == ["tavla", "teach"] and words[words.index("--out") + 1] == str(out)
    words[words.index("--out") + 1] = str(tmp_path / "remade")
    remade = run(*words[2:])
    assert remade.exit_code == 0, (words, remade.output)
    again_fitted = Network.load(tmp_path / "remade.npz")
    assert again_fitted.term_label == network.term_label and np.array_equal(again_fitted.w1, network.w1)
    # A dataset of another game is refused by name.
    wrong = run("--game", "gulbara", "--dataset", str(data), "--out", str(tmp_path / "gulbara"))
    assert wrong.exit_code == 2 and f"{data} holds positions of tapa, not gulbara" in wrong.output


def test_a_variant_is_taught_by_its_network_s_own_rollouts(tmp_path: Path) -> None:
    data = tmp_path / "rolled.npz"
    texts, targets, about = taught_by_own_network(
        data, "antitabla", "--teacher", "rollout", "--trials", "2", "--truncate", "2"
    )
    assert about["teacher"] == "network rollout 2x2 vr"
    # Three of them at 1-ply, fitted first: the rollout's label, two turns deep, is kept.
    shallow = tmp_path / "shallow.npz"
    again = run(
        *("--game", "antitabla", "--make-dataset", str(shallow), "--relabel", str(data)),
        *("--teacher", "network", "--plies", "1", "--sample", "3", "--seed", "1", "--processes", "1"),
    )
    assert again.exit_code == 0, again.output
    sampled, one_ply = load_dataset(str(shallow))
    rolled = targets[[texts.index(text) for text in sampled]]
    assert np.abs(one_ply - rolled).max() > 0.001
    out = tmp_path / "net"
    fitted = run(
        *("--game", "antitabla", "--dataset", str(shallow), "--dataset", str(data)),
        *("--hidden", "8", "--epochs", "1", "--out", str(out)),
    )
    assert fitted.exit_code == 0, fitted.output
    assert "3 rows of positions labelled more than once left out" in fitted.output
    network = Network.load(out.with_suffix(".npz"))
    assert network.metadata["teacher"] == "network 1-ply and network rollout 2x2 vr"
    assert network.metadata["positions"] == len(set(texts))


def remade(command: str, option: str, path: Path) -> Result:
    """``command`` run again as written, but for the file given to ``option``."""
    words = shlex.split(command)
    assert words[:2] == ["tavla", "teach"]
    words[words.index(option) + 1] = str(path)
    return run(*words[2:])


def test_each_command_noted_with_a_dataset_or_network_makes_it_again(tmp_path: Path) -> None:
    weights = Network.shipped("antitabla").save(tmp_path / "student")
    data = tmp_path / "played.npz"
    made = run(
        *("--game", "antitabla", "--games", "1", "--seed", "3", "--alternatives", "0", "--processes", "1"),
        *("--player", "network", "--weights", str(weights), "--teacher", "network", "--plies", "1"),
        *("--make-dataset", str(data)),
    )
    assert made.exit_code == 0, made.output
    texts, targets = load_dataset(str(data))
    assert made.output.splitlines()[-1] == f"{len(texts)} positions from 1 game: {data}"
    assert re.search(r"network 1-ply estimates .* 100%", made.output)  # the bar was kept up to date
    command = json.loads(data.with_suffix(".json").read_text())["command"]
    assert f"--weights {weights}" in command
    again = tmp_path / "again.npz"
    assert remade(command, "--make-dataset", again).exit_code == 0
    assert load_dataset(str(again))[0] == texts and np.array_equal(load_dataset(str(again))[1], targets)
    # A sample of it labelled again: its command draws the same sample.
    sample = tmp_path / "sample.npz"
    relabelled = run(
        *("--game", "antitabla", "--make-dataset", str(sample), "--relabel", str(data)),
        *("--teacher", "network", "--plies", "1", "--sample", "25", "--seed", "9", "--processes", "1"),
    )
    assert relabelled.exit_code == 0, relabelled.output
    sampled, _ = load_dataset(str(sample))
    about = json.loads(sample.with_suffix(".json").read_text())
    assert len(sampled) == 25 and about["source"] == command
    assert remade(about["command"], "--make-dataset", tmp_path / "resampled.npz").exit_code == 0
    assert load_dataset(str(tmp_path / "resampled.npz"))[0] == sampled
    # A network fitted on the sample notes the commands behind it, in order, then its own.
    fitted = tmp_path / "fitted"
    fit = run(
        *("--game", "antitabla", "--dataset", str(sample), "--terms", "--chances"),
        *("--hidden", "4", "--epochs", "2", "--seed", "1", "--out", str(fitted)),
    )
    assert fit.exit_code == 0, fit.output
    assert "fitting 25 positions" in fit.output
    epochs = [line for line in fit.output.splitlines() if line.startswith("epoch")]
    assert [line.split(",")[1].split()[:2] for line in epochs] == [["held", "out"]] * 2
    network = Network.load(f"{fitted}.npz")
    meta = network.metadata
    teacher = Network.shipped("antitabla").metadata["commands"]
    assert meta["commands"] == [*teacher, command, about["command"], meta["command"]]
    assert network.term_label == "chances" and "--terms --chances" in meta["command"]
    # One position of 25 held out: its error is the last epoch's.
    assert "--refine" not in meta["command"] and f"{meta['validation_equity_error']:.4f}" in epochs[-1]
    # Refined on the same sample: the network keeps its inputs, and says so.
    refined = tmp_path / "refined"
    assert remade(meta["command"], "--out", tmp_path / "refitted").exit_code == 0
    assert np.array_equal(Network.load(tmp_path / "refitted.npz").w1, network.w1)
    more = run(
        *("--game", "antitabla", "--dataset", str(sample), "--refine", f"{fitted}.npz"),
        *("--epochs", "1", "--out", str(refined)),
    )
    assert more.exit_code == 0, more.output
    refined_meta = Network.load(f"{refined}.npz").metadata
    assert "--hidden 4 --terms --chances" in refined_meta["command"]
    assert refined_meta["command"].endswith(f"--refine {fitted}.npz")


def test_a_dataset_without_its_description_is_still_relabelled(tmp_path: Path) -> None:
    data = tmp_path / "bare.npz"
    taught_by_own_network(data, "antitabla", "--teacher", "network", "--plies", "1")
    data.with_suffix(".json").unlink()
    sample = tmp_path / "sample.npz"
    relabelled = run(
        *("--game", "antitabla", "--make-dataset", str(sample), "--relabel", str(data)),
        *("--teacher", "network", "--plies", "1", "--sample", "2", "--processes", "1"),
    )
    assert relabelled.exit_code == 0, relabelled.output
    about = json.loads(sample.with_suffix(".json").read_text())
    assert about["source"] == str(data) and about["games"] == about["source_games"] == 0
    # Two positions are too few to hold one out: no error is made up for them.
    out = tmp_path / "net"
    fitted = run(
        "--game", "antitabla", "--dataset", str(sample), "--hidden", "4", "--epochs", "1", "--out", str(out)
    )
    assert fitted.exit_code == 0, fitted.output
    assert re.search(
        r"^epoch 1: loss \d\.\d{4}, nothing held out \(too few positions\)$", fitted.output, re.M
    )
    assert json.loads(out.with_suffix(".json").read_text())["validation_equity_error"] is None


GNUBG_TABLA_ONLY = (
    "GNU Backgammon plays and teaches tabla only, not tapa: "
    "use --teacher network (the network's own lookahead) or rollout"
)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "tapa", "--make-dataset", "x.npz"], GNUBG_TABLA_ONLY),
        (
            ["--game", "tapa", "--make-dataset", "x.npz", "--teacher", "network", "--player", "gnubg"],
            GNUBG_TABLA_ONLY,
        ),
        (
            ["--game", "indiyka", "--dataset", "x.npz"],
            "indiyka has no network to teach (games with one: tabla, antitabla, chelebi, tapa, gulbara)",
        ),
        (
            ["--game", "tapa", "--make-dataset", "x.npz", "--teacher", "pubeval"],
            "--teacher is gnubg, network or rollout, not 'pubeval'",
        ),
        (
            ["--game", "tapa", "--make-dataset", "x.npz", "--teacher", "rollout", "--plies", "1"],
            "--teacher rollout plays the positions out: give --trials and --truncate, not --plies",
        ),
        (
            ["--game", "tapa", "--make-dataset", "x.npz", "--teacher", "network"],
            "--teacher network needs --plies 1 or 2 (its own 0-ply teaches nothing), not 0",
        ),
        (["--game", "tabla"], "give either --make-dataset FILE or one or more --dataset FILE"),
        (
            ["--game", "tabla", "--dataset", "missing.npz"],
            "missing.npz: no such dataset (make one with --make-dataset)",
        ),
        (
            ["--game", "tabla", "--make-dataset", "x.npz", "--player", "pubeval"],
            "--player is gnubg or network, not 'pubeval'",
        ),
        (
            ["--game", "tabla", "--make-dataset", "x.npz", "--close", "3"],
            "--close needs --player network: gnubg does not tell its next best turns here",
        ),
        (["--game", "tabla", "--make-dataset", "x.npz", "--plies", "3"], "--plies is 0, 1 or 2, not 3"),
        (
            ["--game", "tabla", "--make-dataset", "x.npz", "--relabel", "none.npz"],
            "none.npz: no such dataset to relabel",
        ),
        # Two plies of gnubg are allowed: the next thing wrong is what is refused.
        (
            ["--game", "tabla", "--make-dataset", "x.npz", "--relabel", "none.npz", "--plies", "2"],
            "none.npz: no such dataset to relabel",
        ),
        (
            ["--game", "tabla", "--dataset", "x.npz", "--refine", "none.npz"],
            "none.npz: no such weights to refine",
        ),
        (
            ["--game", "tabla", "--make-dataset", "x.npz", "--relabel", __file__, "--skip", "none.npz"],
            "none.npz: no such dataset to skip",
        ),
        (
            ["--game", "tabla", "--dataset", "x.npz", "--raw", "--chances"],
            "--chances goes with --terms: they are terms of the board",
        ),
    ],
)
def test_what_cannot_be_taught_is_refused_in_one_line(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.output == f"tavla: {message}\n"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["--game", "tapa", "--make-dataset", "x.npz", "--teacher", "rollout", "--trials", "0"],
            "Invalid value for '--trials'",
        ),
        (
            ["--game", "tabla", "--make-dataset", "x.npz", "--relabel", __file__],
            f"{__file__}: not a dataset made by tavla teach",
        ),
        (["--game", "tabla", "--dataset", __file__], f"{__file__}: not a dataset made by tavla teach"),
    ],
)
def test_what_cannot_be_read_is_refused_by_name(args: list[str], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output
