"""The encoder interface, the registry by position class, and Tesauro's count units."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from tavla.core.errors import TavlaError

Features = npt.NDArray[np.float32]
States = npt.NDArray[np.int8]
"""Mover states (tapa, gulbara: see their ``movegen``), one row of small integers each."""
P = TypeVar("P")

UNITS = 4
"""Units per count, after TD-Gammon: at least 1, at least 2, at least 3, (n - 3) / 2 above 3."""
BOTH_UNIT_NAMES = (
    "mine>=1",
    "mine>=2",
    "mine>=3",
    "mine_spare",
    "theirs>=1",
    "theirs>=2",
    "theirs>=3",
    "theirs_spare",
)
"""Names of the eight units of :func:`signed_count_table`'s rows."""


def count_units(count: int) -> tuple[float, float, float, float]:
    """TD-Gammon's four units for ``count`` checkers of one player on one point.

    The first three say whether the point is taken, made, and has a spare; the
    fourth grows with the spares beyond that, so a point of 15 is still told apart.
    """
    return (
        float(count >= 1),
        float(count >= 2),
        float(count >= 3),
        (count - 3) / 2 if count > 3 else 0.0,
    )


def signed_count_table() -> Features:
    """Units of both players for a signed point count, indexed by the count as a byte.

    Row ``v & 0xFF`` holds the mover's four units for ``v > 0`` then the opponent's
    four for ``v < 0``: reading a board of int8 counts as uint8 bytes picks the row
    directly, so a whole array of boards is encoded by one gather, no arithmetic.
    """
    table = np.zeros((256, 2 * UNITS), dtype=np.float32)
    for value in range(-127, 128):
        if value > 0:
            table[value & 0xFF, :UNITS] = count_units(value)
        elif value < 0:
            table[value & 0xFF, UNITS:] = count_units(-value)
    return table


class Encoder(Generic[P]):
    """One game's encoding: ``size`` features per position, float32.

    ``encode(position, player)`` sees ``position`` from ``player``'s side: "mine"
    in the feature names is ``player``'s, points are numbered as ``player`` counts
    them. :mod:`tavla.bots.afterstates` encodes each position after a turn from
    the side of the player who just moved.
    """

    size: ClassVar[int]
    names: ClassVar[tuple[str, ...]]
    """One short name per feature, in order (documented in ``docs/features.md``)."""

    def encode(self, position: P, player: int) -> Features:
        row: Features = self.encode_many([position], player)[0]
        return row

    def encode_many(self, positions: Sequence[P], player: int) -> Features:
        """One row per position, all seen from ``player``'s side."""
        raise NotImplementedError

    def encode_after_states(self, origin: P, states: States, dice_played: int) -> Features:
        """The rows of the positions ``origin.after_turn(state, dice_played)`` for each
        row of ``states`` (mover states, as the compiled generators list them), seen by
        the mover: what ``encode_many`` gives for those positions. An encoder may read
        the states directly instead of building each position."""
        position: Any = origin  # a dice game's position (this interface knows no rules)
        positions = [position.after_turn(tuple(row), dice_played) for row in states.tolist()]
        return self.encode_many(positions, position.side)


_ENCODERS: dict[type, Encoder[Any]] = {}


def mover_states(positions: Sequence[Any], player: int, width: int) -> States:
    """The framework's search states of ``positions`` with ``player`` as the mover, one
    row of ``width`` small integers each (tapa, gulbara: see their ``movegen``)."""
    rows = [p.mover_state() if p.side == player else p.with_side(player).mover_state() for p in positions]
    return np.array(rows, dtype=np.int8).reshape(len(positions), width)


def register_encoder(position_class: type, encoder: Encoder[Any]) -> None:
    """Use ``encoder`` for ``position_class`` and its subclasses (unless they have their own)."""
    if len(encoder.names) != encoder.size:
        raise ValueError(f"{type(encoder).__name__}: {len(encoder.names)} names for {encoder.size} features")
    _ENCODERS[position_class] = encoder


def encoder_for(position: object) -> Encoder[Any]:
    """The encoder of a position's game (a position or a position class)."""
    cls = position if isinstance(position, type) else type(position)
    for base in cls.__mro__:
        found = _ENCODERS.get(base)
        if found is not None:
            return found
    raise TavlaError(f"no feature encoding for {getattr(cls, 'game', cls.__name__)}")


def point_names(prefix: str, units: Sequence[str]) -> tuple[str, ...]:
    """``prefix`` + point + unit, points 1-24 then units: the names of a point block."""
    return tuple(f"{prefix}{point}.{unit}" for point in range(1, 25) for unit in units)
