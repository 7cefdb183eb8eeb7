"""``tavla verify-dice RECORD.json``: check a record's fair dice (docs/fair-dice.md).

One line per game, with its client seed: OK, or what does not verify (the first roll that differs from
the seeds, a server seed that is not the one committed to, a seed not revealed).
Exit status 0 when every game verifies, 1 when any does not or the record holds no
fair dice, 2 for a file that cannot be read as a record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from tavla.cli.errors import reports_errors
from tavla.cli.replay import load_record
from tavla.cli.wording import counted
from tavla.match.fairdice import GameCheck, chain_breaks, verify_match_dice

NOT_VERIFIED = 1


def check_line(check: GameCheck, client_seed: str | None) -> Text:
    """``Game N (client seed 'a:b'): OK ...`` or ``... FAILED ...``. The seed is shown
    so that players see their own seed went into the dice; the line is plain text, so
    a seed with square brackets is never read as Rich markup."""
    verdict = check.verdict
    seed = "" if client_seed is None else f" (client seed {client_seed!r})"
    line = Text(f"Game {check.game}{seed}: ")
    if verdict.ok:
        line.append("OK", style="bold green")
        line.append(f" ({verdict.message})")
        return line
    line.append("FAILED", style="bold red")
    where = "" if check.action is None else f" at action {check.action}"
    line.append(f" [{verdict.problem}]{where}: {verdict.message}")
    return line


@reports_errors
def verify_dice_command(
    file: Annotated[
        Path, typer.Argument(help="A match record (JSON) saved with fair dice; see docs/records.md.")
    ],
) -> None:
    """Check every game's dice of a record against its seeds and commitment (docs/fair-dice.md)."""
    console = Console(highlight=False, soft_wrap=True)
    record = load_record(file)
    if not record.settings.definition.facts.has_dice:
        console.print(f"{record.settings.game} is played without dice: nothing to check.", markup=False)
        return
    if not record.dice:
        console.print("The record holds no fair dice: its dice cannot be verified.", markup=False)
        raise typer.Exit(NOT_VERIFIED)
    checks = verify_match_dice(record)
    for check in checks:
        entry = record.dice[check.game - 1] if check.game <= len(record.dice) else None
        console.print(check_line(check, None if entry is None else entry.client_seed))
    failed = sum(not check.verdict.ok for check in checks)
    if failed:
        verb = "does" if failed == 1 else "do"
        console.print(f"{failed} of {counted(len(checks), 'game')} {verb} not verify.", markup=False)
        raise typer.Exit(NOT_VERIFIED)
    if len(record.dice) > 1:
        if chain_breaks(record.dice):
            console.print("The games' seeds were drawn one by one, not as one chain.", markup=False)
        else:
            console.print("Each game's commitment is the seed revealed before it: one chain.", markup=False)
    verdict = "The game's dice verify." if len(checks) == 1 else f"All {len(checks)} games' dice verify."
    console.print(verdict, markup=False)


def register(app: typer.Typer) -> None:
    app.command("verify-dice")(verify_dice_command)
