"""A stored tournament as the API and the pages show it (schemas.TournamentView)."""

from __future__ import annotations

import hashlib

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.server.tournaments import rounds
from tavla.server.tournaments.schemas import (
    EntrantView,
    PairingView,
    RoundView,
    StandingView,
    TournamentView,
)
from tavla.server.tournaments.stored import Stored, load
from tavla.storage.models import Tournament, TournamentPairing, User
from tavla.tournament.lengths import match_length


def _pairing(stored: Stored, pairing: TournamentPairing, arbiters: dict[int, str]) -> PairingView:
    entrants = {e.id: (e, u) for e, u in stored.entrants}
    white, white_user = entrants[pairing.white_id]
    black = None if pairing.black_id is None else entrants[pairing.black_id]
    arbiter = (
        None if pairing.confirmed_by_arbiter is None else arbiters.get(pairing.confirmed_by_arbiter, "?")
    )
    return PairingView(
        id=pairing.id,
        round=pairing.round,
        board=pairing.board,
        white=white_user.name,
        black=None if black is None else black[1].name,
        white_number=white.start_number,
        black_number=None if black is None else black[0].start_number,
        game_id=pairing.game_id,
        game_url=None if pairing.game_id is None else f"/game/{pairing.game_id}",
        result=pairing.result,
        white_score=pairing.white_score,
        black_score=pairing.black_score,
        white_confirmed=pairing.white_confirmed,
        black_confirmed=pairing.black_confirmed,
        confirmed_by_arbiter=arbiter,
        official=pairing.official,
    )


def _version(stored: Stored) -> str:
    """A digest of everything the view shows that changes as the tournament goes on."""
    parts = [stored.tournament.state, str(stored.tournament.current_round)]
    parts += [f"e{e.id}:{e.checked_in}:{e.start_number}:{e.withdrawn}" for e, _ in stored.entrants]
    parts += [
        f"p{p.id}:{p.game_id}:{p.result}:{p.white_confirmed}:{p.black_confirmed}:{p.official}"
        for p in stored.pairings
    ]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def view_of(stored: Stored, arbiters: dict[int, str]) -> TournamentView:
    """``arbiters``: the names of the arbiters who confirmed results, by account id."""
    tournament = stored.tournament
    total = stored.total_rounds()
    played_rounds = []
    for number in range(1, tournament.current_round + 1):
        length = match_length(stored.lengths, number, total or number)
        pairings = [_pairing(stored, p, arbiters) for p in stored.round_pairings(number)]
        played_rounds.append(RoundView(number=number, length=length, pairings=pairings))
    after = stored.official_rounds()
    lines = []
    if stored.starters():
        lines = rounds.table(tournament.format, stored.lengths, stored.players(), stored.played(), after)
    return TournamentView(
        id=tournament.id,
        federation=stored.federation.slug,
        federation_name=stored.federation.name,
        name=tournament.name,
        game=tournament.game,
        format=tournament.format,
        match_lengths=list(stored.lengths),
        rounds=total,
        state=tournament.state,
        current_round=tournament.current_round,
        entrants=[
            EntrantView(
                name=u.name,
                start_number=e.start_number,
                rating=e.rating,
                checked_in=e.checked_in,
                bot=u.bot_level is not None,
                guest=u.guest,
                final_rank=e.final_rank,
                withdrawn=e.withdrawn,
                withdrawn_round=e.withdrawn_round,
                withdrawn_note=e.withdrawn_note,
            )
            for e, u in sorted(stored.entrants, key=lambda item: (item[0].start_number or 10**6, item[0].id))
        ],
        played_rounds=played_rounds,
        standings=[StandingView(**line.__dict__) for line in lines],
        standings_after=after,
        version=_version(stored),
    )


async def view(db: AsyncSession, tournament: Tournament) -> TournamentView:
    stored = await load(db, tournament)
    ids = {p.confirmed_by_arbiter for p in stored.pairings if p.confirmed_by_arbiter is not None}
    names = await db.execute(select(User.id, User.name).where(User.id.in_(ids))) if ids else None
    return view_of(stored, {} if names is None else {i: n for i, n in names.all()})
