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

Turns are written as they are found (a long progressive double has its first lines
at once). ``--limit N`` shows at most N turns of each position; when it cuts a list,
a line on standard error says how many were shown, and of how many when known.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Iterator
from typing import Annotated, Any, TextIO

import typer

import tavla
from tavla.cli.errors import POSITION_ARGUMENT, USAGE_ERROR, fail, reject_option_like, utf8_line
from tavla.core.errors import TavlaError
from tavla.core.protocol import AnyPosition, Turn
from tavla.rules.turns import bounded_turns
from tavla.rules.turnstream import stream_turns

FROM_STDIN = "-"


def _uses_dice(position: AnyPosition) -> bool:
    """A game whose positions need dice before anybody moves."""
    return position.definition.facts.has_dice


def checked_position(text: str) -> AnyPosition:
    """The position of ``text`` if it has turns to list; TavlaError otherwise."""
    position = tavla.from_notation(text)
    if position.is_chance:
        raise TavlaError(f"dice '-': {position.game} needs the roll to play, e.g. 31 or 66")
    if _uses_dice(position):
        outcome = position.outcome()
        if outcome is not None:
            raise TavlaError(f"position {position.notation()!r}: the game is over, nothing to play")
    return position


class Cut(Exception):
    """The ``--limit`` stopped the list: how many were shown, and the total if known."""

    def __init__(self, shown: int, total: int | None) -> None:
        self.shown = shown
        self.total = total
        what = f"{shown} of {total} legal turns" if total is not None else f"the first {shown} legal turns"
        more = "" if total is not None else "; there are more"
        super().__init__(f"--limit {shown}: showed {what}{more}")


def turn_lines(position: AnyPosition, limit: int | None = None) -> Iterator[str]:
    """One line per legal turn, each as soon as it is known; raises :class:`Cut`
    instead of the line after ``limit`` lines.

    A turn list that is quick to make is listed whole, in its usual order. A long
    progressive double (over a hundred thousand turns, a minute of work) is walked
    turn by turn instead (:func:`stream_turns`), so its first lines show at once.
    """
    listed = bounded_turns(position)
    turns: Iterable[Turn] = listed if listed is not None else stream_turns(position)
    for count, turn in enumerate(turns):
        if limit is not None and count == limit:
            raise Cut(limit, None if listed is None else len(listed))
        yield f"{turn.text}\t{turn.after.notation()}\n"


def answer(text: str, limit: int | None = None) -> str:
    """The lines that answer one position, each ending in a newline (a cut list ends early).

    Raises TavlaError for a position that cannot be read or has nothing to play.
    """
    lines: list[str] = []
    with contextlib.suppress(Cut):
        lines.extend(turn_lines(checked_position(text), limit))
    return "".join(lines)


def write_answer(text: str, out: TextIO, limit: int | None) -> str | None:
    """Write the answer to ``text`` on ``out`` line by line, flushing as turns come;
    returns the note to show when ``limit`` cut the list. TavlaError before any line."""
    position = checked_position(text)
    try:
        for line in turn_lines(position, limit):
            out.write(line)
            out.flush()  # a client sees each turn as it is found
    except Cut as cut:
        return str(cut)
    return None


def answer_stream(lines: Any, out: Any, err: Any, limit: int | None = None) -> int:
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
            note = write_answer(text, out, limit)
        except TavlaError as error:
            note = str(error)
            status = USAGE_ERROR
        if note is not None:
            err.write(f"tavla: line {number}: {note}\n")
            err.flush()
        out.write("\n")
        out.flush()


def moves(
    position: Annotated[
        str,
        typer.Argument(
            help="A position (TPN or Abluka's notation, docs/notation.md); '-': one per line from stdin."
        ),
    ],
    limit: Annotated[
        int | None,
        typer.Option("--limit", min=1, help="Show at most this many turns of a position (a note says so)."),
    ] = None,
) -> None:
    """Print every legal turn: the move text, a TAB, the resulting position.

    Turns are printed as they are found, so a long progressive double starts at once.
    With '-', read one position per line from standard input; each answer ends with an empty line.
    A bad line gets an empty answer and a message with its line number on standard error;
    the other lines are still answered, and the exit status is then 2.
    """
    reject_option_like(position)
    if position == FROM_STDIN:
        status = answer_stream(getattr(sys.stdin, "buffer", sys.stdin), sys.stdout, sys.stderr, limit)
        if status:
            raise typer.Exit(status)
        return
    try:
        note = write_answer(position, sys.stdout, limit)
    except TavlaError as error:
        raise fail(str(error)) from None
    if note is not None:
        print(f"tavla: {note}", file=sys.stderr)


def register(app: typer.Typer) -> None:
    app.command("moves", context_settings=POSITION_ARGUMENT)(moves)
