"""Deposits, withdrawals and who may read which books (docs/ledger.md, the platform).

Money enters and leaves the ledger only through a federation's administrator: he
records a deposit or a withdrawal for a player of his own federation, against the
federation's cash account, and the transaction names him. A player reads his own
statement; the administrators read their federation's books.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.ledger.accounts import AccountKind, player_account
from tavla.ledger.errors import AmountError, ConflictError, InsufficientFundsError
from tavla.ledger.games import GameStatus
from tavla.ledger.postings import TransactionKind
from tavla.ledger.service import Ledger
from tavla.ledger.views import Statement, TransactionRecord
from tavla.server.accounts import name_key
from tavla.server.errors import ApiError, forbidden, invalid, not_found
from tavla.server.federations.standing import Role, standing_of
from tavla.server.i18n import N_, Money
from tavla.server.stakes.schemas import CashMovement
from tavla.storage.models import Federation, User


def short_of_money(error: InsufficientFundsError) -> ApiError:
    return ApiError(
        409,
        "insufficient_funds",
        N_("not enough money: {available} available, {needed} needed"),
        available=Money(error.balance_cents),
        needed=Money(error.needed_cents),
    )


def reference_taken(reference: str | None) -> ApiError:
    """A movement's reference already booked for a different movement (the same one
    again is booked once, and answered as it was)."""
    return ApiError(
        409,
        "conflict",
        N_("the reference {reference} is already booked for another movement"),
        reference=reference or "",
    )


async def player_of(
    db: AsyncSession, federation: Federation, name: str, ledger: Ledger | None = None
) -> User:
    """The account called ``name`` if it is a player of ``federation``; with ``ledger``,
    also a former player who still has money in its books (he left or was removed, and
    his money is paid out to him or read, never kept)."""
    user = await db.scalar(select(User).where(User.name_key == name_key(name.strip())))
    if user is None:
        raise not_found(N_("no account is called {name}"), name=name)
    if (await standing_of(db, user)).holds(federation.id, Role.PLAYER):
        return user
    if ledger is None or await ledger.balance(player_account(federation.slug, user.name)) == 0:
        raise ApiError(
            409,
            "not_a_player",
            N_("{name} is not a player of {federation}"),
            name=name,
            federation=federation.name,
        )
    return user


async def check_administrator(db: AsyncSession, actor: User | None, federation: Federation) -> None:
    if not (await standing_of(db, actor)).holds(federation.id, Role.ADMINISTRATOR):
        raise forbidden(
            N_("only an administrator of {federation} may move money or read its books"),
            federation=federation.name,
        )


async def move_cash(
    db: AsyncSession,
    ledger: Ledger,
    actor: User,
    federation: Federation,
    name: str,
    body: CashMovement,
    *,
    withdrawal: bool,
) -> TransactionRecord:
    """Record a deposit (or withdrawal) for a player; the request's session is ended
    before the ledger books, so that SQLite's one writer is not kept waiting on it."""
    await check_administrator(db, actor, federation)
    player = await player_of(db, federation, name, ledger if withdrawal else None)
    if player.id == actor.id:
        # Nobody books money for himself: another administrator records his payments.
        raise forbidden(
            N_("another administrator of {federation} records your own money"), federation=federation.name
        )
    await db.commit()
    account = player_account(federation.slug, player.name)
    kind = "withdrawal" if withdrawal else "deposit"
    key = None if body.reference is None else f"{kind}:{federation.slug}:{body.reference}"
    book = ledger.withdraw if withdrawal else ledger.deposit
    try:
        return await book(
            account, body.amount_cents, actor=f"admin:{actor.name}", reason=body.reason or kind, key=key
        )
    except InsufficientFundsError as error:
        raise short_of_money(error) from None
    except ConflictError:
        raise reference_taken(body.reference) from None
    except AmountError as error:
        raise invalid(N_("not a possible amount: {detail}"), detail=str(error)) from None


def transaction_json(record: TransactionRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "kind": record.kind.value,
        "actor": record.actor,
        "reason": record.reason,
        "repeated": record.repeated,
        "entries": [
            {"account": str(entry.account), "amount_cents": entry.amount_cents, "memo": entry.memo}
            for entry in record.entries
        ],
    }


def statement_json(statement: Statement, in_play: set[str]) -> dict[str, Any]:
    """A player's lines, oldest first; a reservation is money held in a game being
    played (``in_play``: its game ids), counted apart until the game closes."""
    held = sum(
        -line.amount_cents
        for line in statement.lines
        if line.kind is TransactionKind.RESERVATION and line.game_id in in_play
    )
    return {
        "balance_cents": statement.balance_cents,
        "reserved_cents": held,
        "lines": [
            {
                "id": line.transaction_id,
                "kind": line.kind.value,
                "reservation": line.kind is TransactionKind.RESERVATION,
                "held": line.kind is TransactionKind.RESERVATION and line.game_id in in_play,
                "amount_cents": line.amount_cents,
                "balance_after_cents": line.balance_after_cents,
                "memo": line.memo,
                "actor": line.actor,
                "reason": line.reason,
                "created_ms": line.created_ms,
                "game_id": line.game_id,
                "tournament_id": line.tournament_id,
            }
            for line in statement.lines
        ],
    }


async def player_statement(
    db: AsyncSession, ledger: Ledger, viewer: User, federation: Federation, name: str
) -> dict[str, Any]:
    """A player's balance and statement: for himself and his federation's administrators."""
    if viewer.name_key != name.lower():
        who = await standing_of(db, viewer)
        if not who.holds(federation.id, Role.ADMINISTRATOR):
            raise forbidden(N_("a player's money is his own and his federation administrators' to see"))
    player = await player_of(db, federation, name, ledger)
    statement = await ledger.statement(player_account(federation.slug, player.name))
    reserved = {line.game_id for line in statement.lines if line.kind is TransactionKind.RESERVATION}
    in_play = {
        game_id
        for game_id in reserved
        if game_id is not None and (await ledger.game(game_id)).status is GameStatus.RESERVED
    }
    return {"federation": federation.slug, "player": player.name, **statement_json(statement, in_play)}


async def books(
    db: AsyncSession, ledger: Ledger, viewer: User | None, federation: Federation
) -> dict[str, Any]:
    """The federation's fees, its cash and every account: an administrator's view. The
    accounts sum to zero (cash is minus what the federation holds for others)."""
    await check_administrator(db, viewer, federation)
    balances = await ledger.balances(federation.slug)
    fees = await ledger.fee_report(federation.slug)
    by_kind: dict[str, int] = {}
    for account, cents in balances.items():
        by_kind[account.kind.value] = by_kind.get(account.kind.value, 0) + cents
    cash = sum(cents for account, cents in balances.items() if account.kind is AccountKind.CASH)
    return {
        "federation": federation.slug,
        "fees_collected_cents": fees.collected_cents,
        "house_balance_cents": fees.balance_cents,
        "fee_by_game": [{"game_id": game, "fee_cents": cents} for game, cents in fees.fee_by_game],
        "cash_cents": cash,
        "held_for_others_cents": -cash,
        "total_cents": sum(balances.values()),
        "by_kind_cents": by_kind,
        "accounts": [
            {
                "account": str(account),
                "kind": account.kind.value,
                "owner": account.owner,
                "balance_cents": cents,
            }
            for account, cents in sorted(balances.items(), key=lambda item: item[0].sort_key())
        ],
    }
