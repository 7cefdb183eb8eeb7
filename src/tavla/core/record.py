"""The one record format of games and matches: its envelope and its versions.

A record is the start parameters plus the list of actions (ARCHITECTURE example 3).
A single game (:class:`tavla.core.game.GameRecord`) and a match
(:class:`tavla.match.record.MatchRecord`) write the same versioned JSON::

    {"format": "tavla-record", "version": 3, "kind": "game" | "match",
     "settings": {"game": ..., "options": {...}, ...}, "actions": [{"k": ..., ...}], ...}

Actions are objects with ``k`` (the kind), ``s`` (the seat or colour that acted, left
out where nobody did: the opening roll), ``v`` (dice, move text ...) and ``t`` (the time
source's reading in milliseconds; 0 in a game without a clock). A game's kinds are
``roll`` and ``move``, a subset of a match's.

Older records are still read: match records ``{"format": "tavla-match", "version": 1
or 2}`` and game records without a format (``{"game", "start", "opening",
"actions": [[kind, value], ...]}``, version 0 here). Writers always write version 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tavla.core.errors import NotationError
from tavla.core.jsonread import load_json, shown, want_object

RECORD_FORMAT = "tavla-record"
RECORD_VERSION = 3
LEGACY_MATCH_FORMAT = "tavla-match"
LEGACY_MATCH_VERSIONS = (1, 2)
LEGACY_GAME_VERSION = 0
"""The version given here to game records written before the format had a name."""


class RecordKind(StrEnum):
    GAME = "game"
    MATCH = "match"


@dataclass(frozen=True)
class Envelope:
    """A record's JSON object once its format, version and kind are known."""

    kind: RecordKind
    version: int
    data: dict[str, Any]


def envelope(kind: RecordKind) -> dict[str, Any]:
    """The first members of a record written now."""
    return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "kind": kind.value}


def read_envelope(text: str, what: str = "record") -> Envelope:
    """The envelope of a record of any version; NotationError naming a wrong field."""
    data = want_object(load_json(text, what), what)
    form = data.get("format")
    if form is None and "game" in data:  # game records before the format had a name
        return Envelope(RecordKind.GAME, LEGACY_GAME_VERSION, data)
    version = data.get("version")
    if form == LEGACY_MATCH_FORMAT:
        if type(version) is not int or version not in LEGACY_MATCH_VERSIONS:
            raise NotationError(f"{what}.version", shown(version), "expected 1 or 2 for a tavla-match record")
        return Envelope(RecordKind.MATCH, version, data)
    if form != RECORD_FORMAT:
        raise NotationError(f"{what}.format", shown(form), f"expected {RECORD_FORMAT!r}")
    if type(version) is not int or version != RECORD_VERSION:
        raise NotationError(
            f"{what}.version", shown(version), f"expected {RECORD_VERSION} (this program reads versions 0-3)"
        )
    kind = data.get("kind")
    if kind not in (RecordKind.GAME.value, RecordKind.MATCH.value):
        raise NotationError(f"{what}.kind", shown(kind), "expected 'game' or 'match'")
    return Envelope(RecordKind(kind), version, data)
