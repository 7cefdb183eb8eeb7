"""The game protocol every game of the product implements.

A game is a sequence of immutable *positions*. A position says whose turn it is,
whether chance (the dice) acts next and with which probabilities, which turns are
legal, and whether the game is over. Dice games alternate a chance node (the roll)
and a decision node (the turn); games without dice (Abluka) have only decisions.

Positions are values: ``play`` returns a new position and never changes the old one,
so undo is keeping the previous value, and positions can be hashed and compared.

The protocol is generic over the game's turn type: ``Position[DiceTurn[TapaPosition]]``
is what a tapa position is; callers that serve every game hold an
:data:`AnyPosition`. mypy checks every game class against it where the game is
registered (``tavla.core.registry.register``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar, Protocol, Self, TypeVar

from tavla.core.dice import Roll
from tavla.core.words import Word

if TYPE_CHECKING:
    from tavla.core.definition import GameDefinition

WHITE = 0
BLACK = 1
SIDE_LETTERS = ("w", "b")


class OutcomeReason(Word):
    """Why a game ended on the board. The values are the words records and JSON carry."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    VOID = "void"
    """Tapa: both mothers pinned; nobody scores."""
    MOTHER_PINNED = "mother pinned"
    """Tapa under ``mother_pin_wins``: the opponent's mother is pinned."""
    NO_MOVE = "no move"
    """Abluka: the side to move has no king step and has lost."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game.

    ``winner`` is 0 (White) or 1 (Black), or ``None`` for a void game that nobody
    scores. ``points`` is 1, 2 or 3 before the cube; ``reason`` names the result.
    """

    winner: int | None
    points: int
    reason: OutcomeReason


class Turn(Protocol):
    """One legal turn: its canonical text and the position it leads to."""

    @property
    def text(self) -> str: ...

    @property
    def after(self) -> Position[Turn]: ...


TurnT_co = TypeVar("TurnT_co", bound=Turn, covariant=True)


class StepBuilder(Protocol[TurnT_co]):
    """Plays a turn one step (die) at a time, with undo until the turn is committed."""

    def legal_steps(self) -> Sequence[str]:
        """The distinct steps that keep a maximal turn reachable, as move text (``13/7``)."""
        ...

    def step(self, text: str) -> None:
        """Play one step; raises IllegalMoveError and changes nothing if not allowed."""
        ...

    def undo(self) -> None:
        """Take back the last step; raises IllegalMoveError when there is none."""
        ...

    @property
    def played(self) -> Sequence[str]:
        """The steps played so far, as move text."""
        ...

    @property
    def complete(self) -> bool:
        """True when the steps so far form a whole legal turn."""
        ...

    def commit(self) -> TurnT_co:
        """The legal turn the steps form; raises IllegalMoveError if incomplete."""
        ...


class Position(Protocol[TurnT_co]):
    """An immutable game position (the state between actions)."""

    game: ClassVar[str]

    @property
    def definition(self) -> GameDefinition:
        """The game and rule options this position is played under."""
        ...

    def with_rules(self, definition: GameDefinition) -> Self:
        """This position under another set of options of the same game."""
        ...

    @property
    def to_act(self) -> int:
        """The player who acts next: 0 White, 1 Black."""
        ...

    @property
    def dice(self) -> Roll | None:
        """The roll to play, or None (a roll is due, or a game without dice)."""
        ...

    @property
    def is_chance(self) -> bool:
        """True when the dice must be rolled before anybody can decide."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Roll, Fraction]]:
        """The rolls chance may produce here with their probabilities (they sum to 1)."""
        ...

    def with_roll(self, roll: Roll) -> Self:
        """The position after chance produced ``roll``."""
        ...

    def with_side(self, side: int) -> Self:
        """The same position with ``side`` to act (the opening roll decides it)."""
        ...

    def legal_turns(self) -> Sequence[TurnT_co]:
        """Every legal turn, one per distinct resulting position."""
        ...

    def legal_turns_within(self, limit: int) -> Sequence[TurnT_co] | None:
        """The legal turns, or None where listing them would pass ``limit`` positions
        after some die (the long progressive doubles)."""
        ...

    def parse_turn(self, text: str) -> TurnT_co:
        """The legal turn that ``text`` denotes; raises IllegalMoveError otherwise."""
        ...

    def play(self, turn: Turn | str) -> Self:
        """The position after a legal turn (given as a Turn or as text); a turn of
        another position is checked and refused with IllegalMoveError."""
        ...

    def steps(self) -> StepBuilder[TurnT_co]:
        """A builder to play the turn due here one step at a time."""
        ...

    def outcome(self) -> Outcome | None:
        """The result when the game is over, else None."""
        ...

    def notation(self) -> str:
        """The position as text (TPN, or Abluka's FEN-like notation)."""
        ...

    @classmethod
    def start(cls) -> Self:
        """The starting position of the game under its default options."""
        ...

    @classmethod
    def from_notation(cls, text: str) -> Self:
        """Parse :meth:`notation`'s text; raises NotationError."""
        ...


AnyPosition = Position[Turn]
"""A position of any game, as held by callers that serve every game."""
