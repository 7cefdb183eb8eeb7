"""``tavla replay FILE``: step through a match record (JSON of any game, .mat of tabla).

``--ids`` adds gnubg's Position ID and Match ID after each action and in the summary
(tabla, antitabla and chelebi: RULES.md 9.4). ``--step`` walks the record at a prompt,
forwards and backwards (``replay_steps.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from tavla.cli.board_view import position_renderable
from tavla.cli.errors import fail, read_text_file, reports_errors
from tavla.cli.match import describe, describe_match_end, describe_result, status_line
from tavla.cli.replay_steps import ReplayStepper
from tavla.core.game import GameRecord
from tavla.core.record import RecordKind, read_envelope
from tavla.match.gnubg_ids import match_ids
from tavla.match.mat import import_mat
from tavla.match.record import MatchRecord, replay_states
from tavla.match.state import MatchState


def load_record(path: Path) -> MatchRecord:
    text = read_text_file(path)
    if path.suffix.lower() == ".mat":
        return import_mat(text)
    if read_envelope(text, "match record").kind is RecordKind.GAME:  # one game: shown as a match
        return MatchRecord.of_game(GameRecord.from_json(text))
    return MatchRecord.from_json(text)


def ids_line(state: MatchState) -> str:
    position_id, match_id = match_ids(state)
    return f"Position ID: {position_id}  Match ID: {match_id}"


@reports_errors
def replay_command(
    file: Annotated[
        Path, typer.Argument(help="A match record: FILE.json, or FILE.mat (tabla); see docs/records.md.")
    ],
    final: Annotated[bool, typer.Option("--final", help="Print only the final score and position.")] = False,
    board: Annotated[bool, typer.Option("--board", help="Draw the board after every turn.")] = False,
    ids: Annotated[
        bool, typer.Option("--ids", help="Print gnubg's Position ID and Match ID after every action.")
    ] = False,
    step: Annotated[
        bool, typer.Option("--step", help="Walk the record at a prompt: next, back, go to N.")
    ] = False,
) -> None:
    """Replay a match record action by action, printing what happens and the positions."""
    console = Console(highlight=False, soft_wrap=True)

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False)

    record = load_record(file)
    if ids and not record.has_gnubg_ids:
        raise fail(f"--ids: gnubg IDs exist for tabla, antitabla and chelebi, not {record.settings.game}")
    states = list(replay_states(record))
    if record.setup is not None:
        say(f"Set up from gnubg Position ID {record.setup[0]}, Match ID {record.setup[1]}.")
    if step:
        ReplayStepper(record.actions, states, console, extra=ids_line if ids else None).run()
        return
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
            if ids:
                say(f"      {ids_line(after)}")
    last = states[-1]
    say(status_line(last, last.clock.since_ms if last.clock else 0))
    say(f"Final position: {last.position.notation()}")
    if ids:
        say(f"Final {ids_line(last)}")
    if board and final:
        console.print(position_renderable(last.position))
    say(describe_match_end(last) if last.over else "The match is unfinished.")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
