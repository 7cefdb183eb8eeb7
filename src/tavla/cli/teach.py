"""``tavla teach``: train an evaluator on a teacher's estimates of positions.

Two steps, each one command, each deterministic for its seed:

    tavla teach --game tabla --make-dataset a.npz --games 3000 --seed 11
    tavla teach --game tabla --dataset a.npz [--dataset b.npz ...] --out tabla --seed 0

The teacher is GNU Backgammon (tabla), or with ``--teacher network`` the network's own
lookahead at ``--plies`` 1 or 2, or with ``--teacher rollout`` its own rollouts
(``--trials`` games from each position, each stopped after ``--truncate`` turns), for
every game with a network (docs/bots.md, "Teaching a variant by its own lookahead").

The first plays ``--games`` games of gnubg (0-ply) against itself and keeps every
position after a turn played, and ``--alternatives`` random legal turns not played,
with gnubg's 0-ply estimate of each (docs/bots.md, "Training from a teacher").
With ``--player network`` the student plays instead (the shipped network, or
``--weights``) and ``--close`` of the turns it rated next best are kept too, so
that the teacher corrects the student's ranking where its choices are close. The
second fits a fresh network (``--hidden`` units, weights drawn from ``--seed``, the
batches shuffled from ``--seed`` + 1) to the positions of every dataset, in order.
"""

from __future__ import annotations

import json
import math
import shlex
from collections.abc import Sequence
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tavla.cli.errors import fail, reports_errors
from tavla.cli.wording import counted, rounded

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from tavla.bots.network import Network
    from tavla.bots.rollout import RolloutSettings
    from tavla.training.supervised import EpochReport

TEACHER_GAMES = ("tabla",)
"""Games GNU Backgammon can teach: its rules are tabla's."""
NETWORK_GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara")
"""Games played by a network (indiyka's bot computes its chances exactly)."""
TEACHERS = ("gnubg", "network", "rollout")


