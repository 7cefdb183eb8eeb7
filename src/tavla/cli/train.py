"""``tavla train --game tapa``: train a game's evaluator by self-play TD(lambda).

Checkpoints go to ``--dir`` every ``--checkpoint-every`` games, and ``--resume``
goes on from the last one exactly as if the run had never stopped. Every
``--bench-every`` games the network plays a fixed benchmark against a baseline;
the results go to ``strength.csv`` and, unless ``--no-plot``, ``strength.png``
(matplotlib: ``pip install 'tavla[train]'``).
"""

from __future__ import annotations

import shlex
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tavla.cli.errors import fail, reports_errors
from tavla.cli.wording import counted

if TYPE_CHECKING:
    from tavla.training.run import TrainingRun

PLOT = "strength.png"


@reports_errors
def train_command(
    game: Annotated[str, typer.Option("--game", help="The dice game to train (tabla, tapa, ...).")],
    games: Annotated[int, typer.Option(help="Self-play games to reach in all.")] = 10_000,
    directory: Annotated[
        Path | None, typer.Option("--dir", help="Checkpoints, logs and weights (default: train-GAME).")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Go on from the checkpoint in --dir.")] = False,
    seed: Annotated[int, typer.Option(help="Seed of the weights and of the self-play dice.")] = 0,
    hidden: Annotated[
        int | None,
        typer.Option(
            help="Hidden units (default 80). With --init, default as many as the weights have; "
            "more widens them, the new units starting with no effect on the estimates.",
            show_default=False,
        ),
    ] = None,
    terms: Annotated[
        bool | None,
        typer.Option(
            "--terms/--raw",
            help="Give the network the game's board terms (race, shots, pins, primes) beside "
            "the raw encoding, or the raw encoding alone (default: terms where the game has them).",
            show_default=False,
        ),
    ] = None,
    chances: Annotated[
        bool,
        typer.Option(
            "--chances",
            help="With the terms: also the next roll's chances (hits and escapes in tabla's family, "
            "pins in tapa). With --init, weights made without them are given them, with no weight "
            "at first.",
        ),
    ] = False,
    coached: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            max=1.0,
            help="Share of the games in which the heuristic baseline plays one side "
            "(the network learns from its own turns). Default 0; with --resume, changes "
            "the share from then on.",
            show_default=False,
        ),
    ] = None,
    alpha: Annotated[
        float | None,
        typer.Option(
            help="Learning rate. Default 0.1; with --resume, changes it from then on.", show_default=False
        ),
    ] = None,
    lam: Annotated[float, typer.Option("--lambda", help="TD(lambda)'s trace decay.")] = 0.7,
    checkpoint_every: Annotated[int, typer.Option(help="Games between checkpoints.")] = 500,
    bench_every: Annotated[int, typer.Option(help="Games between strength benchmarks (0: none).")] = 1000,
    bench_games: Annotated[int, typer.Option(help="Games per benchmark (seeds x both colours).")] = 200,
    opponent: Annotated[
        str, typer.Option(help="Benchmark opponent: heuristic, random or pubeval.")
    ] = "heuristic",
    out: Annotated[Path | None, typer.Option(help="Where to write the final weights (.npz + .json).")] = None,
    init: Annotated[
        Path | None,
        typer.Option(
            help="Start from these weights (their size and inputs), e.g. a network fitted by tavla teach."
        ),
    ] = None,
    policy: Annotated[
        Path | None,
        typer.Option(
            help="Weights that choose every self-play turn, e.g. a policy network from tavla distill; "
            "the trained network learns the values of their turns. Kept by --resume.",
        ),
    ] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Write no PNG (needs no matplotlib).")] = False,
) -> None:
    """Train a dice game's neural evaluator by self-play TD(lambda)."""
    from tavla.bots.terms import GAME_TERMS
    from tavla.core.registry import find_game
    from tavla.training.run import TrainingRun, TrainingSettings

    name = find_game(game).name
    if not find_game(name).facts.has_dice:
        raise fail(f"{name} has no dice: its engine is a search (tavla.bots.abluka), not a network")
    if not no_plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise fail("plotting needs matplotlib: pip install 'tavla[train]', or pass --no-plot") from None
    folder = directory or Path(f"train-{name}")
    if chances and (terms is False or resume):
        raise fail("--chances goes with the board terms of a new run: not with --raw or --resume")
    if policy is not None and resume:
        raise fail("--policy starts a new run: a resumed run keeps the policy it began with")
    if init is not None and (resume or not init.exists()):
        raise fail(
            "--init starts a new run: it does not go with --resume" if resume else f"{init}: no such weights"
        )
    if resume:
        run = TrainingRun.resume(folder, games=games, coached=coached, alpha=alpha)
        if run.settings.game != name:
            raise fail(f"{folder} trains {run.settings.game}, not {name}")
    else:
        if (folder / "checkpoint.npz").exists():
            raise fail(f"{folder} holds a run already: --resume to go on, or another --dir")
        settings = TrainingSettings(
            game=name,
            games=games,
            hidden=hidden,
            terms=name in GAME_TERMS if terms is None else terms,
            chances=chances,
            coached=coached or 0.0,
            alpha=0.1 if alpha is None else alpha,
            lam=lam,
            seed=seed,
            checkpoint_every=checkpoint_every,
            bench_every=bench_every,
            bench_games=bench_games,
            opponent=opponent,
            init=None if init is None else str(init),
            policy=None if policy is None else str(policy),
        )
        run = TrainingRun.create(folder, settings)
    run.note_command(_command(run, folder, resume))
    from tavla.bots import fast

    fast.warm_up()  # compile the generators (or load them from numba's cache) before the timing
    _train(run, plot=not no_plot)
    weights = run.save_weights(out)
    typer.echo(
        f"{counted(run.games_played, 'game')} in {run.train_seconds:.0f} s of CPU "
        f"({run.games_per_second:.1f} games/s); weights: {weights}"
    )


