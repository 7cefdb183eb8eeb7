"""Colour allocation, C.04.3 section E, as bbpPairings applies it.

For two paired players, in this order:

1. both preferences granted when they differ (or one player has none) (E.1);
2. otherwise the stronger preference: an absolute one over a weaker one, between two
   absolute ones the wider colour difference; a strong one over a mild one (E.2);
3. otherwise alternate from the most recent round in which the two had different
   colours, each counted over the games he played (E.3);
4. otherwise the higher-ranked player gets his preference (E.4);
5. when neither has a preference, the higher-ranked player gets the first round's colour
   (XXC) if his pairing number is odd, the other colour if it is even (E.5).
"""

from __future__ import annotations

from tavla.tournament.dutch.players import SwissPlayer
from tavla.tournament.history import Colour


def ranks_above(a: SwissPlayer, b: SwissPlayer) -> bool:
    """A.2: more points first, then the smaller pairing number."""
    return (a.score, -a.rank) > (b.score, -b.rank)


def _last_difference(a: SwissPlayer, b: SwissPlayer) -> Colour | None:
    """The colour ``b`` had in the latest round where the two had different colours,
    walking back through each one's own played games; None if there is none."""
    for mine, theirs in zip(reversed(a.colours), reversed(b.colours), strict=False):
        if mine != theirs:
            return theirs
    return None


def _by_preferences(a: SwissPlayer, b: SwissPlayer) -> Colour | None:
    """``a``'s colour as E.1-E.3 decide it, None when they leave it open."""
    want_a, want_b = a.preference, b.preference
    if want_a is None or want_b is None or want_a != want_b:
        if want_a is not None:
            return want_a
        return None if want_b is None else want_b.other
    if a.absolute and (a.imbalance > b.imbalance or not b.absolute):
        return want_a
    if b.absolute and (b.imbalance > a.imbalance or not a.absolute):
        return want_b.other
    if a.strong and not b.strong:
        return want_a
    if b.strong and not a.strong:
        return want_b.other
    return _last_difference(a, b)


def colour_of(a: SwissPlayer, b: SwissPlayer, first_colour: Colour) -> Colour:
    """The colour ``a`` plays against ``b``."""
    decided = _by_preferences(a, b)
    if decided is not None:
        return decided
    higher = a if ranks_above(a, b) else b
    if higher.preference is not None:
        higher_colour = higher.preference
    else:
        higher_colour = first_colour if higher.rank % 2 == 0 else first_colour.other
    return higher_colour if higher is a else higher_colour.other
