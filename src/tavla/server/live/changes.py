"""What one accepted intent changes, gathered before anything is stored or shown.

A room computes a :class:`Change` from its current state without touching it; the
change is written to the database in one transaction, and only then applied to the
room and sent to the players (persist, then acknowledge, then broadcast).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tavla.match.actions import MatchAction
from tavla.match.state import MatchState


@dataclass(frozen=True)
class NewDice:
    """A game of the match has begun: its seed, committed to before its first roll."""

    game_number: int
    server_seed: str
    commitment: str
    client_seed: str


@dataclass(frozen=True)
class ChatLine:
    seat: int
    text: str
    t_ms: int


@dataclass
class Change:
    """The actions to append, the state they lead to, and the bookkeeping around them."""

    state: MatchState
    actions: list[MatchAction] = field(default_factory=list)
    pending_steps: list[str] = field(default_factory=list)
    dice_drawn: int | None = None
    """The dice drawn so far in the current game, when a roll drew some."""
    new_dice: list[NewDice] = field(default_factory=list)
    reveal: list[int] = field(default_factory=list)
    """Games of the match that ended: their seeds become public."""
    seat: int | None = None
    seq: int | None = None
    chat: ChatLine | None = None
    close_chat: bool = False
    """An arbiter closed the players' chat."""
    clock_ms: int = 0
    """The room's clock when the change was made: stored, so that a room rebuilt after a
    restart goes on from there (the store may wait for other writers meanwhile)."""
    arrived: tuple[int | None, int | None] | None = None
    """When each seat first came, on the room's clock, if a seat has just come."""
    steps_changed: bool = False
    """A step was played or taken back on the room's step builder."""
    restore: Callable[[], None] | None = None
    """Undoes what proposing the change did to the room's step builder, should storing
    the change fail."""
