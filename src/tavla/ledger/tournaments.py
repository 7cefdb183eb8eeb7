"""A tournament's money terms: its entry fee and how its prize pool is shared.

``open`` while players enter and sponsors add to the pool; then exactly one closing:
``paid`` when the prizes have gone to the winners, or ``cancelled`` when every entry
fee and sponsorship went back to whoever paid it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tavla.ledger.errors import AmountError
from tavla.ledger.stakes import check_shares


class TournamentStatus(Enum):
    OPEN = "open"
    PAID = "paid"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class TournamentTerms:
    """``prize_shares`` are weights per place, best place first (50, 30, 20: the winner
    gets half of the pool); an entry fee of 0 makes a free tournament."""

    tournament_id: str
    federation: str
    entry_fee_cents: int
    prize_shares: tuple[int, ...]
    status: TournamentStatus = TournamentStatus.OPEN

    def __post_init__(self) -> None:
        if not self.tournament_id:
            raise AmountError("a tournament needs an id")
        fee = self.entry_fee_cents
        if not isinstance(fee, int) or isinstance(fee, bool) or fee < 0:
            raise AmountError(f"entry fee must be a whole number of cents >= 0, not {fee!r}")
        object.__setattr__(self, "prize_shares", check_shares(self.prize_shares))
