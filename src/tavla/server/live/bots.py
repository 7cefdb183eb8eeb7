"""Bots in a room: they act through the same intents as people (docs/json.md actions).

The engine of each game comes from :mod:`tavla.engine`'s registry, so a stronger
engine registered there plays on the server with no change here. Engine calls run in
worker processes (:mod:`tavla.server.live.thinking`): searches neither stall the
event loop nor wait for each other beyond the workers' number.
"""

from __future__ import annotations

from typing import Any

import tavla.engine.builtin  # noqa: F401  (registers the engines that ship with the package)
from tavla.engine.registry import LEVELS, engine_for, engine_games
from tavla.match.actions import double_error
from tavla.match.state import Phase
from tavla.schema import match_state_json
from tavla.server.i18n import N_
from tavla.server.live.room import Room
from tavla.server.live.thinking import BotThinking


def bot_games() -> list[str]:
    return engine_games()


def bot_levels() -> tuple[str, ...]:
    return LEVELS


LEVEL_TITLES: dict[str, str] = {
    "beginner": N_("Beginner"),
    "easy": N_("Easy"),
    "medium": N_("Medium"),
    "hard": N_("Hard (looks a roll ahead)"),
    "max": N_("Strongest (looks two rolls ahead)"),
}
"""The levels as the pages name them (docs/bots.md, Levels); the forms send the key."""


class BotChooser:
    """Decides a bot seat's next action; ``movetime_ms`` bounds its thinking, which
    ``thinking`` runs off the event loop."""

    def __init__(self, movetime_ms: int, thinking: BotThinking) -> None:
        self.movetime_ms = movetime_ms
        self.thinking = thinking

    async def __call__(self, room: Room, seat: int) -> dict[str, Any] | None:
        state = room.state
        level = room.seats[seat].bot or LEVELS[0]
        game = state.definition.name
        engine_for(game)  # a game no engine plays is refused here, not in a worker
        phase = state.phase
        if phase == Phase.ROLL:
            if state.cube_in_use and double_error(state, seat) is None:
                match = match_state_json(state, room.now()).model_dump(mode="json", by_alias=True)
                if await self.thinking.call("double", game, state.position, match, level):
                    return {"kind": "double"}
            return {"kind": "roll"}
        if phase == Phase.MOVE:
            reply = await self.thinking.call("move", game, state.position, level, self.movetime_ms)
            return {"kind": "move", "turn": reply["move"]}
        if phase == Phase.DOUBLE:
            match = match_state_json(state, room.now()).model_dump(mode="json", by_alias=True)
            answer = await self.thinking.call("take", game, state.position, match, level)
            if answer == "beaver" and not state.settings.beavers:
                answer = "take"
            return {"kind": answer}
        if phase == Phase.RACCOON:
            return {"kind": "roll"}
        if phase == Phase.RESIGN:
            return {"kind": "accept"}
        return None
