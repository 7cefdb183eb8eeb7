"""``tavla play GAME``: play a whole game in the terminal against a random-legal opponent."""

from __future__ import annotations

import random
import sys
from typing import Annotated

import typer
from rich.console import Console

from tavla.cli.errors import fail, reports_errors
from tavla.cli.terminal_game import TerminalGame
from tavla.core.dice import CryptoDice, DiceSource, SeededDice
from tavla.core.game import Game
from tavla.core.protocol import SIDE_LETTERS


@reports_errors
def play(
    game: Annotated[str, typer.Argument(help="A game name or alias: tabla, backgammon, chelebi ...")],
    color: Annotated[str, typer.Option("--color", help="Your colour: w (White) or b (Black).")] = "w",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed the dice and the opponent, for a reproducible game.")
    ] = None,
) -> None:
    """Play a game against a random-legal opponent (moves as text; 'help' at your turn)."""
    if color.lower() not in SIDE_LETTERS:
        raise fail(f"--color {color!r}: expected w or b")
    started = Game.new(game, opening=True)
    dice: DiceSource = CryptoDice() if seed is None else SeededDice(seed)
    opponent = random.Random(None if seed is None else f"opponent {seed}")
    session = TerminalGame(
        started,
        human=SIDE_LETTERS.index(color.lower()),
        dice=dice,
        opponent=opponent,
        console=Console(highlight=False),
        echo=not sys.stdin.isatty(),
    )
    session.run()


def register(app: typer.Typer) -> None:
    app.command("play")(play)
