"""A person's turn typed at a prompt: a whole turn, or one step (die) at a time.

Shared by ``tavla play`` and ``tavla match``. Steps go to the position's step builder,
which never lists whole turns, so long progressive doubles (chelebi, gulbara) start at
once. ``undo`` takes back a step and ``done`` commits (RULES.md 1.3, 13); a whole turn
typed at once is committed at once. Anything illegal is explained with the legal steps
and the turn stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from tavla.core.digits import is_digits
from tavla.core.errors import IllegalMoveError, TavlaError
from tavla.core.protocol import AnyPosition, StepBuilder, Turn
from tavla.render.board import roll_text
from tavla.rules.turns import bounded_turns

SHOWN_TURNS = 60
"""Legal turns listed by ``moves``; the rest are counted."""
DICE_SYNTAX = """\
A turn is written in your own numbering (you move from 24 towards 1):
  24/18 13/11    two checkers, one die each
  13/7*/5        one checker using both dice, hitting on 7 ('*' is optional)
  bar/22         enter from the bar;   6/off   bear off
  8/5(2)         two checkers from 8 to 5
You may also play one die at a time: 13/7, then 7/5, then 'done' to commit."""

Say = Callable[[str], None]


def dice_text(position: AnyPosition) -> str:
    """The roll to play as ``6-5`` (the higher die first), or nothing where there are no dice."""
    dice = position.dice
    return roll_text(dice) if dice else ""


def expand_steps(text: str) -> list[str]:
    """``8/5(2)`` -> two ``8/5``; ``13/7*/5`` -> ``13/7*`` and ``7/5``; other words as they are."""
    steps: list[str] = []
    for token in text.replace(",", " ").split():
        count = 1
        if token.endswith(")") and "(" in token:
            token, _, tail = token.partition("(")
            count = int(tail[:-1]) if is_digits(tail[:-1]) else 0
            if not 1 <= count <= 4:
                raise IllegalMoveError(text, "", f"'({tail}' is not a repeat count such as (2)")
        pieces = token.split("/")
        chain = [f"{a.rstrip('*')}/{b}" for a, b in pairwise(pieces)] or [token]
        steps.extend(chain * count)
    return steps


class TurnEntry:
    """The turn being entered for ``position``: the steps played so far, until committed.

    :meth:`handle` takes one input line and returns the committed turn once the turn is
    done; until then nothing is played on the game, so the steps can be taken back.
    Messages go to ``say``. One entry serves one turn: make a new one for the next.
    """

    def __init__(self, position: AnyPosition, say: Say) -> None:
        self.position = position
        self.say = say
        # The steps, not the whole turns: long progressive doubles start at once.
        self.builder: StepBuilder[Turn] = position.steps()
        self.played: list[str] = []
        self.no_move = self.builder.complete
        """True when nothing can be played: the turn is the pass."""

    @property
    def progress(self) -> str:
        """The steps played so far, for the prompt: `` [13/7 7/5]``, or nothing."""
        return f" [{' '.join(self.played)}]" if self.played else ""

    def handle(self, line: str) -> Turn | None:
        """Answer ``undo``, ``done``, ``moves``/``hint`` or a move; the turn once committed."""
        text = line.strip()
        command = text.lower()
        if not command:
            return None
        if command in ("moves", "hint"):
            self.list_turns()
            return None
        if command == "undo":
            self.undo()
            return None
        if command == "done":
            return self.done()
        return self.move(text)

    # ------------------------------------------------------------------ commands
    def undo(self) -> None:
        if not self.played:
            self.say("Nothing to take back: no step played this turn.")
            return
        self.builder.undo()
        self.say(f"Took back {self.played.pop()}.")

    def done(self) -> Turn | None:
        """The turn the steps form, or None (explained) while it is incomplete."""
        if not self.builder.complete:
            steps = ", ".join(self.builder.legal_steps())
            self.say(f"The turn is not complete yet. Legal steps now: {steps}")
            return None
        return self.builder.commit()

    def move(self, text: str) -> Turn | None:
        """Steps added to the turn being built, or a whole turn; the turn when committed.

        Steps come first (cheap even for long progressive doubles); a whole turn typed at
        once is committed at once, steps typed one by one wait for ``done``.
        """
        try:
            steps: list[str] | None = expand_steps(text)
        except IllegalMoveError as error:
            steps, unreadable = None, error.reason
        failed = self._apply(steps) if steps is not None else None
        if steps is not None and failed is None:
            if not self.played and self.builder.complete:
                return self.builder.commit()
            self.played.extend(steps)
            if self.builder.complete:
                self.say("The turn is complete: 'done' commits it, 'undo' takes back a step.")
            else:
                self.say(f"Legal steps now: {', '.join(self.builder.legal_steps())}")
            return None
        turn_error: TavlaError | None = None
        if not self.played:
            # Written as a whole turn in a way the steps cannot follow (24/13 for 6-5).
            try:
                return self.position.parse_turn(text)
            except TavlaError as error:
                turn_error = error
        if steps is None:
            self.say(f"'{text}' cannot be read: {unreadable}. Type 'help' for the syntax.")
            return None
        self._explain(text, failed or text, turn_error)
        return None

    def list_turns(self) -> None:
        """The legal turns in columns (the first :data:`SHOWN_TURNS`), or the legal steps
        where the turns are too many to list."""
        turns = bounded_turns(self.position)
        if turns is None:
            steps = ", ".join(self.builder.legal_steps()) or "none"
            sofar = f" after {' '.join(self.played)}" if self.played else ""
            self.say("Too many legal turns to list (a long progressive double); play it step by step.")
            self.say(f"Legal steps{sofar}: {steps}")
            return
        texts = [turn.text for turn in turns]
        self.say(f"Legal turns ({len(texts)}):")
        shown = texts[:SHOWN_TURNS]
        width = max(len(text) for text in shown) + 2
        per_line = max(1, 72 // width)
        for start in range(0, len(shown), per_line):
            self.say("  " + "".join(text.ljust(width) for text in shown[start : start + per_line]).rstrip())
        if len(texts) > SHOWN_TURNS:
            self.say(f"  ... and {len(texts) - SHOWN_TURNS} more")

    def syntax(self) -> str:
        """How to write a turn in this game."""
        if dice_text(self.position):
            return DICE_SYNTAX
        turns = bounded_turns(self.position)
        example = turns[0].text if turns else (list(self.builder.legal_steps()) or ["-"])[0]
        return f"Enter a whole turn, e.g. {example}, or one step at a time, then 'done'."

    # ------------------------------------------------------------------ helpers
    def _apply(self, steps: list[str]) -> str | None:
        """Play ``steps`` in order; on the first that fails, take back the others and return it."""
        for count, step in enumerate(steps):
            try:
                self.builder.step(step)
            except TavlaError:
                for _ in range(count):
                    self.builder.undo()
                return step
        return None

    def _explain(self, text: str, step: str, turn_error: TavlaError | None) -> None:
        reason = getattr(turn_error, "reason", None)
        if reason and reason != "illegal move":
            self.say(f"'{text}' is not legal: {reason}.")
        elif text == step:
            self.say(f"'{text}' is not legal here: neither a whole turn nor a single step.")
        else:
            self.say(f"'{text}' is not legal here: the step {step} cannot be played.")
        if self.played and self.builder.complete:
            self.say("The turn is complete: 'done' commits it, 'undo' takes back a step.")
            return
        legal = ", ".join(self.builder.legal_steps()) or "none"
        sofar = f" after {' '.join(self.played)}" if self.played else ""
        self.say(f"Legal steps{sofar}: {legal}. Type 'moves' for the whole turns, 'help' for the syntax.")
