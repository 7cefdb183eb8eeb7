"""Match records in JSON (RULES.md 9.4): the settings plus every action, replayable.

A record holds the rules in force (the settings), every roll, every turn in its
canonical move text, every cube and resignation action and break, and the reading
of the time source at each action, from which the clocks follow. Replaying the
actions on a fresh match gives exactly the states of the live match.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tavla.core.errors import NotationError
from tavla.match.actions import MatchAction, apply_action
from tavla.match.match import Match
from tavla.match.settings import MatchSettings
from tavla.match.state import MatchState, new_state

FORMAT = "tavla-match"
VERSION = 1


@dataclass
class MatchRecord:
    settings: MatchSettings
    actions: list[MatchAction] = field(default_factory=list)

    @classmethod
    def of(cls, match: Match) -> MatchRecord:
        return cls(match.settings, list(match.actions))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "settings": self.settings.to_json(),
            "actions": [action.to_json() for action in self.actions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=None, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        try:
            data: dict[str, Any] = json.loads(text)
            if data.get("format") != FORMAT:
                raise ValueError(f"format is {data.get('format')!r}, expected {FORMAT!r}")
            if data.get("version") != VERSION:
                raise ValueError(f"version {data.get('version')!r} is not {VERSION}")
            settings = MatchSettings.from_json(data["settings"])
            actions = [MatchAction.from_json(item) for item in data["actions"]]
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise NotationError("match record", text[:60], f"not a match record ({error})") from None
        return cls(settings, actions)


def replay_states(record: MatchRecord, game_class: type[Any] | None = None) -> Iterator[MatchState]:
    """The state before the first action and after each action of ``record``."""
    state = new_state(record.settings, game_class)
    yield state
    for action in record.actions:
        state, _ = apply_action(state, action)
        yield state


def replay(record: MatchRecord, game_class: type[Any] | None = None) -> MatchState:
    """The final state of ``record``; raises the error of the first refused action."""
    state = new_state(record.settings, game_class)
    for action in record.actions:
        state, _ = apply_action(state, action)
    return state
