"""Tapa (plakoto, mahbousseh): pins instead of hits (RULES.md 5).

A position is an immutable value in White's numbering: per point the free checkers
(``tops``, White positive) and the pinned checker under them (``pins``: +1 a White
checker, -1 a Black one), the checkers borne off, the side to act and the dice.
In the TPN a pinned point reads bottom to top, ``1b2w``.

Option (RULES.md 5): ``mother_pin_wins`` (the Greek plakoto rule), default off;
``tavla.find_game("tapa").with_options(mother_pin_wins=True)`` is that rule set.
**Decision** (RULES.md 5): pins are judged when the turn is committed, as the
``*`` of the move text is. A void game (both mothers pinned) and, under
``mother_pin_wins``, a win by the opponent's pinned mother while the mover has no
checker on his own point 24 are read from the position the turn leaves: a pin
made and released again within the turn (the pinner borne off from point 1)
ends nothing, and a pin and an emptied point 24 win in either order. The
obligation to play as many dice as possible (RULES.md 1.3) counts dice only, so
a pin that would void the game is one legal choice, never forced because it
ends the game. Only bearing off the last checker ends a game in the middle of a
turn: the dice left are then not played (see ``dicegame``). A void game is an
outcome with no winner and 0 points; replaying it from the start is the match's
business.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self, cast

from tavla.core.definition import BoardKind, Direction, GameFacts, GameOptions, NotationKind
from tavla.core.dice import Roll
from tavla.core.errors import NotationError
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason
from tavla.core.registry import register
from tavla.rules import tpn
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import MaybeStep
from tavla.rules.tapa.movegen import CHECKERS, PIN, State, tapa_steps
from tavla.rules.tpn_checks import check_total, split_without_bar
from tavla.rules.turns import StepFunction


@dataclass(frozen=True)
class TapaOptions(GameOptions):
    mother_pin_wins: bool = False
    """The Greek plakoto rule (RULES.md 5): pinning the mother wins at once."""


FACTS = GameFacts(
    title="Tapa",
    board=BoardKind.POINTS,
    notation=NotationKind.TPN,
    direction=Direction.OPPOSITE,
    has_dice=True,
    has_bar=False,
    has_pips=True,
    has_cube=True,
    stacks_colours=True,
    checkers=CHECKERS,
    gnubg_compatible=False,
)


def _start_tops() -> tuple[int, ...]:
    tops = [0] * 24
    tops[23] = CHECKERS  # White's point 24
    tops[0] = -CHECKERS  # Black's point 24 is White's 1
    return tuple(tops)


NO_PINS = (0,) * 24


@register(FACTS, "plakoto", "mahbousseh", options=TapaOptions())
@dataclass(frozen=True)
class TapaPosition(DiceGame[State]):
    """A tapa position; ``tops[i]``/``pins[i]`` describe White's point ``i + 1``."""

    game: ClassVar[str] = "tapa"

    tops: tuple[int, ...]
    pins: tuple[int, ...] = NO_PINS
    off: tuple[int, int] = (0, 0)
    side: int = WHITE
    dice: Roll | None = None
    options: TapaOptions = TapaOptions()

    @classmethod
    def start(cls) -> Self:
        return cls(tops=_start_tops())

    # ------------------------------------------------------------- mover's view
    def mover_state(self) -> State:
        if self.side == WHITE:
            return (self.off[0], *self.tops, *self.pins)
        return (
            self.off[1],
            *(-n for n in reversed(self.tops)),
            *(-n for n in reversed(self.pins)),
        )

    def after_turn(self, state: State, dice_played: int) -> Self:
        tops, pins = state[1 : PIN + 1], state[PIN + 1 :]
        # Built directly rather than with dataclasses.replace: this runs once per legal turn.
        if self.side == WHITE:
            return type(self)(tops, pins, (state[0], self.off[1]), BLACK, None, self.options)
        return type(self)(
            tuple(-n for n in reversed(tops)),
            tuple(-n for n in reversed(pins)),
            (self.off[0], state[0]),
            WHITE,
            None,
            self.options,
        )

    def step_function(self) -> StepFunction[State, MaybeStep]:
        # The same for both rule sets: ``mother_pin_wins`` is judged by ``outcome``
        # on the position the committed turn leaves.
        return tapa_steps

    def turn_sequences(self) -> tuple[list[list[int]], bool]:
        dice = self.rolled_dice()
        high, low = max(dice), min(dice)
        if high == low:
            return [[high] * 4], False
        return [[high, low], [low, high]], True

    # ------------------------------------------------------------------ result
    def mother_pinned(self, player: int) -> bool:
        """Is ``player``'s last checker on his point 24 pinned (RULES.md 5)?"""
        return self.pins[23] == 1 if player == WHITE else self.pins[0] == -1

    def _has_checker_on(self, player: int, index: int) -> bool:
        sign = 1 if player == WHITE else -1
        return self.tops[index] * sign > 0 or self.pins[index] * sign > 0

    def outcome(self) -> Outcome | None:
        if self.mother_pinned(WHITE) and self.mother_pinned(BLACK):
            return Outcome(None, 0, OutcomeReason.VOID)
        for winner in (WHITE, BLACK):
            loser = 1 - winner
            if self.off[winner] == CHECKERS:
                if self.off[loser] > 0:
                    return Outcome(winner, 1, OutcomeReason.SINGLE)
                home = range(0, 6) if winner == WHITE else range(18, 24)
                if any(self._has_checker_on(loser, index) for index in home):
                    return Outcome(winner, 3, OutcomeReason.BACKGAMMON)
                return Outcome(winner, 2, OutcomeReason.GAMMON)
            own_start = 23 if winner == WHITE else 0
            if (
                self.options.mother_pin_wins
                and self.mother_pinned(loser)
                and not self._has_checker_on(winner, own_start)
            ):
                return Outcome(winner, 2, OutcomeReason.MOTHER_PINNED)
        return None

    # ----------------------------------------------------------------- notation
    def stacks(self) -> tuple[tpn.Stack, ...]:
        """Each point's checkers bottom to top as (count, player) runs (White's numbering)."""
        found: list[tpn.Stack] = []
        for top, pin in zip(self.tops, self.pins, strict=True):
            runs: list[tuple[int, int]] = []
            if pin:
                runs.append((1, WHITE if pin > 0 else BLACK))
            if top:
                runs.append((abs(top), WHITE if top > 0 else BLACK))
            found.append(tuple(runs))
        return tuple(found)

    def notation(self) -> str:
        fields = tpn.TpnFields(
            self.definition.head, self.stacks(), (0, 0), self.off, self.side, self.dice, {}
        )
        return tpn.join_tpn(fields)

    @classmethod
    def from_notation(cls, text: str) -> Self:
        fields = split_without_bar(text, cls.game)
        options = cls.DEFINITION.read_head(fields.game).options
        tops, pins = _read_points(fields.points)
        for player in (WHITE, BLACK):
            sign = 1 if player == WHITE else -1
            on_points = sum(n * sign for n in (*tops, *pins) if n * sign > 0)
            check_total(fields, player, on_points, CHECKERS, exact=True)
        position = cls(tops, pins, fields.off, fields.side, fields.dice, cast(TapaOptions, options))
        if position.dice is not None and position.outcome() is not None:
            raise NotationError("dice", tpn.format_dice(position.dice), "the game is over: no dice to play")
        return position


def _read_points(stacks: Sequence[tpn.Stack]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Tops and pins from TPN stacks, rejecting what tapa cannot have (RULES.md 5)."""
    tops: list[int] = []
    pins: list[int] = []
    for index, stack in enumerate(stacks):
        field, value = f"point {index + 1}", tpn.format_stack(stack)
        pin = 0
        if len(stack) > 2:
            raise NotationError(field, value, "a tapa point holds at most one pinned checker under one stack")
        if len(stack) == 2:
            (count, pinned), _ = stack
            if count != 1:
                raise NotationError(
                    field, value, "only a lone checker can be pinned: the bottom run must be 1"
                )
            # A player never lands on his own point 24, so nothing of his pins there.
            if (index == 23 and pinned == BLACK) or (index == 0 and pinned == WHITE):
                raise NotationError(
                    field, value, "a player never lands on his own point 24, so cannot pin there"
                )
            pin = 1 if pinned == WHITE else -1
        top_count, top_colour = stack[-1] if stack else (0, WHITE)
        tops.append(top_count if top_colour == WHITE else -top_count)
        pins.append(pin)
    return tuple(tops), tuple(pins)
