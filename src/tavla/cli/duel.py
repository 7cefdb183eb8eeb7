"""``tavla duel``: two engines play each other over the engine protocol.

Each engine is a program that speaks the protocol (docs/engine-protocol.md): by default
``tavla engine`` itself, or ``tavla engine --weights FILE`` for a network you trained.
Dice games are played on shared dice (``tavla.bots.duel``), cubeless or with the cube
(``--cube``): each seed twice, the engines swapping colours, so that the dice's luck
largely cancels. Abluka starts from openings of two random turns, each played twice
with the engines swapping sides. Every move is checked by the rules before it is played.
"""

from __future__ import annotations

import shlex
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from tavla.cli.errors import fail, reports_errors
from tavla.cli.wording import counted

OWN_ENGINE = f"{shlex.quote(sys.executable)} -m tavla.engine"
"""This installation's ``tavla engine``, run by the Python that runs ``tavla``."""
FIRST_HELP = 'The first engine\'s command line, e.g. "tavla engine --weights run/tapa.npz".'
MOVETIME_HELP = "The time each engine may take a move (its own default if left out)."


@reports_errors
def duel_command(
    game: Annotated[str, typer.Option(help="A game both engines play: tabla, tapa, ..., abluka.")],
    first: Annotated[str, typer.Option(help=FIRST_HELP)] = OWN_ENGINE,
    second: Annotated[str, typer.Option(help="The second engine's command line.")] = OWN_ENGINE,
    level: Annotated[str, typer.Option(help="The level both engines play at: beginner ... max.")] = "medium",
    first_level: Annotated[str | None, typer.Option(help="The first engine's level, if not --level.")] = None,
    second_level: Annotated[str | None, typer.Option(help="The second's level, if not --level.")] = None,
    movetime_ms: Annotated[int | None, typer.Option(min=1, help=MOVETIME_HELP)] = None,
    games: Annotated[int, typer.Option(min=2, help="Games, an even number: each seed twice.")] = 100,
    seed: Annotated[int, typer.Option(help="The dice's first seed; games use the seeds from it on.")] = 0,
    cube: Annotated[bool, typer.Option(help="Money games with the doubling cube instead.")] = False,
) -> None:
    """Play two engines against each other on the same dice and print the result."""
    from tavla.bots.abluka.baselines import random_opening
    from tavla.bots.duel import MAX_TURNS, board_duel, duel
    from tavla.core.registry import find_game
    from tavla.engine.client import EngineFailure, EnginePlayer, EngineProcess

    if games % 2:
        raise fail(f"--games {games}: an even number, each seed is played twice with the colours swapped")
    dice = find_game(game).facts.has_dice
    if cube and not find_game(game).facts.has_cube:
        raise fail(f"{game} has no doubling cube: leave out --cube")
    console = Console(highlight=False)
    engines: list[EngineProcess] = []
    try:
        for label, command in (("first", first), ("second", second)):
            engines.append(EngineProcess(shlex.split(command), label=f"the {label} engine"))
        for engine in engines:
            if game not in engine.hello.get("games", []):
                raise fail(f"{engine.label} does not play {game}")
        players = (
            EnginePlayer(engines[0], first_level or level, movetime_ms=movetime_ms),
            EnginePlayer(engines[1], second_level or level, movetime_ms=movetime_ms),
        )
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task(f"{game}: games", total=games)
            seeds = range(seed, seed + games // 2)

            def advance() -> None:
                progress.advance(task)

            if dice:
                result = duel(game, *players, seeds, on_game=advance, cube=cube)
            else:  # Abluka: each opening of two random turns played twice, the engines swapping sides
                result = board_duel(*players, (random_opening(number) for number in seeds), on_game=advance)
    except EngineFailure as error:
        raise fail(str(error)) from None
    finally:
        for engine in engines:
            engine.close()
    kind = "money games with the cube" if cube else "cubeless games" if dice else "games"
    shared = "on shared dice" if dice else "from shared openings"
    table = Table(title=f"{game}: {games} {kind} {shared}, seeds {seed} to {seed + games // 2 - 1}")
    for heading in ("engine", "command", "won", "points per game", "ms per move"):
        table.add_column(heading, justify="left" if heading in ("engine", "command") else "right")
    rows = ((players[0], first, 1, result.wins), (players[1], second, -1, result.losses))
    for player, command, sign, won in rows:
        table.add_row(
            player.name,
            "tavla engine" if command == OWN_ENGINE else command,
            f"{won} ({won / result.games:.1%})",
            f"{sign * result.ppg + 0.0:+.3f} ± {result.ppg_ci95:.3f}",
            f"{1000 * player.seconds / max(1, player.moves):.1f}",
        )
    console.print(table)
    void = result.games - result.wins - result.losses - result.unfinished
    if void:
        console.print(f"{counted(void, 'game')} void (tapa: both mothers pinned), won by neither")
    if result.unfinished:
        unfinished = counted(result.unfinished, "game")
        console.print(f"{unfinished} left unfinished (no result after {MAX_TURNS} turns)")


def register(app: typer.Typer) -> None:
    app.command("duel")(duel_command)
