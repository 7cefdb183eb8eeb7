"""A tournament's money (RULES.md 12; docs/ledger.md, the platform): the entry fee and
the prize shares an administrator sets when he creates it, sponsorship he records on a
sponsor's behalf, the fee charged on registration and refunded on withdrawal before the
start, and the prizes paid from the final table, once.

The tournament's own code keeps its entrants and results; this module is called around
it (the router, the director's finished-tournament hook) and books the money.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tavla.ledger.accounts import player_account, pool_account, sponsor_account
from tavla.ledger.errors import (
    ConflictError,
    InsufficientFundsError,
    LedgerError,
    TournamentClosedError,
    TournamentNotInLedgerError,
)
from tavla.ledger.service import Ledger
from tavla.ledger.tournaments import TournamentStatus, TournamentTerms
from tavla.server.errors import ApiError, invalid
from tavla.server.i18n import N_
from tavla.server.stakes.money import check_administrator, reference_taken, short_of_money
from tavla.server.stakes.schemas import Sponsorship
from tavla.storage.models import Federation, Tournament, TournamentEntrant, User

log = logging.getLogger(__name__)


def ledger_id(tournament_id: int) -> str:
    return f"t{tournament_id}"


def checked_terms(federation: Federation, fee_cents: int, shares: list[int]) -> TournamentTerms | None:
    """The money terms of a tournament about to be made, refused now if impossible;
    ``None``: a tournament without money."""
    if fee_cents == 0 and not shares:
        return None
    if not shares:
        raise invalid(N_("prize_shares: a tournament with an entry fee says how its pool is shared"))
    # The schema holds each share at 0 or more; the ledger would refuse all of them 0
    # in its own English words.
    if not any(shares):
        raise invalid(N_("prize_shares: at least one place wins a share above 0"))
    return TournamentTerms("pending", federation.slug, fee_cents, tuple(shares))


async def open_books(ledger: Ledger, tournament: Tournament, terms: TournamentTerms) -> None:
    await ledger.open_tournament(
        TournamentTerms(ledger_id(tournament.id), terms.federation, terms.entry_fee_cents, terms.prize_shares)
    )


async def terms_of(ledger: Ledger, tournament_id: int) -> dict[str, Any] | None:
    """What the tournament's page shows: the fee, the shares, the pool now."""
    tid = ledger_id(tournament_id)
    row = await ledger.tournament_row(tid)
    if row is None:
        return None
    pool = await ledger.balance(pool_account(row.federation, tid))
    return {
        "entry_fee_cents": row.entry_fee_cents,
        "prize_shares": list(row.prize_shares),
        "pool_cents": pool,
        "status": row.status,
    }


async def entry_fee_due(ledger: Ledger, tournament: Tournament, federation: Federation, user: User) -> None:
    """Refuse a registration the player cannot pay for, before it is made."""
    terms = await terms_of(ledger, tournament.id)
    if terms is None or terms["entry_fee_cents"] == 0:
        return
    available = await ledger.balance(player_account(federation.slug, user.name))
    if available < terms["entry_fee_cents"]:
        raise short_of_money(InsufficientFundsError(user.name, available, terms["entry_fee_cents"]))


async def entry_of(db: AsyncSession, tournament: Tournament, user: User) -> tuple[int, str] | None:
    """The player's registration: its row and the key of its fee in the books. The row
    id alone is not enough (SQLite gives a deleted row's id to the next one), so the
    key also has the registration's time: entering again after withdrawing pays again."""
    found = await db.scalar(
        select(TournamentEntrant).where(
            TournamentEntrant.tournament_id == tournament.id, TournamentEntrant.user_id == user.id
        )
    )
    return None if found is None else (found.id, f"{found.id}.{found.registered_ms}")


async def charge_entry(
    ledger: Ledger,
    sessions: async_sessionmaker[AsyncSession],
    tournament: Tournament,
    user: User,
    entry: tuple[int, str],
) -> None:
    """The entry fee of a registration just made; a player who could not pay after all
    (he spent it meanwhile) is taken off the list again."""
    try:
        await ledger.enter_tournament(ledger_id(tournament.id), user.name, entry=entry[1])
    except TournamentNotInLedgerError:
        return  # a tournament without money
    except InsufficientFundsError as error:
        async with sessions() as db, db.begin():
            await db.execute(delete(TournamentEntrant).where(TournamentEntrant.id == entry[0]))
        raise short_of_money(error) from None