def _command(run: TrainingRun, folder: Path, resume: bool) -> str:
    """The command that does what this one does, every setting spelt out (for the metadata)."""
    settings = run.settings
    words = ["tavla", "train", "--game", settings.game, "--dir", str(folder), "--games", str(settings.games)]
    if resume:
        words += ["--resume", "--coached", str(settings.coached), "--alpha", str(settings.alpha)]
    else:
        words += [
            *("--seed", str(settings.seed), "--hidden", str(settings.hidden)),
            "--terms" if settings.terms else "--raw",
            *(("--chances",) if settings.chances else ()),
            *("--coached", str(settings.coached)),
            *("--alpha", str(settings.alpha), "--lambda", str(settings.lam)),
            *(
                "--checkpoint-every",
                str(settings.checkpoint_every),
                "--bench-every",
                str(settings.bench_every),
            ),
            *("--bench-games", str(settings.bench_games), "--opponent", settings.opponent),
            *(("--init", settings.init) if settings.init else ()),
            *(("--policy", settings.policy) if settings.policy else ()),
        ]
    return shlex.join(words)


def _train(run: TrainingRun, *, plot: bool) -> None:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    settings = run.settings
    console = Console()
    with Progress(
        TextColumn(f"training {settings.game}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[speed]}"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[strength]}"),
        console=console,
        # Written to a file (a night's run), the bar would end as one line cut at 80
        # columns; the benchmark lines and the closing summary say it all there.
        transient=not console.is_terminal,
    ) as progress:
        task = progress.add_task(
            "train", total=settings.games, completed=run.games_played, speed="", strength=""
        )

        def on_game(current: TrainingRun) -> None:
            progress.update(
                task, completed=current.games_played, speed=f"{current.games_per_second:.1f} games/s"
            )

        def on_bench(row: dict[str, Any]) -> None:
            strength = (
                f"vs {row['opponent']}: {row['win_rate']:.0%} won, "
                f"{row['ppg']:+.2f} ± {row['ppg_ci95']:.2f} ppg"
            )
            progress.update(task, strength=strength)
            progress.console.print(f"game {row['games']}: {strength}")
            if plot:
                from tavla.training.plot import plot_log

                plot_log(
                    run.log, run.directory / PLOT, f"{settings.game}: 0-ply network vs {settings.opponent}"
                )

        # A run stopped by `kill` or `timeout` keeps its last whole game too.
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            run.run(on_game=on_game, on_bench=on_bench)
        except KeyboardInterrupt:
            progress.stop()
            typer.echo(
                f"interrupted: checkpoint at game {run.games_played}; --resume goes on from it", err=True
            )
            raise typer.Exit(130) from None
        finally:
            signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def register(app: typer.Typer) -> None:
    app.command("train")(train_command)
