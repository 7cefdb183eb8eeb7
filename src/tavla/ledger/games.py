"""A game or match played for money, as the ledger knows it, and its life cycle.

``agreed`` when the game is made (the stake is fixed then, RULES 9.1 and 12);
``reserved`` when play starts and both players' maximum stakes are held in escrow;
then exactly one closing: ``settled`` when the result is official, ``released`` when
the game is abandoned or void (tapa's pinned mothers), or ``cancelled`` when it is
called off before play started (nothing was reserved, so no money moves).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tavla.ledger.errors import AmountError, SettlementError
from tavla.ledger.stakes import StakeTerms


class GameStatus(Enum):
    AGREED = "agreed"
    RESERVED = "reserved"
    SETTLED = "settled"
    RELEASED = "released"
    CANCELLED = "cancelled"

    @property
    def closed(self) -> bool:
        return self in (GameStatus.SETTLED, GameStatus.RELEASED, GameStatus.CANCELLED)


@dataclass(frozen=True)
class StakedGame:
    """``players`` are the seats' player ids (seat 0 first); ``winner`` and ``points``
    are set once the game is settled."""

    game_id: str
    federation: str
    players: tuple[str, str]
    terms: StakeTerms
    status: GameStatus = GameStatus.AGREED
    winner: str | None = None
    points: int | None = None

    def __post_init__(self) -> None:
        if not self.game_id:
            raise AmountError("a staked game needs a game id")
        if self.players[0] == self.players[1]:
            raise SettlementError(f"game {self.game_id!r}: a player cannot stake against himself")

    def loser_of(self, winner: str) -> str:
        """The other player; refuses a winner who does not play in this game."""
        if winner not in self.players:
            raise SettlementError(
                f"game {self.game_id!r}: winner {winner!r} is not one of its players {list(self.players)}"
            )
        return self.players[1] if winner == self.players[0] else self.players[0]

    def same_deal(self, other: StakedGame) -> bool:
        """Whether ``other`` agrees the same stake between the same players."""
        return (self.federation, self.players, self.terms) == (other.federation, other.players, other.terms)
