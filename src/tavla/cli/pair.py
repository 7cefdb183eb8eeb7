"""``tavla pair FILE.trf``: the next round of a Swiss tournament by the FIDE Dutch system.

The file is a FIDE Tournament Report (TRF16) holding the rounds played so far, with
``XXR`` (the number of rounds) and optionally ``XXC white1`` / ``XXC black1``; players with
an H or Z already written in the next round's column sit that round out. The output is
that of ``bbpPairings --dutch FILE.trf -p``: the number of lines, then ``white black`` per
board and ``N 0`` for the bye. A file that cannot be paired gives one line on standard
error and exit status 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tavla.cli.errors import read_text_file, reports_errors
from tavla.tournament.dutch import pair_round, pairing_lines
from tavla.tournament.history import TournamentError
from tavla.tournament.trf import read_trf


@reports_errors
def pair_command(
    file: Annotated[Path, typer.Argument(help="A TRF16 file with the rounds played so far and XXR.")],
) -> None:
    """Pair the next Swiss round (FIDE Dutch system) as bbpPairings -p prints it; see docs/tournaments.md."""
    tournament = read_trf(read_text_file(file))
    if tournament.total_rounds is None:
        raise TournamentError(f"{file}: the number of rounds (an 'XXR n' line) is missing")
    pairing = pair_round(
        tournament.entrants,
        tournament.played_rounds,
        tournament.total_rounds,
        tournament.absent_from_next_round(),
        tournament.first_colour,
    )
    typer.echo("\n".join(pairing_lines(pairing)))


def register(app: typer.Typer) -> None:
    app.command("pair")(pair_command)
