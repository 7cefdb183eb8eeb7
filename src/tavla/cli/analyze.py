"""``tavla analyze FILE``: each player's errors and luck in a finished game or match.

The bots judge every turn (``--plies`` deep), every cube decision and every roll
(docs/analysis.md); the report lists each player's totals and every marked
decision, and ``--plot`` writes the equity over the match as a PNG (matplotlib,
``pip install 'tavla[train]'``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from tavla.cli.errors import fail, reports_errors
from tavla.cli.replay import load_record

if TYPE_CHECKING:
    from tavla.analysis.checker import MoveReview
    from tavla.analysis.cube import CubeReview
    from tavla.analysis.report import Analysis


@reports_errors
def analyze_command(
    file: Annotated[Path, typer.Argument(help="A match record: FILE.json, or FILE.mat (tabla).")],
    plies: Annotated[
        int | None,
        typer.Option(min=0, max=2, help="Plies of lookahead for the turns (0-2; default tabla 0, others 1)."),
    ] = None,
    plot: Annotated[
        Path | None, typer.Option(help="Write the equity over the match to this PNG (needs matplotlib).")
    ] = None,
    rollout: Annotated[
        bool, typer.Option("--rollout", help="Roll out every marked turn against the bot's best.")
    ] = False,
    trials: Annotated[
        int | None, typer.Option(min=1, help="--rollout: games played from each turn (36; gulbara 144).")
    ] = None,
    truncate: Annotated[
        int | None,
        typer.Option(min=0, help="--rollout: turns after which the network estimates (0: to the end; 10)."),
    ] = None,
    variance_reduction: Annotated[
        bool | None,
        typer.Option(help="--rollout: take each roll's luck out of the trials (default: yes, gulbara no)."),
    ] = None,
    processes: Annotated[int, typer.Option(min=1, help="--rollout: turns rolled out at once.")] = 1,
) -> None:
    """Review a finished game or match: errors, cube decisions and luck of each player."""
    from tavla.analysis.report import analyze, default_plies
    from tavla.bots.network import Network, shipped_games
    from tavla.bots.search import SearchSettings

    given = {"--trials": trials, "--truncate": truncate, "--variance-reduction": variance_reduction}
    if not rollout and (processes != 1 or any(value is not None for value in given.values())):
        raise fail("--trials, --truncate, --variance-reduction and --processes go with --rollout")
    record = load_record(file)
    game = record.settings.game
    if game not in shipped_games():
        raise fail(f"no trained bot reviews {game} yet (bots with weights: {', '.join(shipped_games())})")
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise fail("plotting needs matplotlib: pip install 'tavla[train]', or leave out --plot") from None
    network = Network.shipped(game)
    if plies is None:
        plies = default_plies(game)
    console = Console(highlight=False)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("analysing", total=max(1, len(record.actions)))
        analysis = analyze(
            record,
            lambda _: network,
            SearchSettings(plies=plies),
            progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    if rollout:
        from dataclasses import replace

        from tavla.analysis.rollouts import default_settings, roll_out_marked

        settings = default_settings(game)
        settings = replace(
            settings,
            trials=settings.trials if trials is None else trials,
            truncate=settings.truncate if truncate is None else truncate,
            variance_reduction=settings.variance_reduction
            if variance_reduction is None
            else variance_reduction,
        )
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("rolling out the marked turns", total=None)
            analysis = roll_out_marked(
                analysis,
                record,
                lambda _: network,
                settings,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
                processes=processes,
            )
    depth = f"{plies} {'ply' if plies == 1 else 'plies'}"
    console.print(f"{game}, {' v '.join(record.settings.names)}: turns reviewed at {depth}")
    rolled = [review for review in analysis.moves if review.rollout is not None]
    if rolled:
        console.print(
            f"{len(rolled)} marked turns rolled out ({rolled[0].rollout.settings}): "  # type: ignore[union-attr]
            "their losses and marks are the rollouts'"
        )
    console.print(_players_table(analysis))
    marked = analysis.marked(rolled_out=True)
    if marked:
        console.print(_marked_table(analysis, marked))
    else:
        console.print("No turn or cube decision lost 0.04 or more.")
    if plot is not None:
        from tavla.analysis.plot import plot_equity

        console.print(f"Equity plot: {plot_equity(analysis, plot, record.settings.names)}")


def _players_table(analysis: Analysis) -> Table:
    table = Table(title="Players")
    for heading in ("player", "turns", "rate", "marks", "cube", "rate", "marks", "luck"):
        table.add_column(heading, justify="left" if heading == "player" else "right")
    for player in analysis.players:
        table.add_row(
            player.name,
            str(player.decisions),
            f"{player.error_rate:.1f}",
            _marks(player.marks),
            str(player.cube_decisions),
            f"{player.cube_error_rate:.1f}",
            _marks(player.cube_marks),
            f"{player.luck:+.3f}",
        )
    table.caption = (
        "turns, cube: decisions; rate: equity lost per decision x 1000; "
        "marks: doubtful/error/blunder; luck: equity the dice gave"
    )
    return table


def _marks(counts: Counter[str]) -> str:
    return "/".join(str(counts[name]) for name in ("doubtful", "error", "blunder"))


def _marked_table(analysis: Analysis, marked: list[MoveReview | CubeReview]) -> Table:
    from tavla.analysis.checker import MoveReview

    names = [player.name for player in analysis.players]
    rolled = any(isinstance(review, MoveReview) and review.rollout for review in marked)
    table = Table(title="Marked decisions")
    headings = ["game", "player", "roll", "played", "best", "loss", "mark"]
    if rolled:
        headings[5:5] = ["bot's loss", "rolled out"]
        headings.remove("loss")
    for heading in headings:
        table.add_column(
            heading, justify="right" if heading in ("game", "loss", "bot's loss", "rolled out") else "left"
        )
    for review in marked:
        if isinstance(review, MoveReview):
            played, best, roll = review.played, review.best, review.before.split()[-1]
            loss = review.judged_loss
        else:
            played, best, roll = review.chosen, review.right, "cube"
            loss = review.loss
        cells = [str(review.game_number), names[review.seat], roll, played, best, f"{loss:.3f}"]
        if rolled:
            check = review.rollout if isinstance(review, MoveReview) else None
            cells.append("" if check is None else f"{check.loss:+.3f} ± {check.error:.3f}")
        cells.append(review.mark or "none")
        table.add_row(*cells)
    if rolled:
        table.caption = "rolled out: the best turn's equity less the turn played's, ± its standard error"
    return table


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_command)
