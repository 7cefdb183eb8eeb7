"""The JSON form of a position of any game (:class:`PositionJson`).

A client draws a board from this alone, without reading TPN. The dice games share
one shape (``board: "points"``), built from the position's TPN, which every dice
game writes the same way (RULES.md 1.2); Abluka has its own (``board: "grid"``).
Which builder applies is decided by the game's :class:`~tavla.core.definition.NotationKind`,
never by its name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import Field, RootModel

from tavla.core.definition import Direction, NotationKind
from tavla.core.protocol import AnyPosition, Outcome, OutcomeReason
from tavla.render.board import own_point
from tavla.rules import tpn
from tavla.rules.abluka.board import SIZE, SQUARE_NAMES, squares_of
from tavla.rules.abluka.notation import parse_position
from tavla.rules.movetext import BAR
from tavla.schema.common import Colour, JsonModel, PerColour, colour

OptionValues = dict[str, bool | int]


class RunJson(JsonModel):
    """Checkers of one colour lying together on a point."""

    colour: Colour
    count: Annotated[int, Field(ge=1)]
    pinned: bool
    """Held under an opposing checker (tapa): every run but the top one."""


class PointJson(JsonModel):
    """One of the 24 points, numbered as White numbers them."""

    point: Annotated[int, Field(ge=1, le=24)]
    owner: Colour | None
    """The colour of the top run (who holds the point), or null when empty."""
    checkers: list[RunJson]
    """The runs from the bottom of the stack to the top (``1b2w``: a pinned Black checker
    under two White ones)."""


class OutcomeJson(JsonModel):
    """How a game ended on the board."""

    winner: Colour | None
    """null for a void game (tapa: both mothers pinned)."""
    points: int
    """Points before the cube: 1, 2 or 3 (0 for a void game)."""
    reason: OutcomeReason


def outcome_json(outcome: Outcome | None) -> OutcomeJson | None:
    if outcome is None:
        return None
    winner = None if outcome.winner is None else colour(outcome.winner)
    return OutcomeJson(winner=winner, points=outcome.points, reason=outcome.reason)


class DicePositionJson(JsonModel):
    """A position of a dice game (tabla, antitabla, chelebi, tapa, gulbara, indiyka)."""

    board: Literal["points"] = "points"
    game: str
    """The game's canonical name (``tabla``)."""
    title: str
    """The name to show (``Gul bara``)."""
    options: OptionValues
    """Every rule option of the game with its value."""
    direction: Direction
    """``opposite``: Black's point n is White's 25 - n; ``same`` (gulbara): Black's point n
    is White's ((n + 11) mod 24) + 1."""
    points: Annotated[list[PointJson], Field(min_length=24, max_length=24)]
    """White's points 1 to 24, in that order."""
    bar: PerColour | None
    """Checkers on the bar, in games with a bar (null otherwise)."""
    off: PerColour
    """Checkers borne off (indiyka: removed)."""
    not_entered: PerColour
    """Checkers not yet on the board (indiyka; 0 in the other games)."""
    pips: PerColour | None
    """Pip counts, in games where they mean something (null in indiyka)."""
    to_act: Colour
    chance: bool
    """True when the dice must be rolled next."""
    dice: Annotated[list[Annotated[int, Field(ge=1, le=6)]], Field(min_length=2, max_length=2)] | None
    """The roll to play, as rolled, or null."""
    completing: list[Annotated[int, Field(ge=1, le=6)]] | None
    """Gulbara: the dice of the opponent's progressive double that the side to act plays
    first, in order (the TPN's ``c=``), or null."""
    rolls: PerColour | None
    """Gulbara: the rolls each side has made in this game, counted up to 3 (the TPN's
    ``r=``); null in the other games."""
    outcome: OutcomeJson | None
    tpn: str
    """The position's TPN, for logs and for pasting into other tools."""


class KingsJson(JsonModel):
    """The square of each king (``d7``)."""

    white: str
    black: str


