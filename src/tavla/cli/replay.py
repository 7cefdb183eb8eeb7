"""``tavla replay FILE``: step through a match record (JSON of any game, .mat of tabla)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from tavla.cli.board_view import position_renderable
from tavla.cli.errors import fail, reports_errors
from tavla.cli.match import describe, describe_match_end, describe_result, status_line
from tavla.match.mat import import_mat
from tavla.match.record import MatchRecord, replay_states


def load_record(path: Path) -> MatchRecord:
    try:
        text = path.read_text()
    except OSError as error:
        raise fail(f"{path}: {error.strerror or error}") from None
    if path.suffix.lower() == ".mat":
        return import_mat(text)
    return MatchRecord.from_json(text)


@reports_errors
def replay_command(
    file: Annotated[Path, typer.Argument(help="A match record: FILE.json, or FILE.mat (tabla).")],
    final: Annotated[bool, typer.Option("--final", help="Print only the final score and position.")] = False,
    board: Annotated[bool, typer.Option("--board", help="Draw the board after every turn.")] = False,
) -> None:
    """Replay a match record action by action, printing what happens and the positions."""
    console = Console(highlight=False, soft_wrap=True)

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False)

    record = load_record(file)
    states = list(replay_states(record))
    if not final:
        for index, action in enumerate(record.actions):
            before, after = states[index], states[index + 1]
            say(f"{index + 1:4d}. {describe(action, before, after)}")
            if action.kind == "move":
                if board:
                    console.print(position_renderable(after.position))
                else:
                    say(f"      {after.position.notation()}")
            if after.result is not None and before.result is None:
                say(describe_result(after))
    last = states[-1]
    say(status_line(last, last.clock.since_ms if last.clock else 0))
    say(f"Final position: {last.position.notation()}")
    if board and final:
        console.print(position_renderable(last.position))
    say(describe_match_end(last) if last.over else "The match is unfinished.")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
