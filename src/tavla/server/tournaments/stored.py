"""Reading a stored tournament: its rows, and the same seen as :mod:`.rounds` sees it."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.server.errors import not_found
from tavla.server.i18n import N_
from tavla.server.tournaments import rounds
from tavla.storage.models import Federation, Tournament, TournamentEntrant, TournamentPairing, User


async def read_one_moment(db: AsyncSession) -> None:
    """Make ``db``'s transaction read the database as it was at one moment: the view's
    queries (the tournament, its entrants, its boards) would otherwise each see the
    latest commit, and a round finishing between them would show its standings with the
    state before. Call it before the transaction's first statement. PostgreSQL takes
    the snapshot at the first query under REPEATABLE READ (a reader is never refused);
    SQLite's driver opens no transaction for reads unless told to, and in WAL mode a
    transaction reads one snapshot while writers go on."""
    if db.get_bind().dialect.name == "postgresql":
        await db.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        return
    connection = await db.connection()
    await connection.exec_driver_sql("BEGIN")


async def tournament_at(db: AsyncSession, tournament_id: int, *, for_update: bool = False) -> Tournament:
    statement = select(Tournament).where(Tournament.id == tournament_id)
    if for_update:
        statement = statement.with_for_update()
    found = await db.scalar(statement)
    if found is None:
        raise not_found(N_("no tournament has the number {number}"), number=tournament_id)
    return found


@dataclass
class Stored:
    """A tournament with its federation, entrants (and their accounts) and pairings."""

    tournament: Tournament
    federation: Federation
    entrants: list[tuple[TournamentEntrant, User]]
    pairings: list[TournamentPairing]

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(self.tournament.match_lengths)

    def starters(self) -> list[tuple[TournamentEntrant, User]]:
        """The entrants who started, by start number."""
        started = [(e, u) for e, u in self.entrants if e.start_number is not None]
        return sorted(started, key=lambda item: item[0].start_number or 0)

    def players(self) -> list[rounds.Player]:
        return [rounds.Player(e.start_number or 0, u.name, e.withdrawn) for e, u in self.starters()]

    def number_of(self) -> dict[int, int]:
        """Start number by entrant id."""
        return {e.id: e.start_number for e, _ in self.entrants if e.start_number is not None}

    def total_rounds(self) -> int | None:
        field = len(self.starters())
        if not field:
            return self.tournament.rounds
        return rounds.total_rounds(self.tournament.format, self.tournament.rounds, field)

    def played(self, official_only: bool = True) -> list[rounds.Played]:
        numbers = self.number_of()
        return [
            rounds.Played(
                p.round,
                p.board,
                numbers[p.white_id],
                None if p.black_id is None else numbers[p.black_id],
                p.result,
                p.white_score,
                p.black_score,
            )
            for p in self.pairings
            if p.result is not None and (p.official or not official_only)
        ]

    def round_pairings(self, number: int) -> list[TournamentPairing]:
        return sorted((p for p in self.pairings if p.round == number), key=lambda p: p.board)

    def official_rounds(self) -> int:
        """The rounds whose every result is official, counted from the first."""
        done = 0
        for number in range(1, self.tournament.current_round + 1):
            if not all(p.official for p in self.round_pairings(number)):
                break
            done = number
        return done


async def load(db: AsyncSession, tournament: Tournament) -> Stored:
    federation = await db.get(Federation, tournament.federation_id)
    if federation is None:  # the foreign key keeps it
        raise RuntimeError(f"tournament {tournament.id} has no federation")
    entrants = await db.execute(
        select(TournamentEntrant, User)
        .join(User, User.id == TournamentEntrant.user_id)
        .where(TournamentEntrant.tournament_id == tournament.id)
        .order_by(TournamentEntrant.registered_ms, TournamentEntrant.id)
    )
    pairings = await db.scalars(
        select(TournamentPairing)
        .where(TournamentPairing.tournament_id == tournament.id)
        .order_by(TournamentPairing.round, TournamentPairing.board)
    )
    return Stored(tournament, federation, [(e, u) for e, u in entrants.all()], list(pairings))