@reports_errors
def teach_command(
    game: Annotated[str, typer.Option("--game", help="The game to teach.")],
    make_dataset: Annotated[
        Path | None, typer.Option("--make-dataset", help="Write a new labelled dataset here (.npz).")
    ] = None,
    dataset: Annotated[
        list[Path] | None, typer.Option("--dataset", help="A labelled dataset to fit on (repeat for more).")
    ] = None,
    games: Annotated[int, typer.Option(help="--make-dataset: games of the player against itself.")] = 1000,
    alternatives: Annotated[int, typer.Option(help="--make-dataset: turns not played kept per turn.")] = 3,
    processes: Annotated[
        int, typer.Option(min=1, help="--make-dataset: processes labelling at once (gnubg or the network).")
    ] = 2,
    player: Annotated[
        str | None,
        typer.Option(
            help="--make-dataset: who plays, 'gnubg' (0-ply, tabla's default) or 'network' (the student)."
        ),
    ] = None,
    teacher: Annotated[
        str,
        typer.Option(
            help="--make-dataset: who labels, 'gnubg' (tabla), 'network' (its own --plies lookahead) "
            "or 'rollout' (its own rollouts: --trials, --truncate)."
        ),
    ] = "gnubg",
    weights: Annotated[
        Path | None, typer.Option(help="--player network: a weights file instead of the shipped network.")
    ] = None,
    close: Annotated[int, typer.Option(help="--player network: turns it rated next best kept per turn.")] = 0,
    relabel: Annotated[
        Path | None,
        typer.Option(help="--make-dataset: label this dataset's positions again instead of playing games."),
    ] = None,
    plies: Annotated[int, typer.Option(help="--make-dataset: the depth of the teacher's estimates.")] = 0,
    trials: Annotated[
        int, typer.Option(min=1, help="--teacher rollout: games played from each position.")
    ] = 12,
    truncate: Annotated[
        int,
        typer.Option(min=0, help="--teacher rollout: turns after which the network estimates (0: the end)."),
    ] = 10,
    variance_reduction: Annotated[
        bool,
        typer.Option(help="--teacher rollout: take each roll's luck out of the trials' results."),
    ] = True,
    sample: Annotated[
        int | None, typer.Option(help="--relabel: this many of its positions, drawn with --seed.")
    ] = None,
    skip: Annotated[
        list[Path] | None,
        typer.Option(
            help="--relabel: leave out the positions of this dataset before drawing (repeat for more)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the games, or of the network and its batches.")] = 0,
    hidden: Annotated[int, typer.Option(help="Hidden units of the network.")] = 128,
    terms: Annotated[
        bool,
        typer.Option(
            "--terms/--raw",
            help="Give the network tabla's board terms (race, shots, primes) beside the raw encoding.",
        ),
    ] = False,
    chances: Annotated[
        bool,
        typer.Option(
            help="With --terms: also the next roll's chances (hits and escapes in tabla's family, "
            "pins in tapa).",
        ),
    ] = False,
    epochs: Annotated[int, typer.Option(help="Passes over the positions.")] = 12,
    batch: Annotated[int, typer.Option(help="Positions per step.")] = 128,
    learning_rate: Annotated[float, typer.Option(help="Adam's step size at the start.")] = 0.002,
    decay: Annotated[float, typer.Option(help="The step size's factor after each epoch.")] = 0.85,
    out: Annotated[Path, typer.Option(help="Where to write the weights (.npz + .json).")] = Path("tabla"),
    refine: Annotated[
        Path | None,
        typer.Option(help="Go on training these weights (their size and inputs) instead of fresh ones."),
    ] = None,
) -> None:
    """Train a network on a teacher's estimates: GNU Backgammon's (tabla), or its own
    lookahead's or rollouts' (every game with a network). Or make a dataset for it."""
    from tavla.core.registry import find_game

    name = find_game(game).name
    if name not in NETWORK_GAMES:
        raise fail(f"{name} has no network to teach (games with one: {', '.join(NETWORK_GAMES)})")
    if (make_dataset is None) == (not dataset):
        raise fail("give either --make-dataset FILE or one or more --dataset FILE")
    if make_dataset is not None:
        who = _check_labelling(name, player, teacher, close, plies)
        from tavla.bots.rollout import RolloutSettings

        rollout = None
        if teacher == "rollout":
            rollout = RolloutSettings(trials, truncate, variance_reduction, seed)
        labeller = Labeller(name, teacher, plies, weights, processes, rollout)
        if relabel is not None:
            _relabel(name, make_dataset, relabel, labeller, (sample, skip or []), seed)
        else:
            _make(name, make_dataset, games, seed, alternatives, labeller, who, close)
    else:
        if refine is not None and not refine.exists():
            raise fail(f"{refine}: no such weights to refine")
        if chances and not terms:
            raise fail("--chances goes with --terms: they are terms of the board")
        chosen: bool | str = "chances" if chances else terms
        settings = (seed, hidden, chosen, epochs, batch, learning_rate, decay)
        _fit(name, dataset or [], settings, out, refine)


def _check_labelling(game: str, player: str | None, teacher: str, close: int, plies: int) -> str:
    """Who plays the games of a new dataset, once its settings are known to make sense."""
    if teacher not in TEACHERS:
        raise fail(f"--teacher is gnubg, network or rollout, not {teacher!r}")
    who = player or ("gnubg" if game in TEACHER_GAMES else "network")
    if who not in ("gnubg", "network"):
        raise fail(f"--player is gnubg or network, not {who!r}")
    if game not in TEACHER_GAMES and "gnubg" in (who, teacher):
        raise fail(
            f"GNU Backgammon plays and teaches {', '.join(TEACHER_GAMES)} only, not {game}: "
            "use --teacher network (the network's own lookahead) or rollout"
        )
    if close and who != "network":
        raise fail("--close needs --player network: gnubg does not tell its next best turns here")
    if teacher == "gnubg" and not 0 <= plies <= 2:
        raise fail(f"--plies is 0, 1 or 2, not {plies}")
    if teacher == "network" and not 1 <= plies <= 2:
        raise fail(f"--teacher network needs --plies 1 or 2 (its own 0-ply teaches nothing), not {plies}")
    if teacher == "rollout" and plies:
        raise fail("--teacher rollout plays the positions out: give --trials and --truncate, not --plies")
    return who


