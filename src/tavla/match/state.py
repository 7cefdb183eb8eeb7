"""The state of a match as one immutable value, and what it says about the moment.

A :class:`MatchState` holds everything the rules need: settings, score, Crawford
status, the position of the game in progress, the cube, a pending resignation,
the clock and the results so far. Actions (``actions.py``) turn one state into the
next; a refused action raises and the old state is untouched, so "state before ==
state after" holds for every refusal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tavla.core.definition import GameDefinition
from tavla.core.protocol import AnyPosition, OutcomeReason
from tavla.core.words import Word
from tavla.match.clock import Clock
from tavla.match.cube import Cube
from tavla.match.resign import ResignOffer
from tavla.match.settings import MatchSettings

BREAK_MS = 5 * 60 * 1000  # RULES.md 11.4
WARNINGS_TO_LOSE = 3  # RULES.md 8.3, 11.4: the third warning loses the match


class Phase(Word):
    """The moment of a match: what is awaited next (see :attr:`MatchState.phase`)."""

    OVER = "over"
    BETWEEN = "between"
    """Before the first game, between games, or after a game before ``start``."""
    OPENING = "opening"
    """The opening roll decides who starts."""
    RESIGN = "resign"
    """A resignation waits for the opponent's answer."""
    DOUBLE = "double"
    """A double waits for take, drop or beaver."""
    RACCOON = "raccoon"
    """After a beaver, the doubler may raccoon before he rolls."""
    ROLL = "roll"
    """The actor rolls (or doubles first)."""
    MOVE = "move"
    """The actor plays his turn."""


class EndReason(Word):
    """Why a game ended other than on the board; with :class:`OutcomeReason` these are
    every :attr:`GameResult.reason`."""

    DROP = "drop"
    RESIGN = "resign"
    FLAG = "flag"
    """The acting player's time ran out (RULES.md 10)."""
    WARNINGS = "warnings"
    """The third warning of the arbiter lost the match (RULES.md 8.3, 11.4)."""
    ABSENT = "absent"
    """The opponent never came: the no-show procedure gave the match (RULES.md 11.4)."""
    FORFEIT = "forfeit"
    """The player withdrew, or an arbiter decided that he loses the match."""
    VOID = "void"
    """The match was voided: nobody wins it (RULES.md 12)."""


ResultReason = OutcomeReason | EndReason


@dataclass(frozen=True)
class GameResult:
    """A finished game: the winning seat (``None``: void), points scored and why.

    ``reason`` is the position's own (``single``, ``gammon``, ``backgammon`` ...), or
    ``drop``, ``resign`` or ``flag``; ``cube`` is the cube value at the end.
    """

    winner: int | None
    points: int
    reason: ResultReason
    cube: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "points": self.points, "reason": self.reason, "cube": self.cube}


@dataclass(frozen=True)
class MatchState:
    settings: MatchSettings
    definition: GameDefinition
    position: AnyPosition
    score: tuple[int, int] = (0, 0)
    game_number: int = 0
    crawford: bool = False
    crawford_done: bool = False
    awaiting_opening: bool = False
    starter: int | None = None
    rolls: tuple[int, int] = (0, 0)
    cube: Cube = field(default_factory=Cube)
    resign: ResignOffer | None = None
    clock: Clock | None = None
    result: GameResult | None = None
    results: tuple[GameResult, ...] = ()
    over: bool = False
    winner: int | None = None
    breaks_used: tuple[int, int] = (0, 0)
    break_ends_ms: int = 0
    warnings: tuple[int, int] = (0, 0)
    forfeit: EndReason | None = None
    """Why the match ended before it was played out (``flag``, ``warnings``,
    ``absent``, ``forfeit``, ``void``), or None."""

    # ------------------------------------------------------------------ seats
    def colour_of(self, seat: int) -> int:
        """The colour ``seat`` plays in this game: fixed in dice games, alternating
        by set in games without dice (seat 0 is White in odd sets, RULES.md 8.3)."""
        if not self.has_dice and self.game_number % 2 == 0:
            return 1 - seat
        return seat

    def seat_of(self, colour: int) -> int:
        return self.colour_of(colour)  # the mapping is its own inverse

    # ----------------------------------------------------------------- moment
    @property
    def phase(self) -> Phase:
        """What the match awaits now (see :class:`Phase`)."""
        if self.over:
            return Phase.OVER
        if self.result is not None or self.game_number == 0:
            return Phase.BETWEEN
        if self.awaiting_opening:
            return Phase.OPENING
        if self.resign is not None:
            return Phase.RESIGN
        offer = self.cube.offer
        if offer is not None:
            return Phase.DOUBLE if offer.kind == "double" else Phase.RACCOON
        return Phase.ROLL if self.position.is_chance else Phase.MOVE

    @property
    def actor(self) -> int | None:
        """The seat that must act now (and whose clock runs), or None."""
        phase = self.phase
        if phase in ("over", "between", "opening"):
            return None
        resign = self.resign
        if phase == "resign" and resign is not None:  # the phase is named after the offer
            return 1 - resign.by
        offer = self.cube.offer
        if phase == "double" and offer is not None:
            return 1 - offer.by
        if phase == "raccoon" and offer is not None:
            return offer.by
        return self.seat_of(self.position.to_act)

    @property
    def has_dice(self) -> bool:
        return self.definition.facts.has_dice

    @property
    def cube_in_use(self) -> bool:
        """The cube exists in this game: enabled, a dice game, not the Crawford game."""
        return self.settings.cube and self.definition.facts.has_cube and not self.crawford

    @property
    def post_crawford(self) -> bool:
        return self.crawford_done and not self.crawford

    @property
    def breaks_allowed(self) -> int:
        """RULES.md 11.4: 1 break in matches up to 11 points, 2 from 13; none in money play."""
        if self.settings.money:
            return 0
        return 1 if self.settings.length <= 11 else 2


def new_state(settings: MatchSettings) -> MatchState:
    """The state before the first game: a ``start`` action begins it (and its clock)."""
    definition = settings.definition
    clock = None if settings.clock is None else Clock.new(settings.clock)
    return MatchState(settings, definition, definition.start(), clock=clock)
