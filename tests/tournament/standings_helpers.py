"""Round histories written compactly for the standings tests."""

from __future__ import annotations

from collections.abc import Sequence

from tavla.tournament.history import Colour, Entrant, Outcome, RoundEntry

MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}

# One round: games (white, black, white's TRF result[, white's sets, black's sets]) and
# byes (player, TRF code: U, H or Z).
Game = tuple[int, int, str] | tuple[int, int, str, int, int]
Bye = tuple[int, str]


def entrants(players: int, rounds: Sequence[Sequence[Game | Bye]]) -> list[Entrant]:
    entries: dict[int, list[RoundEntry]] = {n: [] for n in range(1, players + 1)}
    for round_ in rounds:
        for item in round_:
            if len(item) == 2:
                player, code = item
                entries[player].append(RoundEntry(None, None, Outcome(code)))
                continue
            white, black, code = item[0], item[1], item[2]
            sets_white, sets_black = (item[3], item[4]) if len(item) == 5 else (0, 0)
            entries[white].append(RoundEntry(black, Colour.WHITE, Outcome(code), sets_white))
            entries[black].append(RoundEntry(white, Colour.BLACK, Outcome(MIRROR[code]), sets_black))
    return [Entrant(n, f"P{n}", rounds=tuple(rs)) for n, rs in entries.items()]
