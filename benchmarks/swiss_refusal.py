"""Checking a refused round: when our engine finds no pairing, is there really none?

:func:`complete_pairing` searches every pairing of the players present by brute force
(each player in turn, lowest start number first, against each partner the absolute
criteria allow, with the sets of players already paired remembered), apart from the
engine's matching code. Late rounds of the random tournaments refuse only in small
fields, where the search is immediate.
"""

from __future__ import annotations

from functools import cache

from tavla.tournament.dutch.criteria import compatible
from tavla.tournament.dutch.players import SwissPlayer


def complete_pairing(players: list[SwissPlayer]) -> list[tuple[int, int]] | None:
    """Pairs (start numbers) that pair everybody but at most one player allowed the bye
    and keep C.1-C.3, or None when there is none."""
    count = len(players)
    can_meet = [[compatible(a, b) for b in players] for a in players]

    @cache
    def pairs_of(left: int) -> tuple[tuple[int, int], ...] | None:
        if left == 0:
            return ()
        u = (left & -left).bit_length() - 1
        rest = left & ~(1 << u)
        for v in range(u + 1, count):
            if rest >> v & 1 and can_meet[u][v]:
                found = pairs_of(rest & ~(1 << v))
                if found is not None:
                    return ((u, v), *found)
        return None

    everybody = (1 << count) - 1
    sitting_out = [None] if count % 2 == 0 else [i for i, p in enumerate(players) if p.bye_allowed]
    for bye in sitting_out:
        found = pairs_of(everybody if bye is None else everybody & ~(1 << bye))
        if found is not None:
            return [(players[u].number, players[v].number) for u, v in found]
    return None
