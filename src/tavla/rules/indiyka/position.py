"""Indiyka: enter fifteen checkers by the dice, then remove them (RULES.md 7).

A position is an immutable value in White's numbering: signed point counts (White
only on his points 1-6, Black only on his 1-6, White's 19-24), the checkers
removed (the TPN's off), the side to act and the dice. The checkers neither on
the board nor off are not yet entered. Move text: ``in/3`` enters a checker on
point 3, ``3/off`` removes one (RULES.md 1.1).

The dice leave no choice, except which die enters the last checker when either
could: the larger one, by the rule of RULES.md 1.3 (either die but not both can be
played). A die that does nothing is a die that cannot be played, so when the order
matters (11 on the board, the 3 completing twelve lets the 5 enter freely) the
order that plays more dice is the turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from tavla.core.definition import BoardKind, Direction, GameFacts, NotationKind
from tavla.core.dice import Roll
from tavla.core.errors import NotationError
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason
from tavla.core.registry import register
from tavla.rules import tpn
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn, MaybeStep
from tavla.rules.indiyka.movegen import CHECKERS, FULL_POINT, POINTS, State, indiyka_steps
from tavla.rules.movetext import Step, format_step, format_turn
from tavla.rules.tpn_checks import (
    check_total,
    single_colour_points,
    single_colour_stacks,
    split_without_bar,
)
from tavla.rules.turns import StepFunction

_IN = re.compile(r"(?<![a-z])in/", re.IGNORECASE)
_BAR = re.compile(r"bar", re.IGNORECASE)


def _white_index(player: int, point: int) -> int:
    return point - 1 if player == WHITE else 24 - point


FACTS = GameFacts(
    title="Indiyka",
    board=BoardKind.POINTS,
    notation=NotationKind.TPN,
    direction=Direction.OPPOSITE,
    has_dice=True,
    has_bar=False,
    has_pips=False,
    has_cube=True,
    stacks_colours=False,
    checkers=CHECKERS,
    gnubg_compatible=False,
)


@register(FACTS, "indijka")
@dataclass(frozen=True)
class IndiykaPosition(DiceGame[State]):
    """An indiyka position; ``points[i]`` is White's point ``i + 1``, Black negative."""

    game: ClassVar[str] = "indiyka"

    points: tuple[int, ...]
    off: tuple[int, int] = (0, 0)
    side: int = WHITE
    dice: Roll | None = None

    @classmethod
    def start(cls) -> Self:
        return cls(points=(0,) * 24)

    def board(self, player: int) -> tuple[int, ...]:
        """``player``'s checkers on his points 1-6."""
        sign = 1 if player == WHITE else -1
        return tuple(self.points[_white_index(player, point)] * sign for point in range(1, POINTS + 1))

    def waiting(self, player: int) -> int:
        """``player``'s checkers not yet entered."""
        return CHECKERS - sum(self.board(player)) - self.off[player]

    # ------------------------------------------------------------- mover's view
    def mover_state(self) -> State:
        waiting = self.waiting(self.side)
        return (self.off[self.side], *self.board(self.side), waiting, 1 if waiting else 0)

    def step_function(self) -> StepFunction[State, MaybeStep]:
        return indiyka_steps

    def turn_sequences(self) -> tuple[list[list[int]], bool]:
        dice = self.rolled_dice()
        high, low = max(dice), min(dice)
        if high == low:
            return [[high] * 4], False
        return [[high, low], [low, high]], True

    def after_turn(self, state: State, dice_played: int) -> Self:
        sign = 1 if self.side == WHITE else -1
        points = list(self.points)
        for point in range(1, POINTS + 1):
            points[_white_index(self.side, point)] = state[point] * sign
        off = (state[0], self.off[1]) if self.side == WHITE else (self.off[0], state[0])
        return self._replace(points=tuple(points), off=off, side=1 - self.side, dice=None)

    # ------------------------------------------------------------ move text
    def turn_text(self, turn: DiceTurn[Self]) -> str:
        return format_turn(turn.steps).replace("bar/", "in/")

    def format_step(self, step: Step) -> str:
        return format_step(step).replace("bar/", "in/")

    def read_paths(self, text: str) -> tuple[tuple[int, ...], ...]:
        if _BAR.search(text):
            raise NotationError("move", text, "indiyka has no bar: write in/3 to enter a checker")
        return super().read_paths(_IN.sub("bar/", text))

    # ------------------------------------------------------------------ result
    def outcome(self) -> Outcome | None:
        for winner in (WHITE, BLACK):
            if self.off[winner] == CHECKERS:
                return Outcome(winner, 1, OutcomeReason.SINGLE)
        return None

    # ----------------------------------------------------------------- notation
    def notation(self) -> str:
        fields = tpn.TpnFields(
            self.definition.head,
            single_colour_stacks(self.points),
            (0, 0),
            self.off,
            self.side,
            self.dice,
            {},
        )
        return tpn.join_tpn(fields)

    @classmethod
    def from_notation(cls, text: str) -> Self:
        fields = split_without_bar(text, cls.game)
        cls.DEFINITION.read_head(fields.game)  # indiyka has no options to read
        points = single_colour_points(fields)
        for index, count in enumerate(points):
            owner = WHITE if count > 0 else BLACK
            if count and not (index < POINTS if owner == WHITE else index >= 24 - POINTS):
                raise NotationError(
                    f"point {index + 1}",
                    tpn.format_stack(fields.points[index]),
                    "in indiyka each player uses only his own points 1-6",
                )
        position = cls(points, fields.off, fields.side, fields.dice)
        for player in (WHITE, BLACK):
            check_total(fields, player, sum(position.board(player)), CHECKERS, exact=False)
            _check_entering(position, player)
        if position.dice is not None and position.outcome() is not None:
            raise NotationError("dice", tpn.format_dice(position.dice), "the game is over: no dice to play")
        return position


def _check_entering(position: IndiykaPosition, player: int) -> None:
    """While checkers wait, none is off and the points fill two by two first (RULES.md 7)."""
    if not position.waiting(player):
        return
    letter = ("White", "Black")[player]
    if position.off[player]:
        raise NotationError(
            "off", f"{position.off[0]},{position.off[1]}", f"{letter} removes before all entered"
        )
    board = position.board(player)
    if max(board) > FULL_POINT and min(board) < FULL_POINT:
        raise NotationError(
            "points",
            "/".join(map(str, board)),
            f"{letter} has a point above {FULL_POINT} before every point holds {FULL_POINT}",
        )
