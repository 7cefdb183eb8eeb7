"""The examples of docs/json.md, made by the library itself (a test compares them).

python -m tavla.schema.examples      # print every example under its name
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import tavla
from tavla.match.clock import ClockSettings
from tavla.match.match import Match
from tavla.match.settings import MatchSettings
from tavla.schema.actions import CLIENT_KINDS
from tavla.schema.match import match_state_json
from tavla.schema.position import position_json
from tavla.schema.steps import steps_json

TAPA = "tapa 13b/-/-/-/-/1b1w/-/-/-/-/-/-/-/-/-/-/-/-/1w1b/-/-/-/-/13w 0,0 0,0 w 31"
GULBARA = "gulbara -/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 b - c=556666 r=3,2"
ABLUKA = "2x1W2/7/3x3/7/7/7/2B4 b"
ACTIONS: dict[str, dict[str, object]] = {
    "move": {"kind": "move", "turn": "13/8 13/11"},
    "step": {"kind": "step", "step": "13/8"},
    "resign": {"kind": "resign", "level": "gammon"},
}


WIDTH = 110


def pretty(data: Any, indent: str = "") -> str:
    """JSON that keeps a value on one line when it fits in :data:`WIDTH` characters and
    opens objects and lists that do not: short enough to print, easy to read."""
    compact = json.dumps(data)
    if len(indent) + len(compact) <= WIDTH or not isinstance(data, dict | list) or not data:
        return compact
    inner = indent + "  "
    if isinstance(data, dict):
        parts = [f"{inner}{json.dumps(key)}: {pretty(value, inner)}" for key, value in data.items()]
        return "{\n" + ",\n".join(parts) + f"\n{indent}}}"
    parts = [f"{inner}{pretty(item, inner)}" for item in data]
    return "[\n" + ",\n".join(parts) + f"\n{indent}]"


def _position(text: str) -> Callable[[], Any]:
    return lambda: position_json(tavla.from_notation(text)).model_dump(mode="json")


def _steps() -> Any:
    start = tavla.find_game("tabla").start().with_roll((3, 1))
    builder = start.steps()
    builder.step("8/5")
    return steps_json(builder).model_dump(mode="json")


def _match() -> Any:
    time = [0]
    clock = ClockSettings(move_ms=12_000, reserve_ms=600_000)
    match = Match(MatchSettings("tabla", length=5, clock=clock), now=lambda: time[0])
    match.roll((3, 1))
    time[0] = 4_000
    match.move(0, "8/5 6/5")
    time[0] = 9_000
    match.double(1)
    return match_state_json(match.state, 15_000).model_dump(mode="json")


def _actions() -> Any:
    return [ACTIONS.get(kind, {"kind": kind}) for kind in CLIENT_KINDS]


EXAMPLES: dict[str, Callable[[], Any]] = {
    "position-tapa": _position(TAPA),
    "position-gulbara": _position(GULBARA),
    "position-abluka": _position(ABLUKA),
    "steps": _steps,
    "match": _match,
    "actions": _actions,
}


def example(name: str) -> str:
    data = EXAMPLES[name]()
    if isinstance(data, list):
        return "\n".join(json.dumps(item) for item in data)
    return pretty(data)


def main() -> None:
    for name in EXAMPLES:
        print(f"<!-- example: {name} -->\n```json\n{example(name)}\n```\n")


if __name__ == "__main__":
    main()
