"""Games played for money from the lobby (RULES.md 12; docs/ledger.md, the platform).

An offer made within a federation may carry a stake: a single game an initial and a
maximum stake, a match (or an Abluka game) a fixed stake. Both players must be
players of that federation with the money available: checked when the offer is
made and when it is accepted. Play starts when the offer is accepted: both maximum
stakes are reserved then, before the game exists, so a game never runs without its
money held. The result is official when the live game is stored as finished (for a
tournament's games too: the arbiters' confirmation is the tournament's business, not
the money's); that settles the game, and a game that ends with no winner (a void
tapa game, both mothers pinned) releases both reservations. The ledger's unique
event keys make a second delivery of the finish, or a second process, change nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tavla.ledger.accounts import player_account
from tavla.ledger.errors import GameNotInLedgerError, InsufficientFundsError, LedgerError
from tavla.ledger.games import GameStatus
from tavla.ledger.service import Ledger
from tavla.ledger.stakes import GameStake, MatchStake, StakeTerms, stake_terms_from_json
from tavla.ledger.tables import StakedGameRow
from tavla.match.settings import MatchSettings
from tavla.server.errors import ApiError, invalid
from tavla.server.events import GameFinished
from tavla.server.federations.service import federation_at
from tavla.server.federations.standing import Role, standing_of
from tavla.server.i18n import N_, Money
from tavla.server.stakes.money import short_of_money
from tavla.server.stakes.schemas import StakeChoice
from tavla.storage.models import Federation, LiveGame, User

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StakeDeal:
    """The money side of an offer: the federation's books and the terms."""

    federation: Federation
    terms: StakeTerms


def stake_terms(choice: StakeChoice, settings: MatchSettings, has_dice: bool) -> StakeTerms:
    """A single dice game takes an initial and a maximum stake; a match, or an Abluka
    game (no points to multiply), a fixed stake."""
    single = settings.length == 0 and has_dice
    # The amounts are whole cents of at least 1 (StakeChoice): the ledger refuses nothing
    # else of them, and each refusal is said here in the reader's language.
    if single:
        initial, maximum = choice.initial_cents, choice.maximum_cents
        if initial is None or maximum is None or choice.stake_cents is not None:
            raise invalid(N_("a single game's stake is an initial and a maximum stake"))
        if maximum < initial:
            raise invalid(
                N_("the maximum stake, {maximum}, is below the initial stake, {initial}"),
                maximum=Money(maximum),
                initial=Money(initial),
            )
        return GameStake(initial, maximum)
    if choice.stake_cents is None or choice.initial_cents is not None or choice.maximum_cents is not None:
        raise invalid(N_("a match is played for one fixed stake"))
    return MatchStake(choice.stake_cents)


async def check_player(db: AsyncSession, federation: Federation, user: User) -> None:
    if not (await standing_of(db, user)).holds(federation.id, Role.PLAYER):
        raise ApiError(
            403,
            "forbidden",
            N_("only the players of {federation} may play for its stakes"),
            federation=federation.name,
        )


async def check_available(ledger: Ledger, federation: Federation, user: User, terms: StakeTerms) -> None:
    available = await ledger.balance(player_account(federation.slug, user.name))
    if available < terms.reserve_cents:
        raise short_of_money(InsufficientFundsError(user.name, available, terms.reserve_cents))


async def offer_deal(
    db: AsyncSession,
    ledger: Ledger,
    user: User,
    slug: str | None,
    choice: StakeChoice | None,
    settings: MatchSettings,
    has_dice: bool,
) -> StakeDeal | None:
    """The stake of a new offer, checked: ``None`` for a game not played for money."""
    if slug is None and choice is None:
        return None
    if slug is None or choice is None:
        raise invalid(N_("a stake is played within a federation: choose both"))
    federation = await federation_at(db, slug)
    terms = stake_terms(choice, settings, has_dice)
    await check_player(db, federation, user)
    await check_available(ledger, federation, user, terms)
    return StakeDeal(federation, terms)


def stored_deal(data: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The federation and terms an offer's stored settings carry, taken out of them."""
    slug, terms = data.pop("federation", None), data.pop("stake", None)
    if slug is None or terms is None:
        return None
    return str(slug), dict(terms)


async def accepted_deal(
    db: AsyncSession, ledger: Ledger, user: User, stored: tuple[str, dict[str, Any]]
) -> StakeDeal:
    """The offer's stake checked again for the player accepting it."""
    federation = await federation_at(db, stored[0])
    terms = stake_terms_from_json(stored[1])
    await check_player(db, federation, user)
    await check_available(ledger, federation, user, terms)
    return StakeDeal(federation, terms)


class MakerCannotPay(ApiError):
    """The offer's maker no longer has his stake: the offer is void. The player who
    accepted is not told the maker's balance (it is the maker's own business)."""

    def __init__(self) -> None:
        super().__init__(
            409, "insufficient_funds", N_("the player who made this offer no longer has the stake available")
        )


async def reserve(ledger: Ledger, game_id: str, deal: StakeDeal, players: tuple[str, str]) -> None:
    """Play starts: the stake agreed for ``game_id`` and both maximum stakes held
    (``players``: the offer's maker, then the player accepting it)."""
    await ledger.agree_stake(game_id, deal.federation.slug, players, deal.terms)
    try:
        await ledger.reserve(game_id)
    except InsufficientFundsError as error:
        await ledger.release(game_id, reason="a player could not pay the stake")
        if error.account == str(player_account(deal.federation.slug, players[0])):
            raise MakerCannotPay() from None
        raise short_of_money(error) from None


def stake_json(terms: StakeTerms, federation: str) -> dict[str, Any]:
    return {"federation": federation, **terms.to_json()}


class StakedGames:
    """Settles or releases a staked game when it finishes; told by the rooms' events."""

    def __init__(self, ledger: Ledger, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.ledger = ledger
        self.sessions = sessions

    async def game_finished(self, event: GameFinished) -> None:
        try:
            game = await self.ledger.game(event.game_id)
        except GameNotInLedgerError:
            return  # not played for money
        if game.status.closed:
            return
        if event.winner is None:
            await self.ledger.release(event.game_id, reason="game void: no winner")
            return
        winner = game.players[event.winner]
        # A match's stake is fixed: its points only have to be a possible count.
        points = max(1, event.score[event.winner])
        await self.ledger.settle(event.game_id, winner, points, reason="official result: game over")

    async def catch_up(self) -> int:
        """Settle the staked games that finished while nobody listened (a stop between a
        game's end and its settlement); the number handled. Run at start-up."""
        async with self.sessions() as db:
            rows = await db.execute(
                select(LiveGame.id, LiveGame.federation_id, LiveGame.winner, LiveGame.score)
                .join(StakedGameRow, StakedGameRow.game_id == LiveGame.id)
                .where(StakedGameRow.status == GameStatus.RESERVED.value, LiveGame.status == "finished")
            )
            missed = [GameFinished(g, f, w, (int(s[0]), int(s[1]))) for g, f, w, s in rows.all()]
        for event in missed:
            try:
                await self.game_finished(event)
            except LedgerError:
                log.exception("the staked game %s could not be closed", event.game_id)
        return len(missed)

    async def stakes_of(self, game_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The stakes of those of ``game_ids`` played for money, for the lobby and board."""
        if not game_ids:
            return {}
        async with self.sessions() as db:
            rows = await db.scalars(select(StakedGameRow).where(StakedGameRow.game_id.in_(game_ids)))
            return {row.game_id: stake_json(stake_terms_from_json(row.terms), row.federation) for row in rows}
