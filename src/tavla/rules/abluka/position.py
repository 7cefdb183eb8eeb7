"""Abluka positions, turns and the two-step turn builder (RULES.md 8.1).

A turn is a king step to an empty neighbouring square, then a blocker on any empty
square, the one just left included. The side to move without a king step has lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import ClassVar, Self

from tavla.core.definition import BoardKind, Defined, Direction, GameFacts, NotationKind
from tavla.core.dice import Roll
from tavla.core.errors import IllegalMoveError, NotationError, WrongPhaseError
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason, Turn
from tavla.core.registry import register
from tavla.rules.abluka.board import (
    BIT,
    FULL,
    NEIGHBOURS,
    SQUARE_NAMES,
    parse_square,
    squares_of,
)
from tavla.rules.abluka.notation import format_position, parse_position, parse_turn_text

START_WHITE = 6 * 7 + 3  # d7
START_BLACK = 3  # d1


class AblukaTurn:
    """A legal turn: where the king goes, where the blocker goes, and the result."""

    __slots__ = ("_after", "_block", "_to")

    def __init__(self, to: int, block: int, after: AblukaPosition) -> None:
        self._to = to
        self._block = block
        self._after = after

    # Read-only views: a turn handed out by a position cannot be changed by its holder.
    @property
    def to(self) -> int:
        """The king's new square."""
        return self._to

    @property
    def block(self) -> int:
        """The blocker's square."""
        return self._block

    @property
    def after(self) -> AblukaPosition:
        return self._after

    @property
    def text(self) -> str:
        return f"{SQUARE_NAMES[self.to]}/{SQUARE_NAMES[self.block]}"

    def __repr__(self) -> str:
        return f"<Turn {self.text}>"


FACTS = GameFacts(
    title="Abluka",
    board=BoardKind.GRID,
    notation=NotationKind.ABLUKA,
    direction=Direction.NONE,
    has_dice=False,
    has_bar=False,
    has_pips=False,
    has_cube=False,
    stacks_colours=False,
    checkers=0,
    gnubg_compatible=False,
)


