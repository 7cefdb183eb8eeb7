"""An official's action on a live game (a warning, a forfeit, the chat closed), and its
outcome: run by the room's owner, here or in another process (relay.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from tavla.server.live.room import Room

OFFICIALS_ACTIONS = ("warn", "forfeit", "close_chat")


@dataclass(frozen=True)
class Outcome:
    """The match after an official's action, wherever its room runs."""

    over: bool
    winner: int | None
    score: tuple[int, int]
    federation_id: int | None
    warnings: tuple[int, int] = (0, 0)
    forfeit: str | None = None
    """Why the match ended early (``MatchState.forfeit``), or None."""

    @classmethod
    def of(cls, room: Room) -> Outcome:
        state = room.state
        return cls(
            state.over,
            state.winner,
            (state.score[0], state.score[1]),
            room.federation_id,
            (state.warnings[0], state.warnings[1]),
            None if state.forfeit is None else str(state.forfeit),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "over": self.over,
            "winner": self.winner,
            "score": list(self.score),
            "federation_id": self.federation_id,
            "warnings": list(self.warnings),
            "forfeit": self.forfeit,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        score, warnings = data["score"], data["warnings"]
        return cls(
            data["over"],
            data["winner"],
            (score[0], score[1]),
            data["federation_id"],
            (warnings[0], warnings[1]),
            data["forfeit"],
        )


Forward = Callable[[str, str, str, object, object], Awaitable[Outcome]]
"""Runs an official's action in the process that owns the game: (game id, owner, action,
seat, note); raises :class:`Refused` as the room would."""


async def officiate(room: Room, action: str, seat: object, note: object) -> None:
    """Run one of :data:`OFFICIALS_ACTIONS` on a room this process owns."""
    if action == "warn":
        await room.warn(seat, note)
    elif action == "forfeit":
        await room.forfeit(seat, note)
    else:
        await room.close_chat()
