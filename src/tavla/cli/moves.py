"""``tavla moves``: every legal turn of a position, one per line.

Each line is the turn's text, a TAB, and the position it leads to. A dice game
needs its dice in the TPN; a turn where no die can be played is the line ``-``,
TAB, the position after the pass. A game without dice (Abluka) lists its turns,
and nothing when the side to move has lost.

``tavla moves -`` answers one position per line of standard input, each answer
followed by an empty line and flushed at once, so that a program can drive it line
by line. Blank input lines are skipped. A bad line (one that is not UTF-8 included)
prints ``tavla: line N: ...`` on standard error and an empty answer (just the empty
line) on standard output, so the k-th answer always belongs to the k-th position; the
run goes on and ends with exit status 2.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

import tavla
from tavla.cli.errors import USAGE_ERROR, fail, utf8_line
from tavla.core.errors import TavlaError
from tavla.core.protocol import AnyPosition

FROM_STDIN = "-"


def _uses_dice(position: AnyPosition) -> bool:
    """A game whose positions need dice before anybody moves."""
    return position.definition.facts.has_dice


def answer(text: str) -> str:
    """The lines that answer one position, each ending in a newline.

    Raises TavlaError for a position that cannot be read or has nothing to play.
    """
    position = tavla.from_notation(text)
    if position.is_chance:
        raise TavlaError(f"dice '-': {position.game} needs the roll to play, e.g. 31 or 66")
    if _uses_dice(position):
        outcome = position.outcome()
        if outcome is not None:
            raise TavlaError(f"position {position.notation()!r}: the game is over, nothing to play")
    return "".join(f"{turn.text}\t{turn.after.notation()}\n" for turn in position.legal_turns())


def answer_stream(lines: Any, out: Any, err: Any) -> int:
    """Answer every line of ``lines`` on ``out``; returns the exit status."""
    status = 0
    number = 0
    while True:
        line = lines.readline()
        if not line:
            return status
        number += 1
        try:
            text = utf8_line(line).strip()
            if not text:
                continue
            out.write(answer(text) + "\n")
        except TavlaError as error:
            out.write("\n")
            err.write(f"tavla: line {number}: {error}\n")
            err.flush()
            status = USAGE_ERROR
        out.flush()


def moves(
    position: Annotated[
        str,
        typer.Argument(
            help="A position (TPN or Abluka's notation, docs/notation.md); '-': one per line from stdin."
        ),
    ],
) -> None:
    """Print every legal turn: the move text, a TAB, the resulting position.

    With '-', read one position per line from standard input; each answer ends with an empty line.
    A bad line gets an empty answer and a message with its line number on standard error;
    the other lines are still answered, and the exit status is then 2.
    """
    if position == FROM_STDIN:
        status = answer_stream(getattr(sys.stdin, "buffer", sys.stdin), sys.stdout, sys.stderr)
        if status:
            raise typer.Exit(status)
        return
    try:
        lines = answer(position)
    except TavlaError as error:
        raise fail(str(error)) from None
    sys.stdout.write(lines)
    sys.stdout.flush()


def register(app: typer.Typer) -> None:
    app.command("moves")(moves)