@register(FACTS)
@dataclass(frozen=True)
class AblukaPosition(Defined):
    """An Abluka position: the two king squares, the blocker mask and the side to move."""

    game: ClassVar[str] = "abluka"

    white: int
    black: int
    blockers: int = 0
    side: int = BLACK

    def __post_init__(self) -> None:
        if not (0 <= self.white < 49 and 0 <= self.black < 49) or self.white == self.black:
            raise NotationError(
                "kings", f"{self.white},{self.black}", "the kings stand on two different squares a1..g7"
            )
        if self.blockers & ~FULL or self.blockers & (BIT[self.white] | BIT[self.black]):
            raise NotationError(
                "blockers", hex(self.blockers), "blockers lie on the board and never under a king"
            )

    @classmethod
    def start(cls) -> Self:
        return cls(START_WHITE, START_BLACK, 0, BLACK)

    # ------------------------------------------------------------------ views
    @property
    def to_act(self) -> int:
        return self.side

    @property
    def mover(self) -> int:
        """The square of the side to move's king."""
        return self.black if self.side == BLACK else self.white

    @property
    def waiter(self) -> int:
        """The square of the other king."""
        return self.white if self.side == BLACK else self.black

    @property
    def empty(self) -> int:
        return FULL & ~(self.blockers | BIT[self.white] | BIT[self.black])

    def king_steps(self) -> int:
        """The mask of squares the side to move's king can step to."""
        return NEIGHBOURS[self.mover] & self.empty

    # ------------------------------------------------------------- no chance
    @property
    def is_chance(self) -> bool:
        return False

    def chance_outcomes(self) -> Sequence[tuple[Roll, Fraction]]:
        return ()

    @property
    def dice(self) -> Roll | None:
        return None

    def with_roll(self, roll: Roll) -> Self:
        raise WrongPhaseError(f"abluka has no dice: {self.notation()}")

    def with_side(self, side: int) -> Self:
        return type(self)(self.white, self.black, self.blockers, side)

    # ------------------------------------------------------------------ turns
    def after_turn(self, to: int, block: int) -> Self:
        """The position after the king steps to ``to`` and a blocker goes on ``block``.

        The caller vouches that the turn is legal (see :meth:`turn_error`).
        """
        if self.side == BLACK:
            return type(self)(self.white, to, self.blockers | BIT[block], WHITE)
        return type(self)(to, self.black, self.blockers | BIT[block], BLACK)

    def turn_error(self, to: int, block: int) -> str | None:
        """Why the turn ``to``/``block`` is illegal here, or None when it is legal."""
        if self.outcome() is not None:
            return "the game is over"
        if not NEIGHBOURS[self.mover] & BIT[to]:
            return f"{SQUARE_NAMES[to]} is not next to the king on {SQUARE_NAMES[self.mover]}"
        if not self.empty & BIT[to]:
            return f"{SQUARE_NAMES[to]} is not empty"
        if block == to or not (self.empty | BIT[self.mover]) & BIT[block]:
            return f"the blocker cannot go on {SQUARE_NAMES[block]}: not empty after the step"
        return None

    @cached_property
    def _turns(self) -> tuple[AblukaTurn, ...]:
        turns: list[AblukaTurn] = []
        empty = self.empty
        for to in squares_of(NEIGHBOURS[self.mover] & empty):
            for block in squares_of((empty & ~BIT[to]) | BIT[self.mover]):
                turns.append(AblukaTurn(to, block, self.after_turn(to, block)))
        return tuple(turns)

    def legal_turns(self) -> Sequence[AblukaTurn]:
        return self._turns

    def legal_turns_within(self, limit: int) -> Sequence[AblukaTurn]:
        return self._turns  # at most 8 x 48 turns

    def parse_turn(self, text: str) -> AblukaTurn:
        try:
            to, block = parse_turn_text(text)
        except NotationError as error:
            raise IllegalMoveError(text, self.notation(), f"unreadable turn ({error})") from None
        reason = self.turn_error(to, block)
        if reason is not None:
            raise IllegalMoveError(text, self.notation(), reason)
        return AblukaTurn(to, block, self.after_turn(to, block))

    def play(self, turn: Turn | str) -> Self:
        if isinstance(turn, str):
            return self.parse_turn(turn).after  # type: ignore[return-value]
        if not isinstance(turn, AblukaTurn):
            raise IllegalMoveError(turn.text, self.notation(), "not an Abluka turn")
        reason = self.turn_error(turn.to, turn.block)
        if reason is not None or turn.after != self.after_turn(turn.to, turn.block):
            raise IllegalMoveError(
                turn.text, self.notation(), reason or "the turn belongs to another position"
            )
        return turn.after

    def steps(self) -> AblukaSteps:
        return AblukaSteps(self)

    def outcome(self) -> Outcome | None:
        if self.king_steps():
            return None
        return Outcome(1 - self.side, 1, OutcomeReason.NO_MOVE)

    # --------------------------------------------------------------- notation
    def notation(self) -> str:
        return format_position(self.white, self.black, self.blockers, self.side)

    def __str__(self) -> str:
        return self.notation()

    @classmethod
    def from_notation(cls, text: str) -> Self:
        placement = parse_position(text)
        return cls(placement.white, placement.black, placement.blockers, placement.side)

    def key(self) -> int:
        """One integer that identifies the position (for tables and hashing)."""
        return self.blockers | (self.white << 49) | (self.black << 55) | (self.side << 61)


class AblukaSteps:
    """The turn in two steps: first the king's square, then the blocker's; with undo."""

    def __init__(self, position: AblukaPosition) -> None:
        self.position = position
        self._to: int | None = None
        self._block: int | None = None

    def legal_steps(self) -> list[str]:
        position = self.position
        if position.outcome() is not None or self._block is not None:
            return []
        if self._to is None:
            return [SQUARE_NAMES[s] for s in squares_of(position.king_steps())]
        free = (position.empty & ~BIT[self._to]) | BIT[position.mover]
        return [SQUARE_NAMES[s] for s in squares_of(free)]

    def step(self, text: str) -> None:
        allowed = self.legal_steps()
        try:
            square = parse_square(text, "step")
        except NotationError as error:
            raise IllegalMoveError(text, self.position.notation(), f"unreadable step ({error})") from None
        if SQUARE_NAMES[square] not in allowed:
            what = "king step" if self._to is None else "blocker square"
            listed = ", ".join(allowed) or "none"
            raise IllegalMoveError(text, self.position.notation(), f"{what} not allowed (allowed: {listed})")
        if self._to is None:
            self._to = square
        else:
            self._block = square

    def undo(self) -> None:
        if self._block is not None:
            self._block = None
        elif self._to is not None:
            self._to = None
        else:
            raise IllegalMoveError("undo", self.position.notation(), "no step to take back")

    @property
    def played(self) -> list[str]:
        return [SQUARE_NAMES[s] for s in (self._to, self._block) if s is not None]

    @property
    def complete(self) -> bool:
        return self._block is not None

    def commit(self) -> AblukaTurn:
        if self._to is None or self._block is None:
            raise IllegalMoveError(
                "/".join(self.played) or "-", self.position.notation(), "the turn is not complete"
            )
        return AblukaTurn(self._to, self._block, self.position.after_turn(self._to, self._block))
