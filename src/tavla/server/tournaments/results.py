"""Results: recorded when a game finishes, official when both players confirm them or
an arbiter does (RULES.md 11.4); the tournament ends with the last official round."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from tavla.server.accounts import now_ms
from tavla.server.events import GameFinished
from tavla.server.ratings.apply import apply_official_result
from tavla.server.tournaments import rounds
from tavla.server.tournaments.stored import Stored
from tavla.storage.models import Tournament, TournamentPairing

RESULT_OF_WINNER = {0: "white", 1: "black", None: "draw"}
"""White plays seat 0 of the game (director.py)."""
FORFEIT_OF_WINNER = {0: "white_ff", 1: "black_ff", None: "both_ff"}
"""A match an official's forfeit ended (a withdrawal, the no-show procedure, an
arbiter's decision; both players when he voided it): a forfeit on the board, as in a
TRF report, neither played for the Swiss pairing nor rated (docs/tournaments.md)."""


async def record_game(
    db: AsyncSession,
    stored: Stored,
    pairing: TournamentPairing,
    event: GameFinished,
    *,
    forfeited: bool = False,
) -> None:
    """The finished game's result on its board; a bot confirms its side at once."""
    pairing.white_score, pairing.black_score = event.score
    if forfeited:
        await record_forfeit(db, stored, pairing, FORFEIT_OF_WINNER[event.winner])
        return
    pairing.result = RESULT_OF_WINNER[event.winner]
    users = {entrant.id: user for entrant, user in stored.entrants}
    pairing.white_confirmed = users[pairing.white_id].bot_level is not None
    pairing.black_confirmed = pairing.black_id is not None and users[pairing.black_id].bot_level is not None
    await settle(db, stored, pairing)


async def record_forfeit(db: AsyncSession, stored: Stored, pairing: TournamentPairing, result: str) -> None:
    """A forfeit ("white_ff", "black_ff", "both_ff") is official at once: it follows
    from a withdrawal, which nobody confirms or disputes."""
    pairing.result = result
    pairing.white_confirmed = pairing.black_confirmed = True
    await settle(db, stored, pairing)


async def settle(db: AsyncSession, stored: Stored, pairing: TournamentPairing) -> None:
    """Make the result official when it is confirmed enough, and rate it (once, however
    often this runs); finish the tournament when that was the last result of its last round."""
    confirmed = pairing.white_confirmed and pairing.black_confirmed
    if pairing.result is not None and (confirmed or pairing.confirmed_by_arbiter is not None):
        pairing.official = True
    await db.flush()
    if pairing.official:
        await apply_official_result(db, stored, pairing)
    finish_if_done(stored)


def finish_if_done(stored: Stored) -> bool:
    """The last round is official: the tournament is finished and its final table kept."""
    tournament: Tournament = stored.tournament
    total = stored.total_rounds()
    if tournament.state != "running" or total is None or stored.official_rounds() < total:
        return False
    lines = rounds.table(tournament.format, stored.lengths, stored.players(), stored.played(), total)
    rank_of = {line.number: line.rank for line in lines}
    for entrant, _ in stored.starters():
        entrant.final_rank = rank_of.get(entrant.start_number or 0)
    tournament.state = "finished"
    tournament.finished_ms = now_ms()
    return True