class Labeller:
    """The teacher of a new dataset: estimates, at its depth, of positions after a turn,
    for the player who made it."""

    def __init__(
        self,
        game: str,
        teacher: str,
        plies: int,
        weights: Path | None,
        processes: int,
        rollout: RolloutSettings | None = None,
    ) -> None:
        self.game, self.teacher, self.plies = game, teacher, plies
        self.weights, self.processes, self.rollout = weights, processes, rollout

    @property
    def name(self) -> str:
        if self.rollout is not None:
            return f"network {self.rollout.label}"
        return f"{self.teacher} {self.plies}-ply"

    @cached_property
    def network(self) -> Network:
        """The network of ``--weights`` (or the shipped one): the student that plays, and
        the teacher when the teacher is the network."""
        from tavla.bots.network import Network

        return Network.load(self.weights) if self.weights else Network.shipped(self.game)

    @property
    def words(self) -> list[str]:
        """The labelling's part of the dataset's command."""
        if self.rollout is not None:
            words = ["--teacher", "rollout", "--trials", str(self.rollout.trials)]
            words += ["--truncate", str(self.rollout.truncate)]
            return words + ([] if self.rollout.variance_reduction else ["--no-variance-reduction"])
        words = ["--teacher", "network"] if self.teacher == "network" else []
        return words + (["--plies", str(self.plies)] if self.plies else [])

    def about(self) -> dict[str, Any]:
        """The teacher, for the dataset's metadata (a network: the command that made it)."""
        if self.teacher == "gnubg":
            return {"teacher": self.name}
        metadata = self.network.metadata
        made_by = metadata.get("commands") or [metadata.get("command", str(self.weights))]
        return {"teacher": self.name, "teacher_network": made_by}

    def label(self, positions: Sequence[Any], progress: Any) -> npt.NDArray[np.float64]:
        from tavla.oracles.gnubg import GnubgError
        from tavla.training.self_teacher import network_targets
        from tavla.training.teacher import gnubg_targets

        task = progress.add_task(f"{self.name} estimates", total=len(positions))

        def advance(done: int, _: int) -> None:
            progress.update(task, completed=done)

        if self.teacher != "gnubg":
            return network_targets(
                self.game,
                positions,
                plies=self.plies,
                rollout=self.rollout,
                weights=self.weights,
                processes=self.processes,
                progress=advance,
            )
        try:
            return gnubg_targets(positions, plies=self.plies, processes=self.processes, progress=advance)
        except GnubgError as error:
            raise fail(str(error)) from None


def _make(
    game: str,
    path: Path,
    games: int,
    seed: int,
    alternatives: int,
    labeller: Labeller,
    player: str,
    close: int,
) -> None:
    from contextlib import ExitStack

    from rich.progress import Progress

    from tavla.bots.players import network_player
    from tavla.oracles.gnubg import GnubgError, GnubgOracle, GnubgPlayer
    from tavla.training.teacher import Chooser, self_play_positions

    if path.exists():
        raise fail(f"{path} exists: give another --make-dataset file")
    words = ["tavla", "teach", "--game", game, "--make-dataset", str(path), "--games", str(games)]
    words += ["--seed", str(seed), "--alternatives", str(alternatives)]
    weights = labeller.weights
    if player == "network":
        words += ["--player", "network", "--close", str(close)]
        words += ["--weights", str(weights)] if weights is not None else []
    command = shlex.join(words + labeller.words)
    try:
        with Progress() as progress, ExitStack() as stack:
            if player == "gnubg":
                chooser: Chooser = GnubgPlayer(stack.enter_context(GnubgOracle()), 0)
            else:
                chooser = network_player(labeller.network)
            task = progress.add_task(f"{player} against itself", total=games)
            positions = self_play_positions(
                game,
                chooser,
                games,
                seed,
                alternatives=alternatives,
                close=close,
                progress=lambda done, _: progress.update(task, completed=done),
            )
            targets = labeller.label(positions, progress)
    except GnubgError as error:
        raise fail(str(error)) from None
    _save(path, positions, targets, {"command": command, "games": games, **labeller.about()})
    typer.echo(f"{counted(len(positions), 'position')} from {counted(games, 'game')}: {path}")


