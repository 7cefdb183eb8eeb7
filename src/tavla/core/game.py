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
from tavla.core.errors import NotationError, WrongPhaseError
from tavla.core.protocol import BLACK, WHITE, AnyPosition, Outcome, Turn
from tavla.core.registry import find_game

#: The opening roll (RULES.md 1.4): White's die and Black's die, never equal.
OPENING_ROLLS: tuple[tuple[Roll, Fraction], ...] = tuple(
    ((white, black), Fraction(1, 30)) for white in range(1, 7) for black in range(1, 7) if white != black
)


@dataclass(frozen=True)
class Action:
    """One thing that happened: ``opening`` (White's die, Black's die), ``roll`` or ``turn``."""

    kind: str
    value: str

    def to_json(self) -> list[str]:
        return [self.kind, self.value]


@dataclass
class GameRecord:
    """The start parameters and the action list: everything else is derived."""

    game: str
    start: str
    opening: bool
    actions: list[Action] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    """Rule options that differ from the game's defaults (not part of the TPN)."""

    def to_json(self) -> str:
        return json.dumps(
            {
                "game": self.game,
                "options": self.options,
                "start": self.start,
                "opening": self.opening,
                "actions": [action.to_json() for action in self.actions],
            }
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data: dict[str, Any] = json.loads(text)
            actions = [Action(str(kind), str(value)) for kind, value in data["actions"]]
            options = dict(data.get("options", {}))
            return cls(str(data["game"]), str(data["start"]), bool(data["opening"]), actions, options)
        except (ValueError, KeyError, TypeError) as error:
            raise NotationError("record", text[:60], f"not a game record ({error})") from None


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
                raise ValueError("give the dice or a dice source")
            dice = roll(source)
            while self.awaiting_opening and dice[0] == dice[1]:
                dice = roll(source)
        if self.awaiting_opening:
            white, black = dice
            if white == black or not (1 <= white <= 6 and 1 <= black <= 6):
                raise WrongPhaseError(f"opening roll {dice!r}: two different dice 1-6 are needed")
            starter = WHITE if white > black else BLACK
            position = self.position.with_side(starter).with_roll((max(dice), min(dice)))
            self._push(Action("opening", f"{white}{black}"), position)
            self.awaiting_opening = False
            return dice
        self._push(Action("roll", f"{dice[0]}{dice[1]}"), self.position.with_roll(dice))
        return dice

    def play(self, turn: Turn | str) -> Turn:
        """Play a legal turn (a Turn or its text); raises IllegalMoveError otherwise."""
        if self.is_chance:
            raise WrongPhaseError(f"roll the dice first in {self.position.notation()}")
        chosen = self.position.parse_turn(turn) if isinstance(turn, str) else turn
        after = self.position.play(chosen)
        self._push(Action("turn", chosen.text), after)
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
        for action in record.actions:
            if action.kind in ("opening", "roll"):
                if len(action.value) != 2 or not action.value.isdigit():
                    raise NotationError(action.kind, action.value, "expected two dice such as 31")
                game.roll((int(action.value[0]), int(action.value[1])))
            elif action.kind == "turn":
                game.play(action.value)
            else:
                raise NotationError("action", action.kind, "expected opening, roll or turn")
        return game
