"""A game in progress: a position, the actions that led to it, and undo.

``Game`` is the mutable companion of the immutable positions: it keeps the history
so that turns can be taken back, and its :class:`GameRecord` (the start position
plus the list of actions) replays to exactly the same state.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tavla.core.definition import GameDefinition
from tavla.core.dice import DiceSource, Roll, roll
from tavla.core.digits import parse_roll_text
from tavla.core.errors import NotationError, TavlaError, WrongPhaseError
from tavla.core.jsonread import (
    member,
    only_keys,
    shown,
    want_bool,
    want_int,
    want_list,
    want_object,
    want_str,
)
from tavla.core.opening import OPENING_ROLLS, after_opening, roll_opening
from tavla.core.protocol import AnyPosition, Outcome, Turn
from tavla.core.record import LEGACY_GAME_VERSION, RecordKind, envelope, read_envelope
from tavla.core.registry import find_game

ACTION_KINDS = ("roll", "move")
"""A game's action kinds, a subset of a match's (:mod:`tavla.core.record`)."""
LEGACY_KINDS = {"opening": "roll", "roll": "roll", "turn": "move"}
"""The kinds of game records of version 0, and what they are now."""
_GAME_RECORD = "game record"
_GAME_RECORD_KEYS = ("format", "version", "kind", "settings", "start", "opening", "actions")


@dataclass(frozen=True)
class Action:
    """One thing that happened: a ``roll`` (at the opening White's die, then Black's)
    or a ``move`` (its canonical text). ``seat`` is the colour that acted, None for the
    opening roll (and for the rolls and moves of version-0 records, which did not say)."""

    kind: str
    value: str
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"k": self.kind}
        if self.seat is not None:
            data["s"] = self.seat
        data["v"] = self.value
        data["t"] = 0  # a single game keeps no clock
        return data

    @classmethod
    def from_json(cls, data: object, field: str) -> Action:
        item = want_object(data, field)
        only_keys(item, ("k", "s", "v", "t"), field)
        kind = want_str(member(item, "k", field), f"{field}.k")
        if kind not in ACTION_KINDS:
            raise NotationError(f"{field}.k", kind, f"a game's actions are {' and '.join(ACTION_KINDS)}")
        seat = item.get("s")
        if seat is not None:
            seat = want_int(seat, f"{field}.s", 0, 1)
        want_int(item.get("t", 0), f"{field}.t", 0, 0)
        return cls(kind, want_str(member(item, "v", field), f"{field}.v"), seat)


@dataclass
class GameRecord:
    """The start parameters and the action list: everything else is derived.

    Written in the one record format of games and matches (:mod:`tavla.core.record`);
    game records of version 0 are read too.
    """

    game: str
    start: str
    opening: bool
    actions: list[Action] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    """Rule options that differ from the game's defaults (the TPN names them too)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            **envelope(RecordKind.GAME),
            "settings": {"game": self.game, "options": self.options},
            "start": self.start,
            "opening": self.opening,
            "actions": [action.to_json() for action in self.actions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record of any version; NotationError (a TavlaError) naming the first wrong field."""
        read = read_envelope(text, _GAME_RECORD)
        if read.kind is RecordKind.MATCH:
            raise NotationError(
                f"{_GAME_RECORD}.kind", "match", "a match record: read it with tavla.match.MatchRecord"
            )
        data = read.data
        if read.version == LEGACY_GAME_VERSION:
            return cls._from_version_0(data)
        only_keys(data, _GAME_RECORD_KEYS, _GAME_RECORD)
        settings = want_object(member(data, "settings", _GAME_RECORD), "settings")
        only_keys(settings, ("game", "options"), "settings")
        items = want_list(member(data, "actions", _GAME_RECORD), "actions")
        return cls(
            want_str(member(settings, "game", "settings"), "settings.game"),
            want_str(member(data, "start", _GAME_RECORD), "start"),
            want_bool(member(data, "opening", _GAME_RECORD), "opening"),
            [Action.from_json(item, f"actions[{index}]") for index, item in enumerate(items)],
            dict(want_object(settings.get("options", {}), "settings.options")),
        )

    @classmethod
    def _from_version_0(cls, data: dict[str, Any]) -> GameRecord:
        actions: list[Action] = []
        for index, item in enumerate(want_list(member(data, "actions", _GAME_RECORD), "actions")):
            field = f"actions[{index}]"
            pair = want_list(item, field)
            if len(pair) != 2:
                raise NotationError(field, shown(pair), "expected [kind, value]")
            kind, value = want_str(pair[0], field), want_str(pair[1], field)
            if kind not in LEGACY_KINDS:
                raise NotationError(field, kind, f"expected one of {', '.join(LEGACY_KINDS)}")
            actions.append(Action(LEGACY_KINDS[kind], value))
        return cls(
            want_str(member(data, "game", _GAME_RECORD), "game"),
            want_str(member(data, "start", _GAME_RECORD), "start"),
            want_bool(member(data, "opening", _GAME_RECORD), "opening"),
            actions,
            dict(want_object(data.get("options", {}), "options")),
        )


def game_rules(name: str, options: dict[str, Any]) -> GameDefinition:
    """Game ``name`` (or an alias) played with ``options`` (typed values: bool, int)."""
    return find_game(name).with_options(**options)


class Game:
    """A game being played. ``opening=True`` starts with the opening roll (RULES.md 1.4)."""

    def __init__(self, position: AnyPosition, *, opening: bool = False) -> None:
        self._start = position
        self._opening = opening
        self.position: AnyPosition = position
        self._history: list[tuple[Action, AnyPosition, bool]] = []
        self.awaiting_opening = opening and position.is_chance

    @classmethod
    def new(cls, name: str, *, opening: bool = True, **options: Any) -> Game:
        """A new game; ``options`` are the game's rule options (RULES.md marks them)."""
        start = game_rules(name, options).start()
        return cls(start, opening=opening and start.is_chance)

    # ------------------------------------------------------------------ state
    @property
    def actions(self) -> list[Action]:
        return [action for action, _, _ in self._history]

    @property
    def is_chance(self) -> bool:
        return self.awaiting_opening or self.position.is_chance

    def chance_outcomes(self) -> Sequence[tuple[Roll, Fraction]]:
        if self.awaiting_opening:
            return OPENING_ROLLS
        return self.position.chance_outcomes()

    def legal_turns(self) -> Sequence[Turn]:
        if self.is_chance:
            return ()
        return self.position.legal_turns()

    def outcome(self) -> Outcome | None:
        return self.position.outcome()

    @property
    def is_over(self) -> bool:
        return self.position.outcome() is not None

    # ---------------------------------------------------------------- actions
    def _push(self, action: Action, position: AnyPosition) -> None:
        self._history.append((action, self.position, self.awaiting_opening))
        self.position = position

    def roll(self, dice: Roll | None = None, source: DiceSource | None = None) -> Roll:
        """Apply a roll: the given dice, or dice from ``source``.

        At the opening the roll is (White's die, Black's die); equal dice are rolled
        again when a source is given, and rejected when given explicitly.
        """
        if not self.is_chance:
            raise WrongPhaseError(f"no roll is due in {self.position.notation()}")
        if dice is None:
            if source is None:
                raise TavlaError("roll: give the dice or a dice source")
            dice = roll_opening(source) if self.awaiting_opening else roll(source)
        if len(dice) != 2 or not all(type(die) is int and 1 <= die <= 6 for die in dice):
            raise NotationError("dice", repr(dice), "expected two dice 1-6")
        if self.awaiting_opening:
            self._push(Action("roll", f"{dice[0]}{dice[1]}"), after_opening(self.position, dice))
            self.awaiting_opening = False
            return dice
        roller = self.position.to_act
        self._push(Action("roll", f"{dice[0]}{dice[1]}", roller), self.position.with_roll(dice))
        return dice

    def play(self, turn: Turn | str) -> Turn:
        """Play a legal turn (a Turn or its text); raises IllegalMoveError otherwise."""
        if self.is_chance:
            raise WrongPhaseError(f"roll the dice first in {self.position.notation()}")
        chosen = self.position.parse_turn(turn) if isinstance(turn, str) else turn
        after = self.position.play(chosen)
        self._push(Action("move", chosen.text, self.position.to_act), after)
        return chosen

    def undo(self) -> Action:
        """Take back the last action (roll or turn)."""
        if not self._history:
            raise WrongPhaseError("nothing to take back")
        action, previous, opening = self._history.pop()
        self.position = previous
        self.awaiting_opening = opening
        return action

    # ---------------------------------------------------------------- records
    def record(self) -> GameRecord:
        definition = self._start.definition
        options: dict[str, Any] = dict(definition.changed_options())
        return GameRecord(definition.name, self._start.notation(), self._opening, self.actions, options)

    @classmethod
    def replay(cls, record: GameRecord) -> Game:
        definition = game_rules(record.game, record.options)
        start = definition.from_notation(record.start)
        if start.definition is not definition:
            start = start.with_rules(definition)
        game = cls(start, opening=record.opening)
        for index, action in enumerate(record.actions):
            expected = None if game.awaiting_opening else game.position.to_act
            if action.seat is not None and action.seat != expected:
                raise NotationError(
                    f"actions[{index}].s", str(action.seat), f"it is {expected}'s turn to act"
                )
            if action.kind == "roll":
                game.roll(parse_roll_text(action.value, action.kind))
            elif action.kind == "move":
                game.play(action.value)
            else:
                raise NotationError(f"actions[{index}].k", action.kind, "expected roll or move")
        return game