def _relabel(
    game: str, path: Path, source: Path, labeller: Labeller, drawing: tuple[int | None, list[Path]], seed: int
) -> None:
    """A dataset of another's positions (all, or ``sample`` of them, none of those in the
    ``skip`` datasets) with the teacher's estimates: deeper targets for positions already
    found."""
    import random

    from rich.progress import Progress

    import tavla

    if path.exists():
        raise fail(f"{path} exists: give another --make-dataset file")
    if not source.exists():
        raise fail(f"{source}: no such dataset to relabel")
    sample, skip = drawing
    for other in skip:
        if not other.exists():
            raise fail(f"{other}: no such dataset to skip")
    texts, _ = _read(source)
    done: set[str] = set()
    for other in skip:
        done.update(_read(other)[0])
    texts = [text for text in texts if text not in done]
    if sample is not None and sample < len(texts):
        texts = [texts[index] for index in sorted(random.Random(seed).sample(range(len(texts)), sample))]
    positions = [tavla.from_notation(text) for text in texts]
    if positions and positions[0].game != game:
        raise fail(f"{source} holds positions of {positions[0].game}, not {game}")
    words = ["tavla", "teach", "--game", game, "--make-dataset", str(path), "--relabel", str(source)]
    words += labeller.words + ["--seed", str(seed)] + (["--sample", str(sample)] if sample else [])
    words += [word for other in skip for word in ("--skip", str(other))]
    words += ["--weights", str(labeller.weights)] if labeller.weights is not None else []
    info = source.with_suffix(".json")
    about = json.loads(info.read_text()) if info.exists() else {}
    with Progress() as progress:
        targets = labeller.label(positions, progress)
    whole = int(about.get("source_games", about.get("games", 0)))
    games = whole * len(texts) // max(1, int(about.get("positions", len(texts))))
    made = {
        "command": shlex.join(words),
        "source": about.get("source", about.get("command", str(source))),
        "games": games,
        "source_games": whole,
    }
    _save(path, positions, targets, {**made, **labeller.about()})
    typer.echo(f"{len(positions)} positions of {source} labelled by the {labeller.name} teacher: {path}")


def _read(path: Path) -> tuple[list[str], npt.NDArray[np.float64]]:
    """A dataset's positions and targets, or a one-line error if it is not one."""
    import zipfile

    from tavla.training.teacher import load_dataset

    try:
        return load_dataset(str(path))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        raise fail(f"{path}: not a dataset made by tavla teach ({error})") from None


def _save(path: Path, positions: Sequence[Any], targets: Any, about: dict[str, Any]) -> None:
    from tavla.training.teacher import save_dataset

    save_dataset(str(path), positions, targets)
    text = json.dumps({**about, "positions": len(positions)}, indent=2)
    path.with_suffix(".json").write_text(text + "\n")


