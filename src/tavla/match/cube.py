"""The doubling cube as a small state machine (RULES.md 9.2).

The cube knows its value, its owner and a pending offer; it checks the rules that
concern the cube alone (who may double, who answers, the 64 cap, beavers and
raccoons when enabled). The match adds the rules of the moment: only before rolling,
not in the Crawford game, not before the starter's first roll of game 2+.

States and transitions (``d`` is the doubler, ``o`` the other player):

===================  ===========  ==========================  ==============================
state                action       allowed when                next state
===================  ===========  ==========================  ==============================
centred / owned      double(d)    owner is None or d,         offer(d, value x2)
                                  value x2 <= 64
offer(d)             take(o)                                  value x2, owner o
offer(d)             drop(o)                                  game over, d wins value
offer(d)             beaver(o)    beavers on, value x4 <= 64  value x4, owner o; if raccoons
                                                              on and value x8 <= 64:
                                                              beavered(d) else settled
beavered(d)          raccoon(d)   (raccoons on)               value x8, owner o, settled
beavered(d)          (d rolls)                                settled, value x4
===================  ===========  ==========================  ==============================
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tavla.core.words import Word
from tavla.match.errors import CubeError

CUBE_CAP = 64


class OfferKind(Word):
    """What a pending cube decision is."""

    DOUBLE = "double"
    """A double waits for the other player's answer."""
    BEAVER = "beaver"
    """A beaver leaves the doubler the chance to raccoon before he rolls."""


@dataclass(frozen=True)
class CubeOffer:
    """A pending cube decision and the seat that made it."""

    kind: OfferKind
    by: int


@dataclass(frozen=True)
class Cube:
    """The cube's value, its owner (``None``: in the middle) and a pending offer."""

    value: int = 1
    owner: int | None = None
    offer: CubeOffer | None = None

    @property
    def turned(self) -> bool:
        """True once the cube has left 1 (Jacoby, RULES.md 9.2)."""
        return self.value > 1

    def double_error(self, seat: int) -> str | None:
        """Why ``seat`` may not double now as far as the cube is concerned, or None."""
        if self.offer is not None:
            return "a cube decision is pending"
        if self.owner is not None and self.owner != seat:
            return "the opponent owns the cube"
        if self.value * 2 > CUBE_CAP:
            return f"the cube is at {self.value}: it stops at {CUBE_CAP}"
        return None

    def double(self, seat: int) -> Cube:
        reason = self.double_error(seat)
        if reason is not None:
            raise CubeError(f"player {seat} cannot double: {reason}")
        return replace(self, offer=CubeOffer(OfferKind.DOUBLE, seat))

    def _answerer(self, seat: int, action: str) -> CubeOffer:
        offer = self.offer
        if offer is None or offer.kind != "double":
            raise CubeError(f"player {seat} cannot {action}: no double is offered")
        if seat == offer.by:
            raise CubeError(f"player {seat} cannot {action} his own double")
        return offer

    def take(self, seat: int) -> Cube:
        self._answerer(seat, "take")
        return Cube(self.value * 2, seat, None)

    def drop_points(self, seat: int) -> int:
        """What dropping costs ``seat`` (the value before the double); checks it is his to drop."""
        self._answerer(seat, "drop")
        return self.value

    def beaver(self, seat: int, *, raccoons: bool) -> Cube:
        offer = self._answerer(seat, "beaver")
        if self.value * 4 > CUBE_CAP:
            raise CubeError(f"player {seat} cannot beaver: the cube would pass {CUBE_CAP}")
        keeps_window = raccoons and self.value * 8 <= CUBE_CAP
        return Cube(self.value * 4, seat, CubeOffer(OfferKind.BEAVER, offer.by) if keeps_window else None)

    def raccoon(self, seat: int) -> Cube:
        offer = self.offer
        if offer is None or offer.kind != "beaver":
            raise CubeError(f"player {seat} cannot raccoon: no beaver to answer")
        if seat != offer.by:
            raise CubeError(f"player {seat} cannot raccoon: only the doubler answers a beaver")
        return Cube(self.value * 2, self.owner, None)

    def settle(self) -> Cube:
        """Close a raccoon window (the doubler rolls instead)."""
        return replace(self, offer=None) if self.offer is not None and self.offer.kind == "beaver" else self

    def to_json(self) -> dict[str, Any]:
        offer = None if self.offer is None else {"kind": self.offer.kind, "by": self.offer.by}
        return {"value": self.value, "owner": self.owner, "offer": offer}
