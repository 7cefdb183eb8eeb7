"""The JSON form of a turn being played one step at a time (:class:`StepsJson`).

A client shows the steps played, highlights where each legal next step goes from
and to, and sends one back as a ``step`` action with its ``text``. Dice-game steps
are read from their move text (RULES.md 1.1, the mover's numbering) and given in
White's numbering, as :class:`~tavla.schema.position.PositionJson` numbers points;
an Abluka turn has two steps, the king's and then the blocker's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Literal, Protocol, runtime_checkable

from pydantic import Field

from tavla.core.definition import Direction, NotationKind
from tavla.core.protocol import AnyPosition, StepBuilder, Turn
from tavla.render.board import white_point
from tavla.rules.abluka.board import SQUARE_NAMES
from tavla.rules.abluka.notation import parse_position
from tavla.schema.common import Colour, JsonModel, colour

Place = int | str
"""A point 1-24 in White's numbering, ``bar``, ``in`` (not yet entered), ``off``, or an
Abluka square (``d6``)."""


class StepJson(JsonModel):
    """One legal next step."""

    text: str
    """What to send in a ``step`` action: ``13/7*``, ``bar/20``, ``in/3``, ``6/off`` in the
    mover's numbering, or an Abluka square."""
    piece: Literal["checker", "king", "blocker"]
    from_: Annotated[Place | None, Field(alias="from")]
    """Where the piece leaves: a point in White's numbering, ``bar`` or ``in``; the king's
    square; null for an Abluka blocker, which comes from the supply."""
    to: Place
    """Where it arrives: a point in White's numbering or ``off``; a square."""
    hit: bool
    """The step lands on a lone opposing checker: a hit (tabla family) or a pin (tapa)."""


class StepsJson(JsonModel):
    """A turn in the making: what is played, what may come next, what is left."""

    game: str
    to_act: Colour
    played: list[str]
    """The steps played so far, as their text, first first."""
    legal: list[StepJson]
    """Every step that keeps a whole legal turn reachable; empty once the turn is complete."""
    complete: bool
    """True when the steps played form a legal turn: the turn may be committed."""
    dice_left: list[Annotated[int, Field(ge=1, le=6)]]
    """The dice not yet played: in playing order where it is fixed (a progressive double
    plays its numbers upwards), else highest first; empty once complete, and in Abluka."""


@runtime_checkable
class PositionedBuilder(Protocol):
    """A step builder that tells the position it plays from (every builder of the rules)."""

    @property
    def position(self) -> AnyPosition: ...


@runtime_checkable
class DiceLeft(Protocol):
    """A dice-game builder: it knows the dice still to play, one tuple per order."""

    @property
    def dice_left(self) -> Sequence[tuple[int, ...]]: ...


def _dice_place(text: str, mover: int, same_direction: bool) -> Place:
    """A point of a step's text, seen from White; ``bar``, ``in`` and ``off`` stay words."""
    if text in ("bar", "in", "off"):
        return text
    return white_point(int(text), mover, same_direction)


def _dice_step(position: AnyPosition, text: str) -> StepJson:
    source, _, target = text.partition("/")
    hit = target.endswith("*")
    same_direction = position.definition.facts.direction is Direction.SAME
    mover = position.to_act
    return StepJson(
        text=text,
        piece="checker",
        from_=_dice_place(source, mover, same_direction),
        to=_dice_place(target.removesuffix("*"), mover, same_direction),
        hit=hit,
    )


def _dice_steps(position: AnyPosition, builder: StepBuilder[Turn]) -> list[StepJson]:
    return [_dice_step(position, text) for text in builder.legal_steps()]


def _grid_steps(position: AnyPosition, builder: StepBuilder[Turn]) -> list[StepJson]:
    # The first step moves the king; the second puts a blocker down.
    if builder.played:
        return [StepJson(text=s, piece="blocker", from_=None, to=s, hit=False) for s in builder.legal_steps()]
    placement = parse_position(position.notation())
    king = SQUARE_NAMES[placement.white if position.to_act == 0 else placement.black]
    return [StepJson(text=s, piece="king", from_=king, to=s, hit=False) for s in builder.legal_steps()]


_STEP_READERS: dict[NotationKind, Callable[[AnyPosition, StepBuilder[Turn]], list[StepJson]]] = {
    NotationKind.TPN: _dice_steps,
    NotationKind.ABLUKA: _grid_steps,
}


def _dice_left(builder: StepBuilder[Turn]) -> list[int]:
    if builder.complete or not isinstance(builder, DiceLeft):
        return []
    orders = builder.dice_left
    if len(orders) == 1:
        return list(orders[0])  # the order is fixed (doubles, progressive doubles, a die played)
    # Orders still open hold the same dice, differing only in sequence.
    return sorted(orders[0], reverse=True) if orders else []


def steps_json(builder: StepBuilder[Turn]) -> StepsJson:
    """The JSON form of ``builder``'s turn so far (from ``position.steps()``)."""
    if not isinstance(builder, PositionedBuilder):
        raise TypeError(f"{type(builder).__name__} does not tell its position")
    position = builder.position
    read = _STEP_READERS[position.definition.facts.notation]
    return StepsJson(
        game=position.definition.name,
        to_act=colour(position.to_act),
        played=list(builder.played),
        legal=read(position, builder),
        complete=builder.complete,
        dice_left=_dice_left(builder),
    )
