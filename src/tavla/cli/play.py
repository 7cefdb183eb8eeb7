"""``tavla play GAME``: play a whole game in the terminal against a random-legal opponent."""

from __future__ import annotations

import random
import sys
from typing import Annotated

import typer
from rich.console import Console

from tavla.cli.errors import fail, reports_errors
from tavla.cli.play_abluka import play_abluka
from tavla.cli.rule_options import RuleOption, game_with_rules
from tavla.cli.terminal_game import TerminalGame
from tavla.core.dice import CryptoDice, DiceSource, SeededDice
from tavla.core.game import Game
from tavla.core.protocol import SIDE_LETTERS
from tavla.core.registry import find_game


@reports_errors
def play(
    game: Annotated[str, typer.Argument(help="A game name or alias: tabla, backgammon, chelebi ...")],
    color: Annotated[
        str | None,
        typer.Option("--color", help="Your colour: w or b (default w; in Abluka b, who moves first)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed the dice and the opponent, for a reproducible game.")
    ] = None,
    level: Annotated[
        str, typer.Option("--level", help="Abluka: the engine's level (beginner, easy, medium, hard, max).")
    ] = "hard",
    movetime_ms: Annotated[
        int | None, typer.Option("--movetime-ms", help="Abluka: the engine's time per move.")
    ] = None,
    rule: RuleOption = None,
) -> None:
    """Play in the terminal: dice games against a random player, Abluka against the engine."""
    if not find_game(game).facts.has_dice:  # Abluka: against its engine
        play_abluka(level, color or "b", movetime_ms, seed=seed)
        return
    color = color or "w"
    if color.lower() not in SIDE_LETTERS:
        raise fail(f"--color {color!r}: expected w or b")
    started = Game(game_with_rules(game, rule).start(), opening=True)
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
