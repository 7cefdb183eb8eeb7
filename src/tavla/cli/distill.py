"""``tavla distill``: teach a network to choose its turns as its own lookahead does.

Two steps, each one command, each deterministic for its seed:

    tavla distill --game tapa --make-decisions a.npz --games 600 --seed 1
    tavla distill --game tapa --decisions a.npz [--decisions b.npz ...] --out tapa --seed 0

The first plays ``--games`` games of the network (the shipped one, or ``--weights``)
against itself at 0-ply and keeps, for every decision with a choice, its best
``--candidates`` turns with the network's ``--plies``-deep estimate of each, computed
in ``--processes`` processes. The second trains the network (``--refine``, by default
the one the decisions were made with) to rank each decision's candidates as those
estimates do (docs/bots.md, "Distilling the lookahead").
"""

from __future__ import annotations

import json
import math
import shlex
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tavla.cli.errors import fail, reports_errors
from tavla.cli.wording import counted, rounded

if TYPE_CHECKING:
    from tavla.training.distill import DistilReport, DistilSettings

GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara")
"""Games played by a network (indiyka's bot computes its chances exactly)."""


@reports_errors
def distill_command(
    game: Annotated[str, typer.Option("--game", help="The game whose network learns.")],
    make_decisions: Annotated[
        Path | None, typer.Option("--make-decisions", help="Write new decisions here (.npz).")
    ] = None,
    decisions: Annotated[
        list[Path] | None, typer.Option("--decisions", help="Decisions to learn from (repeat for more).")
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="--make-decisions: games of self-play.")] = 600,
    candidates: Annotated[
        int, typer.Option(min=2, help="--make-decisions: the best turns at 0-ply kept per decision.")
    ] = 8,
    explore: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="--make-decisions: how often the second best is played.")
    ] = 0.1,
    plies: Annotated[int, typer.Option(min=1, max=2, help="--make-decisions: the lookahead's depth.")] = 1,
    processes: Annotated[int, typer.Option(min=1, help="--make-decisions: processes estimating.")] = 2,
    weights: Annotated[
        Path | None, typer.Option(help="The network that plays and looks ahead, instead of the shipped one.")
    ] = None,
    seed: Annotated[
        int, typer.Option(help="Seed of the games, or of the fit's held-out decisions and batches.")
    ] = 0,
    epochs: Annotated[int, typer.Option(min=1, help="Passes over the decisions.")] = 10,
    batch: Annotated[int, typer.Option(min=1, help="Decisions per step.")] = 128,
    learning_rate: Annotated[float, typer.Option(help="Adam's step size.")] = 1e-3,
    temperature: Annotated[
        float, typer.Option(help="In equity: how sharply the lookahead's preferences are asked for.")
    ] = 0.05,
    anchor: Annotated[float, typer.Option(help="Weight of the lookahead's chances.")] = 1.0,
    refine: Annotated[
        Path | None, typer.Option(help="The weights that learn (default: those that made the decisions).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Where to write the weights (.npz + .json).")] = Path("distilled"),
) -> None:
    """Teach a network to choose among a roll's turns as its own lookahead does, or make
    the decisions it learns from."""
    from tavla.core.registry import find_game

    name = find_game(game).name
    if name not in GAMES:
        raise fail(f"{name} has no network to teach (games with one: {', '.join(GAMES)})")
    if (make_decisions is None) == (not decisions):
        raise fail("give either --make-decisions FILE or one or more --decisions FILE")
    for given in (weights, refine):
        if given is not None and not given.exists():
            raise fail(f"{given}: no such weights")
    if make_decisions is not None:
        words = ["tavla", "distill", "--game", name, "--make-decisions", str(make_decisions)]
        words += ["--games", str(games), "--seed", str(seed), "--candidates", str(candidates)]
        words += ["--explore", str(explore), "--plies", str(plies)]
        words += ["--weights", str(weights)] if weights is not None else []
        _make(name, make_decisions, (games, seed, candidates, explore, plies, processes), weights, words)
        return
    if temperature <= 0:
        raise fail(f"--temperature must be above 0, not {temperature}")
    from tavla.training.distill import DistilSettings

    settings = DistilSettings(epochs, batch, learning_rate, temperature, anchor, seed)
    _fit(name, decisions or [], settings, refine or weights, out)