async def refund_entry(ledger: Ledger, tournament: Tournament, user: User, entry: tuple[int, str]) -> None:
    try:
        await ledger.refund_entry(ledger_id(tournament.id), user.name, entry=entry[1])
    except TournamentNotInLedgerError:
        return


async def sponsor(
    db: AsyncSession,
    ledger: Ledger,
    actor: User,
    federation: Federation,
    tournament: Tournament,
    body: Sponsorship,
) -> dict[str, Any]:
    """An administrator records a sponsor's money and adds it to the pool: money enters
    the books only through him, as every deposit does."""
    await check_administrator(db, actor, federation)
    if tournament.state == "finished":
        raise ApiError(409, "finished", N_("not now: the tournament is finished"))
    await db.commit()
    tid = ledger_id(tournament.id)
    account = sponsor_account(federation.slug, body.sponsor)
    keys = (
        (None, None)
        if body.reference is None
        else (
            f"sponsor-deposit:{federation.slug}:{body.reference}",
            f"sponsorship:{federation.slug}:{body.reference}",
        )
    )
    actor_name = f"admin:{actor.name}"
    deposited = None
    try:
        if await terms_of(ledger, tournament.id) is None:
            raise ApiError(409, "no_pool", N_("this tournament has no prize pool"))
        deposited = await ledger.deposit(
            account, body.amount_cents, actor=actor_name, reason="sponsorship", key=keys[0]
        )
        record = await ledger.sponsor_tournament(
            tid, body.sponsor, body.amount_cents, actor=actor_name, key=keys[1]
        )
    except (ConflictError, InsufficientFundsError):
        # (Short of money only when the reference's deposit was paid back out before: a
        # reference given to a pool that had closed is spent.)
        raise reference_taken(body.reference) from None
    except TournamentClosedError:
        # Paid out between the check above and the booking: the money this request
        # paid in goes back out, so no balance is left where no page can reach it (a
        # repeated reference paid nothing in now).
        if deposited is not None and not deposited.repeated:
            await ledger.withdraw(account, body.amount_cents, actor=actor_name, reason="sponsorship refused")
        raise ApiError(409, "finished", N_("not now: the tournament's prize pool is closed")) from None
    return {"id": record.id, "repeated": record.repeated, "pool": await terms_of(ledger, tournament.id)}


async def pay_prizes(ledger: Ledger, sessions: async_sessionmaker[AsyncSession], tournament_id: int) -> None:
    """A finished tournament's prizes from its final table, best place first; paying
    again (a second hook, a restart) books nothing more."""
    terms = await terms_of(ledger, tournament_id)
    if terms is None or terms["status"] != TournamentStatus.OPEN.value:
        return
    async with sessions() as db:
        tournament = await db.get(Tournament, tournament_id)
        if tournament is None or tournament.state != "finished":
            return
        rows = await db.execute(
            select(User.name)
            .join(TournamentEntrant, TournamentEntrant.user_id == User.id)
            .where(
                TournamentEntrant.tournament_id == tournament_id, TournamentEntrant.final_rank.is_not(None)
            )
            .order_by(TournamentEntrant.final_rank, TournamentEntrant.start_number)
        )
        ranked = [name for (name,) in rows.all()]
    places = len(terms["prize_shares"])
    if len(ranked) < places:
        log.error("tournament %s: %d prizes but %d ranked players", tournament_id, places, len(ranked))
        return
    await ledger.pay_prizes(ledger_id(tournament_id), ranked[:places], actor="server")


async def pay_finished(ledger: Ledger, sessions: async_sessionmaker[AsyncSession]) -> int:
    """Pay every finished tournament whose pool is still open (at start-up)."""
    async with sessions() as db:
        finished = list(await db.scalars(select(Tournament.id).where(Tournament.state == "finished")))
    for tournament_id in finished:
        try:
            await pay_prizes(ledger, sessions, tournament_id)
        except LedgerError:
            log.exception("the prizes of tournament %s could not be paid", tournament_id)
    return len(finished)
