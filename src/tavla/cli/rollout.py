"""``tavla rollout POSITION``: a position, or the best turns of a roll, played out many times.

With the dice in the TPN, the network's best ``--candidates`` turns at 0-ply are each
rolled out from the mover's side, all on the same dice (the luck cancels from their
differences), and listed best first: the rollout's equity and its standard error, the
five chances, and the 0-ply equity beside them. Without dice, the position itself is
rolled out for the side to roll. ``--truncate N`` stops every trial after N turns and
asks the network there; the default plays to the end. Variance reduction takes each
roll's luck out (docs/bots.md, "Rollouts"); ``--json`` prints the figures for programs.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import tavla
from tavla.cli.errors import POSITION_ARGUMENT, fail, reject_option_like, reports_errors

if TYPE_CHECKING:
    from tavla.bots.rollout import Rollout

OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


@reports_errors
def rollout_command(
    position: Annotated[str, typer.Argument(help="A position in TPN, with or without its dice.")],
    trials: Annotated[int, typer.Option(min=1, help="Games played from each position (36 stratify).")] = 36,
    truncate: Annotated[
        int, typer.Option(min=0, help="Turns after which the network estimates (0: play to the end).")
    ] = 0,
    candidates: Annotated[
        int, typer.Option(min=1, help="With dice: how many of the best turns at 0-ply are rolled out.")
    ] = 4,
    variance_reduction: Annotated[
        bool, typer.Option(help="Take each roll's luck out of the trials (a step costs 21 times more).")
    ] = True,
    seed: Annotated[int, typer.Option(help="Seed of the dice after the first two rolls.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Roll out a position, or the best turns of a roll, with the game's network."""
    import numpy as np

    from tavla.bots.network import Network, shipped_games
    from tavla.bots.outcomes import equity
    from tavla.bots.rollout import Roller, RolloutSettings
    from tavla.rules.dicegame import DiceGame

    reject_option_like(position)
    start = tavla.from_notation(position)
    if not isinstance(start, DiceGame) or start.game not in shipped_games():
        raise fail(f"no trained bot rolls out {start.game} (bots with weights: {', '.join(shipped_games())})")
    if start.outcome() is not None:
        raise fail(f"position {start.notation()!r}: the game is over, nothing to roll out")
    network = Network.shipped(start.game)
    roller = Roller(network)
    settings = RolloutSettings(trials, truncate, variance_reduction, seed)
    # Piped, Rich would fold the table to 80 columns; a terminal gives its own width.
    console = Console(highlight=False, stderr=as_json, width=None if sys.stdout.isatty() else 120)
    rows: list[dict[str, Any]] = []
    if start.is_chance:
        jobs: list[tuple[str | None, DiceGame[Any], int, float]] = [
            (None, start, start.side, float(equity(network.chances(start, start.side))))
        ]
    else:
        found, estimates = roller.search.expand(start)
        values = equity(estimates)
        order = np.argsort(-values, kind="stable")[:candidates]
        jobs = [(found.text(int(i)), found.after(int(i)), start.side, float(values[i])) for i in order]
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"rolling out {settings.label}", total=len(jobs))
        for text, after, player, zero_ply in jobs:
            found_rollout = roller.rollout(after, player, settings, dice=start.notation())
            rows.append(_row(text, found_rollout, zero_ply))
            progress.advance(task)
    rows.sort(key=lambda row: -float(row["equity"]))
    if as_json:
        about = {"position": start.notation(), "settings": settings.label, "seed": seed, "rollouts": rows}
        typer.echo(json.dumps(about, indent=2))
        return
    console.print(start.notation())
    console.print(_table(settings.label, rows, start.is_chance))


def _row(text: str | None, found: Rollout, zero_ply: float) -> dict[str, Any]:
    row: dict[str, Any] = {} if text is None else {"turn": text}
    row.update(
        equity=round(found.equity, 4),
        equity_error=round(found.equity_error, 4),
        chances=dict(zip(OUTPUTS, (round(float(value), 4) for value in found.chances), strict=True)),
        zero_ply_equity=round(zero_ply, 4),
        trials=found.trials,
        finished=found.finished,
    )
    return row


def _table(label: str, rows: list[dict[str, Any]], awaiting_roll: bool) -> Table:
    table = Table(title=label)
    headings = ["turn"] if not awaiting_roll else []
    headings += ["equity", "±", "win", "win g", "win bg", "lose g", "lose bg", "0-ply", "ended"]
    for heading in headings:
        table.add_column(heading, justify="left" if heading == "turn" else "right", no_wrap=True)
    for row in rows:
        chances = row["chances"]
        cells = [row["turn"]] if not awaiting_roll else []
        cells += [f"{row['equity']:+.3f}", f"{row['equity_error']:.3f}"]
        cells += [f"{100 * chances[name]:.1f}" for name in OUTPUTS]
        cells += [f"{row['zero_ply_equity']:+.3f}", f"{row['finished']}/{row['trials']}"]
        table.add_row(*cells)
    side = "the side to roll" if awaiting_roll else "the mover"
    table.caption = (
        f"cubeless equity for {side}, ± its standard error; chances in %; "
        "ended: trials played to the game's end"
    )
    return table


def register(app: typer.Typer) -> None:
    app.command("rollout", context_settings=POSITION_ARGUMENT)(rollout_command)
