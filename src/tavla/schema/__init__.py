"""JSON for clients of a server: positions, turns being played, match states and the
actions a client sends, as pydantic models whose JSON Schema documents them
(``tavla schema``, docs/json.md).

This layer sits above :mod:`tavla.match`: it reads positions, step builders and
match states and never changes them.
"""

from pydantic import BaseModel

from tavla.schema.actions import ActionJson, ActionJsonError, AnyAction, match_action, parse_action
from tavla.schema.common import Colour, PerColour
from tavla.schema.match import MatchStateJson, match_state_json
from tavla.schema.position import DicePositionJson, GridPositionJson, PositionJson, position_json
from tavla.schema.steps import StepJson, StepsJson, steps_json

SCHEMAS: dict[str, type[BaseModel]] = {
    "position": PositionJson,
    "steps": StepsJson,
    "match": MatchStateJson,
    "action": ActionJson,
}
"""The documented objects by the name ``tavla schema`` knows them by."""

__all__ = [
    "SCHEMAS",
    "ActionJson",
    "ActionJsonError",
    "AnyAction",
    "Colour",
    "DicePositionJson",
    "GridPositionJson",
    "MatchStateJson",
    "PerColour",
    "PositionJson",
    "StepJson",
    "StepsJson",
    "match_action",
    "match_state_json",
    "parse_action",
    "position_json",
    "steps_json",
]
