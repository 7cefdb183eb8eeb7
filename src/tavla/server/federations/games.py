"""Who may watch a game and its chat (RULES.md 11.2), as predicates over a standing.

- The players see everything of their game, write its chat (when both turned it on)
  and nothing more: a player is never the game's arbiter, even if he is one of its
  federation.
- A spectator watches only if both players allow spectators, and never sees or writes
  the chat.
- An arbiter of the game's federation always observes it, reads its chat and may
  close it, and cannot act in it or write to the players.
- An arbiter or an administrator of a tournament game's federation, not playing in
  it, may warn its players (RULES.md 8.3, 11.4); a game of no federation has nobody
  who may.
- A finished game is public (its record is the archive's); its chat stays private.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.server.federations.standing import Role, Standing
from tavla.storage.models import LiveGame


@dataclass(frozen=True)
class GameAccess:
    """What the rules above read of a game."""

    seat_user_ids: tuple[int | None, int | None]
    spectators: bool
    federation_id: int | None
    finished: bool = False

    @classmethod
    def of_row(cls, row: LiveGame) -> GameAccess:
        return cls(
            (row.seat0_user_id, row.seat1_user_id),
            row.spectators,
            row.federation_id,
            row.status == "finished",
        )


def seat_of(who: Standing, game: GameAccess) -> int | None:
    if who.user_id is None:
        return None
    return next((seat for seat, user in enumerate(game.seat_user_ids) if user == who.user_id), None)


def is_arbiter_of(who: Standing, game: GameAccess) -> bool:
    """An arbiter of the game's federation who does not play in it."""
    return seat_of(who, game) is None and who.holds(game.federation_id, Role.ARBITER)


def can_observe(who: Standing, game: GameAccess) -> bool:
    return game.finished or game.spectators or seat_of(who, game) is not None or is_arbiter_of(who, game)


def can_read_chat(who: Standing, game: GameAccess) -> bool:
    return seat_of(who, game) is not None or is_arbiter_of(who, game)


def can_write_chat(who: Standing, game: GameAccess) -> bool:
    """The players only (whether the chat is on is the room's to say)."""
    return seat_of(who, game) is not None


def can_moderate_chat(who: Standing, game: GameAccess) -> bool:
    return is_arbiter_of(who, game)


def can_warn(who: Standing, game: GameAccess) -> bool:
    federation = game.federation_id
    if federation is None or seat_of(who, game) is not None:
        return False
    return who.holds(federation, Role.ARBITER) or who.holds(federation, Role.ADMINISTRATOR)