def _make(
    game: str,
    path: Path,
    settings: tuple[int, int, int, float, int, int],
    weights: Path | None,
    words: list[str],
) -> None:
    from rich.progress import Progress

    from tavla.bots.network import Network
    from tavla.training.distill import label_decisions, self_play_decisions

    if path.exists():
        raise fail(f"{path} exists: give another --make-decisions file")
    games, seed, candidates, explore, plies, processes = settings
    network = Network.load(weights) if weights is not None else Network.shipped(game)
    with Progress() as progress:
        playing = progress.add_task("the network against itself", total=games)
        found = self_play_decisions(
            game,
            network,
            games,
            seed,
            candidates=candidates,
            explore=explore,
            progress=lambda done, _: progress.update(playing, completed=done),
        )
        labelling = progress.add_task(f"{plies}-ply estimates", total=sum(len(one) for one in found))
        made = label_decisions(
            game,
            found,
            plies=plies,
            weights=weights,
            processes=processes,
            progress=lambda done, _: progress.update(labelling, completed=done),
        )
    made.save(path)
    metadata = network.metadata
    candidates = int(made.counts.sum())
    about = {
        "command": shlex.join(words),
        "game": game,
        "games": games,
        "decisions": len(made),
        "candidates": candidates,
        "plies": plies,
        "network": metadata.get("commands") or [metadata.get("command", str(weights or "shipped"))],
        "weights": str(weights) if weights is not None else f"shipped {game} network",
    }
    path.with_suffix(".json").write_text(json.dumps(about, indent=2) + "\n")
    typer.echo(
        f"{counted(len(made), 'decision')} ({counted(candidates, 'candidate')}) "
        f"from {counted(games, 'game')}: {path}"
    )


def _fit(game: str, paths: list[Path], settings: DistilSettings, refine: Path | None, out: Path) -> None:
    import zipfile

    import numpy as np
    from rich.progress import Progress

    from tavla.bots.network import Network
    from tavla.core.errors import TavlaError
    from tavla.training.distill import Decisions, distil
    from tavla.training.teacher import network_inputs

    parts: list[Decisions] = []
    made_by: list[str] = []
    games = 0
    for path in paths:
        if not path.exists():
            raise fail(f"{path}: no such decisions (make them with --make-decisions)")
        try:
            part = Decisions.load(path)
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, TavlaError) as error:
            raise fail(f"{path}: not decisions made by tavla distill ({error})") from None
        first = str(part.texts[0, 0]) if len(part) else game
        if first.split(maxsplit=1)[0] != game:
            raise fail(f"{path} holds decisions of {first.split(maxsplit=1)[0]}, not {game}")
        parts.append(part)
        info = path.with_suffix(".json")
        about = json.loads(info.read_text()) if info.exists() else {}
        made_by += [str(command) for command in about.get("network", []) if command not in made_by]
        made_by.append(str(about.get("command", path)))
        games += int(about.get("games", 0))
    joined = Decisions.joined(parts)
    network = Network.load(refine) if refine is not None else Network.shipped(game)
    if network.game != game:
        raise fail(f"{refine} is a network of {network.game}, not {game}")
    before = list(network.metadata.get("commands", [network.metadata.get("command", "")]))
    valid = joined.texts != ""
    inputs = np.zeros((*joined.texts.shape, network.inputs), dtype=np.float32)
    inputs[valid] = network_inputs(network, [str(text) for text in joined.texts[valid]])
    with Progress() as progress:
        task = progress.add_task(f"learning from {len(joined)} decisions", total=1)
        reports = distil(
            network,
            inputs,
            joined.estimates,
            valid,
            settings,
            on_epoch=lambda report: progress.console.print(_epoch_line(report)),
            on_batch=lambda done, total: progress.update(task, completed=done, total=total),
        )
    command = shlex.join(
        [
            *("tavla", "distill", "--game", game),
            *(word for path in paths for word in ("--decisions", str(path))),
            *("--seed", str(settings.seed), "--epochs", str(settings.epochs), "--batch", str(settings.batch)),
            *("--learning-rate", str(settings.learning_rate), "--temperature", str(settings.temperature)),
            *("--anchor", str(settings.anchor), "--out", str(out)),
            *(("--refine", str(refine)) if refine is not None else ()),
        ]
    )
    # A check that a training run logged is of the network before this fit, not of this one.
    network.metadata.pop("last_benchmark", None)
    network.metadata.update(
        {
            "seed": settings.seed,
            "games": int(network.metadata.get("games", 0)) + games,
            "command": command,
            "commands": [*before, *(step for step in made_by if step not in before), command],
            "date": date.today().isoformat(),
            "distilled_decisions": len(joined),
            "distilled_games": games,
            "distilled_agreement": rounded(reports[-1].agreement, 4),
            "distilled_equity_lost": rounded(reports[-1].equity_lost, 6),
        }
    )
    typer.echo(f"weights: {network.save(out)}")


def _epoch_line(report: DistilReport) -> str:
    if math.isnan(report.agreement):
        return f"epoch {report.epoch}: nothing held out (too few decisions)"
    return (
        f"epoch {report.epoch}: held out, the lookahead's best picked {report.agreement:.1%}, "
        f"its equity lost {report.equity_lost:.5f} a decision"
    )


def register(app: typer.Typer) -> None:
    app.command("distill")(distill_command)
