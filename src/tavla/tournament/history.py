"""What a tournament remembers of each player's rounds: the one model the pairing
systems, the standings and the TRF reader and writer share.

Players are known by their start number (1..N, the pairing number). A round entry
holds what the TRF's ten-character round block holds, plus the sets won (Abluka's
last tie-break, RULES 11.3), which the TRF has no column for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tavla.core.errors import TavlaError


class TournamentError(TavlaError):
    """A tournament input that cannot be used: a bad file, an impossible request."""


class Colour(Enum):
    WHITE = "w"
    BLACK = "b"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class Outcome(Enum):
    """A round's result for one player, by its TRF code."""

    WIN = "1"
    LOSS = "0"
    DRAW = "="
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    PAIRING_BYE = "U"
    HALF_BYE = "H"
    ZERO_BYE = "Z"

    @property
    def points(self) -> float:
        """Match points: a win or a pairing bye 1, a draw or a half-point bye 1/2."""
        return _POINTS[self]

    @property
    def played(self) -> bool:
        """True when a game was really played (forfeits and byes were not)."""
        return self in (Outcome.WIN, Outcome.LOSS, Outcome.DRAW)


_POINTS = {
    Outcome.WIN: 1.0,
    Outcome.LOSS: 0.0,
    Outcome.DRAW: 0.5,
    Outcome.FORFEIT_WIN: 1.0,
    Outcome.FORFEIT_LOSS: 0.0,
    Outcome.PAIRING_BYE: 1.0,
    Outcome.HALF_BYE: 0.5,
    Outcome.ZERO_BYE: 0.0,
}


@dataclass(frozen=True)
class RoundEntry:
    """One player's round: the opponent's start number (None for a bye or an
    absence), the colour played (None when no game was played or the colour is not
    known), the outcome, and the sets (Abluka games) won in it."""

    opponent: int | None
    colour: Colour | None
    outcome: Outcome
    sets_won: int = 0


@dataclass(frozen=True)
class Entrant:
    """A registered player: start number, name, rating and the rounds played so far."""

    number: int
    name: str
    rating: int = 0
    rounds: tuple[RoundEntry, ...] = field(default_factory=tuple)

    @property
    def points(self) -> float:
        return sum(entry.outcome.points for entry in self.rounds)
