"""Double-entry transactions, built as values before anything is stored.

Each operation of the ledger is one :class:`Posting`: a kind, the entries (account,
signed amount, memo), who asked for it and why, and the game or tournament it belongs
to. A posting refuses to exist unless its entries sum to zero, so an unbalanced
transaction is a bug caught before the database sees it.

A posting's ``key`` names the event it records ("game g7 closed"); the database keeps
keys unique, so the same event is never booked twice even when two processes race.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from tavla.ledger.accounts import (
    AccountKey,
    cash_account,
    escrow_account,
    house_account,
    player_account,
    pool_account,
    sponsor_account,
)
from tavla.ledger.errors import AmountError, PrizeError, UnbalancedTransactionError
from tavla.ledger.games import StakedGame
from tavla.ledger.stakes import FEE_BASIS_POINTS, distribute, payout
from tavla.ledger.tournaments import TournamentTerms


class TransactionKind(Enum):
    DEPOSIT = "deposit"
    WITHDRAWAL = "withdrawal"
    RESERVATION = "reservation"
    SETTLEMENT = "settlement"
    RELEASE = "release"
    ENTRY_FEE = "entry_fee"
    SPONSORSHIP = "sponsorship"
    PRIZES = "prizes"
    REFUND = "refund"


@dataclass(frozen=True)
class Entry:
    """One movement: ``amount_cents`` into ``account`` (negative: out of it)."""

    account: AccountKey
    amount_cents: int
    memo: str


@dataclass(frozen=True)
class Posting:
    kind: TransactionKind
    federation: str
    entries: tuple[Entry, ...]
    actor: str
    reason: str
    key: str | None = None
    game_id: str | None = None
    tournament_id: str | None = None

    def __post_init__(self) -> None:
        if len(self.entries) < 2:
            raise UnbalancedTransactionError(f"{self.kind.value}: a transaction needs two entries or more")
        total = sum(entry.amount_cents for entry in self.entries)
        if total != 0:
            raise UnbalancedTransactionError(f"{self.kind.value}: entries sum to {total} cents, not 0")
        for entry in self.entries:
            if entry.account.federation != self.federation:
                raise UnbalancedTransactionError(
                    f"{self.kind.value}: {entry.account} is outside federation {self.federation!r}"
                )

    def net_cents(self) -> dict[AccountKey, int]:
        """Each account's total change, the order of accounts fixed (sorted) so that
        concurrent transactions lock shared accounts in the same order."""
        net: dict[AccountKey, int] = defaultdict(int)
        for entry in self.entries:
            net[entry.account] += entry.amount_cents
        return {account: net[account] for account in sorted(net, key=AccountKey.sort_key)}


def _entries(*entries: Entry) -> tuple[Entry, ...]:
    # A zero movement (the loser's unused reservation when he loses it all, a fee
    # that rounds to 0) says nothing and is left out of the books.
    return tuple(entry for entry in entries if entry.amount_cents != 0)


def _positive(name: str, amount_cents: int) -> None:
    if not isinstance(amount_cents, int) or isinstance(amount_cents, bool) or amount_cents < 1:
        raise AmountError(f"{name} must be a whole number of cents >= 1, not {amount_cents!r}")


def game_close_key(game_id: str) -> str:
    """One key for settling and releasing: a game closes once, one way or the other."""
    return f"game:{game_id}:close"


def game_reserve_key(game_id: str) -> str:
    return f"game:{game_id}:reserve"


def tournament_close_key(tournament_id: str) -> str:
    """One key for paying prizes and cancelling: a pool empties once."""
    return f"tournament:{tournament_id}:close"


def tournament_entry_key(tournament_id: str, player_id: str, entry: str | None = None) -> str:
    """``entry`` tells one registration from the next: a player who withdrew and
    entered again pays again, and a repeat of one registration pays once."""
    suffix = "" if entry is None else f":{entry}"
    return f"tournament:{tournament_id}:entry:{player_id}{suffix}"


def tournament_refund_key(tournament_id: str, player_id: str, entry: str | None = None) -> str:
    suffix = "" if entry is None else f":{entry}"
    return f"tournament:{tournament_id}:refund:{player_id}{suffix}"


def deposit(
    account: AccountKey, amount_cents: int, *, actor: str, reason: str, key: str | None = None
) -> Posting:
    """Money from outside (the federation's cash account) into ``account``."""
    _positive("deposit", amount_cents)
    cash = cash_account(account.federation)
    return Posting(
        TransactionKind.DEPOSIT,
        account.federation,
        (Entry(cash, -amount_cents, f"paid in to {account}"), Entry(account, amount_cents, "deposit")),
        actor,
        reason,
        key,
    )


def withdrawal(
    account: AccountKey, amount_cents: int, *, actor: str, reason: str, key: str | None = None
) -> Posting:
    """Money out of ``account`` to the outside."""
    _positive("withdrawal", amount_cents)
    cash = cash_account(account.federation)
    return Posting(
        TransactionKind.WITHDRAWAL,
        account.federation,
        (Entry(account, -amount_cents, "withdrawal"), Entry(cash, amount_cents, f"paid out of {account}")),
        actor,
        reason,
        key,
    )


def reservation(game: StakedGame, *, actor: str) -> Posting:
    """Both players' most they can lose, from their accounts into the game's escrow."""
    fed, reserve = game.federation, game.terms.reserve_cents
    escrow = escrow_account(fed, game.game_id)
    return Posting(
        TransactionKind.RESERVATION,
        fed,
        (
            Entry(player_account(fed, game.players[0]), -reserve, "stake reserved"),
            Entry(player_account(fed, game.players[1]), -reserve, "stake reserved"),
            Entry(escrow, 2 * reserve, "both stakes reserved"),
        ),
        actor,
        "play started",
        game_reserve_key(game.game_id),
        game_id=game.game_id,
    )


def settlement(
    game: StakedGame,
    winner: str,
    points: int,
    *,
    actor: str,
    reason: str,
    basis_points: int = FEE_BASIS_POINTS,
) -> Posting:
    """The escrow emptied by the official result: the winner gets his reservation back
    and the loser's final stake less the fee, the loser the unused part of his
    reservation, the house the fee. Separate entries keep each part readable in the
    winner's statement."""
    loser = game.loser_of(winner)
    fed = game.federation
    split = payout(game.terms, points, basis_points)
    winner_account, loser_account = player_account(fed, winner), player_account(fed, loser)
    return Posting(
        TransactionKind.SETTLEMENT,
        fed,
        _entries(
            Entry(escrow_account(fed, game.game_id), -2 * split.reserved_cents, "game settled"),
            Entry(winner_account, split.reserved_cents, "own reservation back"),
            Entry(winner_account, split.final_stake_cents, f"stake won from {loser}"),
            Entry(winner_account, -split.fee_cents, f"fee {basis_points / 100:g}% of the pot"),
            Entry(loser_account, split.loser_cents, "unused reservation back"),
            Entry(house_account(fed), split.fee_cents, f"fee of game {game.game_id}"),
        ),
        actor,
        reason,
        game_close_key(game.game_id),
        game_id=game.game_id,
    )


def release(game: StakedGame, *, actor: str, reason: str) -> Posting:
    """Both reservations back in full: the game was abandoned or is void."""
    fed, reserve = game.federation, game.terms.reserve_cents
    return Posting(
        TransactionKind.RELEASE,
        fed,
        (
            Entry(escrow_account(fed, game.game_id), -2 * reserve, "game released"),
            Entry(player_account(fed, game.players[0]), reserve, "reservation released"),
            Entry(player_account(fed, game.players[1]), reserve, "reservation released"),
        ),
        actor,
        reason,
        game_close_key(game.game_id),
        game_id=game.game_id,
    )


def entry_fee(
    tournament: TournamentTerms, player_id: str, *, actor: str, entry: str | None = None
) -> Posting:
    _positive("entry fee", tournament.entry_fee_cents)
    fed, tid = tournament.federation, tournament.tournament_id
    fee = tournament.entry_fee_cents
    return Posting(
        TransactionKind.ENTRY_FEE,
        fed,
        (
            Entry(player_account(fed, player_id), -fee, f"entry fee of tournament {tid}"),
            Entry(pool_account(fed, tid), fee, f"entry fee of {player_id}"),
        ),
        actor,
        "tournament entry",
        tournament_entry_key(tid, player_id, entry),
        tournament_id=tid,
    )


def entry_refund(
    tournament: TournamentTerms, player_id: str, fee_cents: int, *, actor: str, entry: str | None = None
) -> Posting:
    """A withdrawn registration's entry fee back from the pool, before the start."""
    _positive("entry fee", fee_cents)
    fed, tid = tournament.federation, tournament.tournament_id
    return Posting(
        TransactionKind.REFUND,
        fed,
        (
            Entry(pool_account(fed, tid), -fee_cents, f"entry fee of {player_id} refunded"),
            Entry(player_account(fed, player_id), fee_cents, f"entry fee of tournament {tid} refunded"),
        ),
        actor,
        "registration withdrawn",
        tournament_refund_key(tid, player_id, entry),
        tournament_id=tid,
    )


def sponsorship(
    tournament: TournamentTerms, sponsor: str, amount_cents: int, *, actor: str, key: str | None = None
) -> Posting:
    _positive("sponsorship", amount_cents)
    fed, tid = tournament.federation, tournament.tournament_id
    return Posting(
        TransactionKind.SPONSORSHIP,
        fed,
        (
            Entry(sponsor_account(fed, sponsor), -amount_cents, f"added to the pool of tournament {tid}"),
            Entry(pool_account(fed, tid), amount_cents, f"sponsored by {sponsor}"),
        ),
        actor,
        "sponsorship",
        key,
        tournament_id=tid,
    )


def check_winners(tournament: TournamentTerms, winners: Sequence[str]) -> None:
    """One winner per prize share, best first, nobody twice."""
    shares = tournament.prize_shares
    if len(winners) != len(shares):
        raise PrizeError(
            f"tournament {tournament.tournament_id!r}: {len(shares)} prizes need {len(shares)} winners, "
            f"got {len(winners)}"
        )
    if len(set(winners)) != len(winners):
        raise PrizeError(f"tournament {tournament.tournament_id!r}: a player named twice in {list(winners)}")


def prizes(tournament: TournamentTerms, winners: Sequence[str], pool_cents: int, *, actor: str) -> Posting:
    """The whole pool to the winners, best place first, split by the tournament's shares."""
    check_winners(tournament, winners)
    shares = tournament.prize_shares
    fed, tid = tournament.federation, tournament.tournament_id
    amounts = distribute(pool_cents, shares)
    return Posting(
        TransactionKind.PRIZES,
        fed,
        _entries(
            Entry(pool_account(fed, tid), -pool_cents, "prizes paid"),
            *(
                Entry(player_account(fed, winner), amount, f"prize for place {place}")
                for place, (winner, amount) in enumerate(zip(winners, amounts, strict=True), start=1)
            ),
        ),
        actor,
        "prizes",
        tournament_close_key(tid),
        tournament_id=tid,
    )


def refunds(
    tournament: TournamentTerms, paid_in: Mapping[AccountKey, int], *, actor: str, reason: str
) -> Posting | None:
    """Every contribution back to whoever paid it; ``None`` when nobody paid anything."""
    fed, tid = tournament.federation, tournament.tournament_id
    back: Iterable[Entry] = (
        Entry(account, amount, f"refund from tournament {tid}")
        for account, amount in sorted(paid_in.items(), key=lambda item: item[0].sort_key())
        if amount
    )
    entries = tuple(back)
    if not entries:
        return None
    total = sum(entry.amount_cents for entry in entries)
    return Posting(
        TransactionKind.REFUND,
        fed,
        (Entry(pool_account(fed, tid), -total, "tournament cancelled"), *entries),
        actor,
        reason,
        tournament_close_key(tid),
        tournament_id=tid,
    )
