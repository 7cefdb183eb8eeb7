"""A whole game in the terminal: a person against a random-legal opponent.

Written against the game protocol only (``Game``, ``legal_turns``, ``parse_turn``,
``steps``), so every registered game can be played. The person enters a whole turn
(``24/18 13/11``) or one step at a time (``13/7``, ``undo``, ``done``); anything
illegal is explained and the position stays as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

from rich.console import Console

from tavla.cli.board_view import position_renderable
from tavla.core.dice import DiceSource
from tavla.core.errors import IllegalMoveError, TavlaError
from tavla.core.game import Game
from tavla.core.protocol import Turn

COLOURS = ("White", "Black")
SHOWN_TURNS = 60
"""Legal turns listed by ``moves``; the rest are counted."""

DICE_SYNTAX = """\
A turn is written in your own numbering (you move from 24 towards 1):
  24/18 13/11    two checkers, one die each
  13/7*/5        one checker using both dice, hitting on 7 ('*' is optional)
  bar/22         enter from the bar;   6/off   bear off
  8/5(2)         two checkers from 8 to 5
You may also play one die at a time: 13/7, then 7/5, then 'done' to commit."""

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
        return f"The game is void ({outcome.reason}): nobody scores."
    who = "you" if outcome.winner == human else "your opponent"
    unit = "point" if outcome.points == 1 else "points"
    return f"{COLOURS[outcome.winner]} ({who}) wins: {outcome.reason}, {outcome.points} {unit}."


def _dice_text(position: Any) -> str:
    dice = getattr(position, "dice", None)
    return f"{dice[0]}-{dice[1]}" if dice else ""


def _expand_steps(text: str) -> list[str]:
    """``8/5(2)`` -> two ``8/5``; ``13/7*/5`` -> ``13/7*`` and ``7/5``; other words as they are."""
    steps: list[str] = []
    for token in text.replace(",", " ").split():
        count = 1
        if token.endswith(")") and "(" in token:
            token, _, tail = token.partition("(")
            count = int(tail[:-1]) if tail[:-1].isdigit() else 0
            if not 1 <= count <= 4:
                raise IllegalMoveError(text, "", f"'({tail}' is not a repeat count such as (2)")
        pieces = token.split("/")
        chain = [f"{a.rstrip('*')}/{b}" for a, b in pairwise(pieces)] or [token]
        steps.extend(chain * count)
    return steps


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
    ) -> None:
        self.game = game
        self.human = human
        self.dice = dice
        self.opponent = opponent
        self.console = console
        self.read = read
        self.echo = echo

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def show_board(self) -> None:
        self.console.print(position_renderable(self.game.position))

    # ---------------------------------------------------------------- the game
    def run(self) -> bool:
        """Play to the end; False when the person left before it."""
        you = COLOURS[self.human]
        self.say(f"{self.game.position.game}: you play {you} against a random-legal opponent.")
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
        # A random legal step at a time: long progressive doubles need no full turn list.
        builder = position.steps()
        while not builder.complete:
            builder.step(self.opponent.choice(list(builder.legal_steps())))
        turn = builder.commit()
        self.game.play(turn)
        who, rolled = COLOURS[position.to_act], _dice_text(position)
        action = "cannot move" if turn.text == "-" else f"plays {turn.text}"
        self.say(f"{who} rolls {rolled} and {action}" if rolled else f"{who} {action}")

    # ---------------------------------------------------------- the person's turn
    def _human_turn(self) -> bool:
        position = self.game.position
        self.say()
        self.show_board()
        # The steps, not the whole turns, so that long progressive doubles start at once.
        builder = position.steps()
        if builder.complete:
            rolled = _dice_text(position)
            self.say(f"You rolled {rolled}: no legal move." if rolled else "No legal move.")
            self.say("The turn passes.")
            self.game.play(builder.commit())
            return True
        played: list[str] = []
        while True:
            line = self._ask(position, played)
            if line is None:
                return False
            command = line.strip().lower()
            if not command:
                continue
            if command in ("quit", "exit", "q"):
                return False
            if command in ("help", "?"):
                self._help(position, position.legal_turns())
            elif command in ("moves", "hint"):
                self._list(position.legal_turns())
            elif command == "board":
                self.show_board()
            elif command in ("position", "tpn"):
                self.say(position.notation())
            elif command == "undo":
                self._undo(builder, played)
            elif command == "done":
                if self._commit(builder, played):
                    return True
            elif self._move(position, builder, played, line.strip()):
                return True

    def _ask(self, position: Any, played: list[str]) -> str | None:
        roll = _dice_text(position)
        sofar = f" [{' '.join(played)}]" if played else ""
        prompt = f"{COLOURS[self.human]}{' to play ' + roll if roll else ''}{sofar}> "
        try:
            line = self.read(prompt)
        except EOFError:
            self.say()
            self.say("End of input.")
            return None
        if self.echo:
            self.say(line)
        return line

    def _help(self, position: Any, turns: Sequence[Turn]) -> None:
        if _dice_text(position):
            self.say(DICE_SYNTAX)
        else:
            self.say(f"Enter a whole turn, e.g. {turns[0].text}, or one step at a time, then 'done'.")
        self.say(COMMANDS)
        self._list(turns)

    def _list(self, turns: Sequence[Turn]) -> None:
        texts = [turn.text for turn in turns]
        self.say(f"Legal turns ({len(texts)}):")
        shown = texts[:SHOWN_TURNS]
        width = max(len(text) for text in shown) + 2
        per_line = max(1, 72 // width)
        for start in range(0, len(shown), per_line):
            self.say("  " + "".join(text.ljust(width) for text in shown[start : start + per_line]).rstrip())
        if len(texts) > SHOWN_TURNS:
            self.say(f"  ... and {len(texts) - SHOWN_TURNS} more")

    def _undo(self, builder: Any, played: list[str]) -> None:
        if not played:
            self.say("Nothing to take back: no step played this turn.")
            return
        builder.undo()
        self.say(f"Took back {played.pop()}.")

    def _commit(self, builder: Any, played: list[str]) -> bool:
        if not builder.complete:
            steps = ", ".join(builder.legal_steps())
            self.say(f"The turn is not complete yet. Legal steps now: {steps}")
            return False
        self._play(builder.commit())
        return True

    def _move(self, position: Any, builder: Any, played: list[str], text: str) -> bool:
        """Steps added to the turn being built, or a whole turn; True when the turn is played.

        Steps come first (cheap even for long progressive doubles); a whole turn typed at
        once is committed at once, steps typed one by one wait for ``done``.
        """
        try:
            steps: list[str] | None = _expand_steps(text)
        except IllegalMoveError as error:
            steps, unreadable = None, error.reason
        failed = self._apply(builder, steps) if steps is not None else None
        if steps is not None and failed is None:
            if not played and builder.complete:
                self._play(builder.commit())
                return True
            played.extend(steps)
            if builder.complete:
                self.say("The turn is complete: 'done' commits it, 'undo' takes back a step.")
            else:
                self.say(f"Legal steps now: {', '.join(builder.legal_steps())}")
            return False
        turn_error: TavlaError | None = None
        if not played:
            try:
                turn = position.parse_turn(text)
            except TavlaError as error:
                turn_error = error
            else:
                self._play(turn)
                return True
        if steps is None:
            self.say(f"'{text}' cannot be read: {unreadable}. Type 'help' for the syntax.")
            return False
        self._explain(text, failed or text, builder, played, turn_error)
        return False

    def _apply(self, builder: Any, steps: list[str]) -> str | None:
        """Play ``steps`` in order; on the first that fails, take back the others and return it."""
        for done, step in enumerate(steps):
            try:
                builder.step(step)
            except TavlaError:
                for _ in range(done):
                    builder.undo()
                return step
        return None

    def _play(self, turn: Turn) -> None:
        self.game.play(turn)
        self.say(f"You played {turn.text}")

    def _explain(
        self, text: str, step: str, builder: Any, played: list[str], turn_error: TavlaError | None
    ) -> None:
        reason = getattr(turn_error, "reason", None)
        if reason and reason != "illegal move":
            self.say(f"'{text}' is not legal: {reason}.")
        elif text == step:
            self.say(f"'{text}' is not legal here: neither a whole turn nor a single step.")
        else:
            self.say(f"'{text}' is not legal here: the step {step} cannot be played.")
        legal = ", ".join(builder.legal_steps()) or "none"
        sofar = f" after {' '.join(played)}" if played else ""
        self.say(f"Legal steps{sofar}: {legal}. Type 'moves' for the whole turns, 'help' for the syntax.")
