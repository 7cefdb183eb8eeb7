"""A stored Swiss tournament as a FIDE Tournament Report File (TRF16, tavla.tournament.trf):
what other pairing programs (bbpPairings, JaVaFo) and rating officers read.

Only official rounds are written: the report is what the pairings were made from.
"""

from __future__ import annotations

from dataclasses import replace

from tavla.server.errors import ApiError
from tavla.server.i18n import N_
from tavla.server.tournaments import rounds
from tavla.server.tournaments.stored import Stored
from tavla.tournament.history import Colour
from tavla.tournament.trf import TrfPlayer, TrfTournament, write_trf

NAME_TAG = "012"


def report(stored: Stored) -> str:
    tournament = stored.tournament
    if tournament.format != rounds.SWISS:
        raise ApiError(409, "not_swiss", N_("a tournament report (TRF) is for Swiss tournaments only"))
    done = stored.official_rounds()
    history = {e.number: e for e in rounds.histories(stored.players(), stored.played(), done, rounds.SWISS)}
    players = tuple(
        TrfPlayer(
            replace(history[entrant.start_number or 0], rating=entrant.rating),
            rank="" if entrant.final_rank is None else str(entrant.final_rank),
        )
        for entrant, _ in stored.starters()
    )
    # The Dutch pairing gives the top seed White in round 1 (dutch.pair_round's default).
    return write_trf(
        TrfTournament(
            players,
            headers=(f"{NAME_TAG} {tournament.name}",),
            total_rounds=stored.total_rounds(),
            first_colour=Colour.WHITE,
        )
    )
