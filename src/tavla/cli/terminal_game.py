"""A whole game in the terminal: a person against a random-legal opponent.

Written against the game protocol only (``Game``, ``legal_turns``, ``parse_turn``,
``steps``), so every registered game can be played. The person enters a whole turn
(``24/18 13/11``) or one step at a time (``13/7``, ``undo``, ``done``), through
:class:`tavla.cli.turn_entry.TurnEntry`; anything illegal is explained and the position
stays as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rich.console import Console

from tavla.cli.board_view import position_renderable
from tavla.cli.turn_entry import TurnEntry, dice_text
from tavla.core.dice import DiceSource
from tavla.core.game import Game

COLOURS = ("White", "Black")

COMMANDS = """\
Commands: moves (or hint) lists the legal turns; undo takes back your last step;
done commits the steps played; board draws the board again; position prints the
position's notation (for tavla show and tavla moves); quit leaves the game."""

ReadLine = Callable[[str], str]


def describe_outcome(game: Game, human: int) -> str:
    outcome = game.outcome()
    if outcome is None:
        return "The game is not over."
    if outcome.winner is None:
        return "The game is void, both mothers pinned: nobody scores."  # tapa's only void (RULES.md 5)
    who = "you" if outcome.winner == human else "your opponent"
    unit = "point" if outcome.points == 1 else "points"
    return f"{COLOURS[outcome.winner]} ({who}) wins: {outcome.reason}, {outcome.points} {unit}."


Bot = Callable[[Any], str]
"""The text of the turn a bot plays in a position (dice rolled)."""


class TerminalGame:
    """Runs one game: the person plays ``human``, chance and the opponent the rest."""

    def __init__(
        self,
        game: Game,
        human: int,
        dice: DiceSource,
        opponent: random.Random,
        console: Console,
        read: ReadLine = input,
        echo: bool = False,
        bot: Bot | None = None,
        bot_name: str = "a random-legal opponent",
    ) -> None:
        self.game = game
        self.human = human
        self.dice = dice
        self.opponent = opponent
        self.console = console
        self.read = read
        self.echo = echo
        self.bot = bot
        """Chooses the opponent's turn text; None: random legal steps from ``opponent``."""
        self.bot_name = bot_name

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def show_board(self) -> None:
        self.console.print(position_renderable(self.game.position))

    # ---------------------------------------------------------------- the game
    def run(self) -> bool:
        """Play to the end; False when the person left before it."""
        you = COLOURS[self.human]
        self.say(f"{self.game.position.game}: you play {you} against {self.bot_name}.")
        self.say("Type 'help' at your turn for the move syntax and the commands.")
        while not self.game.is_over:
            if self.game.is_chance:
                self._roll()
            elif self.game.position.to_act == self.human:
                if not self._human_turn():
                    self.say("You left the game.")
                    return False
            else:
                self._opponent_turn()
        self.say()
        self.show_board()
        self.say(describe_outcome(self.game, self.human))
        return True

    def _roll(self) -> None:
        if self.game.awaiting_opening:
            white, black = self.game.roll(source=self.dice)
            starter = COLOURS[self.game.position.to_act]
            high, low = max(white, black), min(white, black)
            self.say(f"Opening roll: White {white}, Black {black}. {starter} starts with {high}-{low}.")
        else:
            self.game.roll(source=self.dice)

    def _opponent_turn(self) -> None:
        position = self.game.position
        if self.bot is not None:
            turn = position.parse_turn(self.bot(position))
        else:
            # A random legal step at a time: long progressive doubles need no full turn list.
            builder = position.steps()
            while not builder.complete:
                builder.step(self.opponent.choice(list(builder.legal_steps())))
            turn = builder.commit()
        self.game.play(turn)
        who, rolled = COLOURS[position.to_act], dice_text(position)
        action = "cannot move" if turn.text == "-" else f"plays {turn.text}"
        self.say(f"{who} rolls {rolled} and {action}" if rolled else f"{who} {action}")

    # ---------------------------------------------------------- the person's turn
    def _human_turn(self) -> bool:
        position = self.game.position
        self.say()
        self.show_board()
        entry = TurnEntry(position, self.say)
        if entry.no_move:
            rolled = dice_text(position)
            self.say(f"You rolled {rolled}: no legal move." if rolled else "No legal move.")
            self.say("The turn passes.")
            self.game.play(entry.builder.commit())
            return True
        while True:
            line = self._ask(position, entry)
            if line is None:
                return False
            command = line.strip().lower()
            if command in ("quit", "exit", "q"):
                return False
            if command in ("help", "?"):
                self.say(entry.syntax())
                self.say(COMMANDS)
                entry.list_turns()
            elif command == "board":
                self.show_board()
            elif command in ("position", "tpn"):
                self.say(position.notation())
            else:
                turn = entry.handle(line)
                if turn is not None:
                    self.game.play(turn)
                    self.say(f"You played {turn.text}")
                    return True

    def _ask(self, position: Any, entry: TurnEntry) -> str | None:
        roll = dice_text(position)
        prompt = f"{COLOURS[self.human]}{' to play ' + roll if roll else ''}{entry.progress}> "
        try:
            line = self.read(prompt)
        except EOFError:
            self.say()
            self.say("End of input.")
            return None
        if self.echo:
            self.say(line)
        return line
