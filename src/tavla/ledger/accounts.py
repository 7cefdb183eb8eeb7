"""The ledger's accounts, named by kind, federation and owner.

Every account belongs to one federation: a player has one account in each federation
he plays for money in, and the site's own games (outside any federation) use the
federation ``SITE``. Money never crosses from one federation's accounts to
another's, so each federation's administrator sees and answers for his own books,
and the books of one federation balance on their own.

Kinds:

- ``player``: what a player may stake, enter tournaments with or withdraw.
- ``escrow``: one per game; holds both players' reservations from the start of play
  until the game is settled or released, and is empty again afterwards.
- ``house``: the federation's fees.
- ``pool``: one per tournament; entry fees and sponsorship until the prizes are paid.
- ``sponsor``: money a sponsor deposited to add to tournament pools.
- ``cash``: the world outside the ledger. A deposit moves money from it, a withdrawal
  back to it, so deposits are double-entry like everything else. It is the only kind
  allowed below zero: minus its balance is the money the federation holds for others.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

SITE = "site"
"""The federation of games played on the site outside any federation."""


class AccountKind(Enum):
    PLAYER = "player"
    ESCROW = "escrow"
    HOUSE = "house"
    POOL = "pool"
    SPONSOR = "sponsor"
    CASH = "cash"

    @property
    def may_go_negative(self) -> bool:
        return self is AccountKind.CASH


@dataclass(frozen=True)
class AccountKey:
    """An account's identity; ``owner`` is a player id, game id, tournament id, sponsor
    name, or empty for the federation's house and cash accounts."""

    kind: AccountKind
    federation: str
    owner: str = ""

    def sort_key(self) -> tuple[str, str, str]:
        """The order in which a transaction locks its accounts (any fixed order will do)."""
        return (self.federation, self.kind.value, self.owner)

    def __str__(self) -> str:
        suffix = f":{self.owner}" if self.owner else ""
        return f"{self.federation}/{self.kind.value}{suffix}"


def player_account(federation: str, player_id: str) -> AccountKey:
    return AccountKey(AccountKind.PLAYER, federation, player_id)


def escrow_account(federation: str, game_id: str) -> AccountKey:
    return AccountKey(AccountKind.ESCROW, federation, game_id)


def house_account(federation: str) -> AccountKey:
    return AccountKey(AccountKind.HOUSE, federation)


def pool_account(federation: str, tournament_id: str) -> AccountKey:
    return AccountKey(AccountKind.POOL, federation, tournament_id)


def sponsor_account(federation: str, sponsor: str) -> AccountKey:
    return AccountKey(AccountKind.SPONSOR, federation, sponsor)


def cash_account(federation: str) -> AccountKey:
    return AccountKey(AccountKind.CASH, federation)
