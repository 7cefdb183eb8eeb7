"""What every JSON object of :mod:`tavla.schema` shares: strict models and colours.

The models refuse unknown fields and values of the wrong type (no ``"1"`` for 1, no
``true`` for 1): the same models check what a client sends and document what the
server sends, so they must be as strict one way as the other.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from tavla.core.protocol import BLACK, WHITE
from tavla.core.words import Word


class JsonModel(BaseModel):
    """Base of every JSON object: frozen, strict, no unknown fields."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        strict=True,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        use_attribute_docstrings=True,  # the field docstrings become the schema's descriptions
    )


class Colour(Word):
    """A side of the board. Seats (0, 1) are players; colours are sides, and in
    Abluka a seat's colour changes from game to game."""

    WHITE = "white"
    BLACK = "black"


COLOURS = (Colour.WHITE, Colour.BLACK)
"""The colour of side 0 (White) and side 1 (Black), as the protocol numbers them."""


def colour(side: int) -> Colour:
    """The colour of protocol side ``side`` (0 White, 1 Black)."""
    return COLOURS[side]


class PerColour(JsonModel):
    """A count for each colour (checkers on the bar, borne off, pips ...)."""

    white: int
    black: int

    @classmethod
    def of(cls, pair: tuple[int, int]) -> PerColour:
        """From a pair indexed by side, White first."""
        return cls(white=pair[WHITE], black=pair[BLACK])