def _fit(
    game: str,
    paths: list[Path],
    settings: tuple[int, int, bool | str, int, int, float, float],
    out: Path,
    refine: Path | None,
) -> None:
    import numpy as np
    from rich.progress import Progress

    from tavla.bots.network import Network
    from tavla.training.supervised import FitSettings, fit
    from tavla.training.teacher import deepest_labels, network_inputs, teacher_plies

    texts: list[str] = []
    parts = []
    depths: list[int] = []
    made_by: list[str] = []
    teachers: set[str] = set()
    sources: dict[str, int] = {}
    for path in paths:
        if not path.exists():
            raise fail(f"{path}: no such dataset (make one with --make-dataset)")
        found, targets = _read(path)
        if found and found[0].split(maxsplit=1)[0] != game:
            raise fail(f"{path} holds positions of {found[0].split(maxsplit=1)[0]}, not {game}")
        texts += found
        parts.append(targets)
        info = path.with_suffix(".json")
        about = json.loads(info.read_text()) if info.exists() else {}
        # The commands that made a network teacher's weights, then those of the positions.
        made_by += [str(command) for command in about.get("teacher_network", []) if command not in made_by]
        if "source" in about:  # relabelled: the command that found its positions first
            made_by.append(str(about["source"]))
        made_by.append(str(about.get("command", path)))
        teacher = str(about.get("teacher", "gnubg 0-ply"))
        teachers.add(teacher)
        depths += [teacher_plies(teacher)] * len(found)
        # A relabelled sample's positions come from all its source's games, which
        # another dataset of the fit may hold too: each source's games count once.
        origin = str(about.get("source", about.get("command", path)))
        whole = int(about.get("source_games", about.get("games", 0)))
        sources[origin] = max(sources.get(origin, 0), whole)
    games = sum(sources.values())
    texts, targets, dropped = deepest_labels(texts, np.concatenate(parts), depths)
    if dropped:
        typer.echo(f"{dropped} rows of positions labelled more than once left out (the deepest label stays)")
    seed, hidden, terms, epochs, batch, learning_rate, decay = settings
    if refine is None:
        network = Network.create(game, hidden=hidden, seed=seed, terms=terms)
        before: list[str] = []
    else:
        network = Network.load(refine)
        label = network.term_label
        hidden, terms = network.hidden, ("chances" if label == "chances" else label is not None)
        before = list(network.metadata.get("commands", []))
        games += int(network.metadata.get("games", 0))
    inputs = network_inputs(network, texts)
    with Progress() as progress:
        task = progress.add_task(f"fitting {len(texts)} positions", total=1)
        reports = fit(
            network,
            inputs,
            targets,
            FitSettings(epochs=epochs, batch=batch, learning_rate=learning_rate, decay=decay, seed=seed + 1),
            on_epoch=lambda report: progress.console.print(_epoch_line(report)),
            on_batch=lambda done, total: progress.update(task, completed=done, total=total),
        )
    command = shlex.join(
        [
            *("tavla", "teach", "--game", game),
            *(word for path in paths for word in ("--dataset", str(path))),
            *("--seed", str(seed), "--hidden", str(hidden), "--terms" if terms else "--raw"),
            *(("--chances",) if terms == "chances" else ()),
            *("--epochs", str(epochs), "--batch", str(batch)),
            *("--learning-rate", str(learning_rate), "--decay", str(decay), "--out", str(out)),
            *(("--refine", str(refine)) if refine is not None else ()),
        ]
    )
    network.metadata.update(
        {
            "teacher": " and ".join(sorted(teachers)),
            "command": command,
            "commands": [*before, *made_by, command],
            "seed": seed,
            "games": games,
            "date": date.today().isoformat(),
            "positions": len(texts),
            "validation_equity_error": rounded(reports[-1].validation_equity_error, 5),
        }
    )
    typer.echo(f"weights: {network.save(out)}")


def _epoch_line(report: EpochReport) -> str:
    line = f"epoch {report.epoch}: loss {report.train_loss:.4f}"
    if math.isnan(report.validation_loss):
        return f"{line}, nothing held out (too few positions)"
    return f"{line}, held out {report.validation_loss:.4f}, equity error {report.validation_equity_error:.4f}"


def register(app: typer.Typer) -> None:
    app.command("teach")(teach_command)
