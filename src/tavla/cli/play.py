"""``tavla play GAME``: play a whole game in the terminal against a bot.

Dice games: the bots of ``tavla engine`` at ``--level`` (docs/bots.md), or ``--level
random`` for a random-legal opponent. Abluka: its search engine.
"""

from __future__ import annotations

import random
import sys
from typing import Annotated, Any

import typer
from rich.console import Console

from tavla.cli.errors import fail, reports_errors
from tavla.cli.play_abluka import play_abluka
from tavla.cli.rule_options import RuleOption, game_with_rules
from tavla.cli.terminal_game import Bot, TerminalGame
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
        str,
        typer.Option(
            "--level", help="The bot's level: beginner, easy, medium, hard, max (dice games: or random)."
        ),
    ] = "hard",
    movetime_ms: Annotated[
        int | None, typer.Option("--movetime-ms", help="The bot's time per move, in milliseconds.")
    ] = None,
    rule: RuleOption = None,
) -> None:
    """Play a game in the terminal against a bot."""
    if not find_game(game).facts.has_dice:  # Abluka: against its engine
        play_abluka(level, color or "b", movetime_ms, seed=seed)
        return
    color = color or "w"
    if color.lower() not in SIDE_LETTERS:
        raise fail(f"--color {color!r}: expected w or b")
    started = Game(game_with_rules(game, rule).start(), opening=True)
    dice: DiceSource = CryptoDice() if seed is None else SeededDice(seed)
    opponent = random.Random(None if seed is None else f"opponent {seed}")
    bot, name = _dice_bot(started.position.game, level, movetime_ms)
    session = TerminalGame(
        started,
        human=SIDE_LETTERS.index(color.lower()),
        dice=dice,
        opponent=opponent,
        console=Console(highlight=False),
        echo=not sys.stdin.isatty(),
        bot=bot,
        bot_name=name,
    )
    session.run()


def _dice_bot(game: str, level: str, movetime_ms: int | None) -> tuple[Bot | None, str]:
    """The engine's player of ``game`` at ``level`` and how to name it; random: none."""
    if level == "random":
        return None, "a random-legal opponent"
    import tavla.engine.builtin  # noqa: F401  (registers the engines)
    from tavla.engine.registry import LEVELS, engine_for

    if level not in LEVELS:
        raise fail(f"--level {level!r}: expected random or one of {', '.join(LEVELS)}")
    engine = engine_for(game)

    def bot(position: Any) -> str:
        return str(engine.move(position, level, movetime_ms)["move"])

    return bot, f"the bot at level {level}"


def register(app: typer.Typer) -> None:
    app.command("play")(play)