class GridPositionJson(JsonModel):
    """A position of Abluka: two kings and the blocked squares of a 7x7 board."""

    board: Literal["grid"] = "grid"
    game: str
    title: str
    options: OptionValues
    size: int
    """Files a.. and ranks 1.. of the square board (7)."""
    kings: KingsJson
    blockers: list[str]
    """The blocked squares, a1 first, rank by rank."""
    to_act: Colour
    outcome: OutcomeJson | None
    notation: str
    """Abluka's FEN-like notation of the position."""


class PositionJson(RootModel[Annotated[DicePositionJson | GridPositionJson, Field(discriminator="board")]]):
    """A position of any game; ``board`` says which shape it has."""


def _point_json(index: int, stack: tpn.Stack) -> PointJson:
    runs = [
        RunJson(colour=colour(side), count=count, pinned=place < len(stack) - 1)
        for place, (count, side) in enumerate(stack)
    ]
    return PointJson(point=index + 1, owner=colour(stack[-1][1]) if stack else None, checkers=runs)


def _pips(fields: tpn.TpnFields, same_direction: bool) -> tuple[int, int]:
    """Each side's pips: a checker on its own point n needs n, on the bar 25."""
    totals = [BAR * fields.bar[0], BAR * fields.bar[1]]
    for index, stack in enumerate(fields.points):
        for count, side in stack:
            totals[side] += count * own_point(index + 1, side, same_direction)
    return totals[0], totals[1]


def _rolls(text: str | None) -> PerColour | None:
    if text is None:
        return None
    white, _, black = text.partition(",")
    return PerColour(white=int(white), black=int(black))


KNOWN_EXTRAS = ("c", "r")
"""The TPN's extra fields this shape carries (docs/notation.md); another would be lost."""


def _dice_position(position: AnyPosition) -> DicePositionJson:
    definition = position.definition
    facts = definition.facts
    text = position.notation()
    fields = tpn.split_tpn(text, (definition.name,))
    unknown = set(fields.extras) - set(KNOWN_EXTRAS)
    if unknown:
        raise ValueError(f"{definition.name}: TPN fields {sorted(unknown)} have no JSON form")
    on_board = [0, 0]
    for stack in fields.points:
        for count, side in stack:
            on_board[side] += count
    waiting = [facts.checkers - on_board[s] - fields.bar[s] - fields.off[s] for s in (0, 1)]
    same_direction = facts.direction is Direction.SAME
    completing = fields.extras.get("c")
    return DicePositionJson(
        game=definition.name,
        title=facts.title,
        options=definition.option_values(),
        direction=facts.direction,
        points=[_point_json(index, stack) for index, stack in enumerate(fields.points)],
        bar=PerColour.of(fields.bar) if facts.has_bar else None,
        off=PerColour.of(fields.off),
        not_entered=PerColour.of((waiting[0], waiting[1])),
        pips=PerColour.of(_pips(fields, same_direction)) if facts.has_pips else None,
        to_act=colour(position.to_act),
        chance=position.is_chance,
        dice=None if fields.dice is None else list(fields.dice),
        completing=None if completing is None else [int(die) for die in completing],
        rolls=_rolls(fields.extras.get("r")),
        outcome=outcome_json(position.outcome()),
        tpn=text,
    )


def _grid_position(position: AnyPosition) -> GridPositionJson:
    definition = position.definition
    text = position.notation()
    placement = parse_position(text)
    return GridPositionJson(
        game=definition.name,
        title=definition.facts.title,
        options=definition.option_values(),
        size=SIZE,
        kings=KingsJson(white=SQUARE_NAMES[placement.white], black=SQUARE_NAMES[placement.black]),
        blockers=[SQUARE_NAMES[square] for square in squares_of(placement.blockers)],
        to_act=colour(position.to_act),
        outcome=outcome_json(position.outcome()),
        notation=text,
    )


_BUILDERS: dict[NotationKind, Callable[[AnyPosition], DicePositionJson | GridPositionJson]] = {
    NotationKind.TPN: _dice_position,
    NotationKind.ABLUKA: _grid_position,
}


def position_json(position: AnyPosition) -> PositionJson:
    """The JSON form of ``position`` (``position_json(p).model_dump()`` for the data)."""
    build = _BUILDERS[position.definition.facts.notation]
    return PositionJson(build(position))
