"""Standings after any round of any format, from the round history (RULES 11.3): match
points, then Buchholz, Buchholz cut-1, Sonneborn-Berger, direct encounter and sets won.

RULES 11.3 names the tie-breaks and their order; where it is silent this module follows
FIDE's tie-break rules in their 2009 form (the "virtual opponent" of the FIDE Handbook),
which tournament software has long implemented the same way (FIDE's tie-break
regulations of 2023 count unplayed rounds differently; moving to them would change only
``_opponent_weights`` and the ``worth`` of each player in ``standings``):

- Opponents' scores. What a player's Buchholz adds up is each opponent's score with the
  opponent's own unplayed rounds (byes, forfeits, absences) counted as draws: a player
  should not gain or lose tie-break points because his opponent later had a bye or a
  forfeit. This adjusted score is also the one Sonneborn-Berger weighs.
- The player's own unplayed rounds (a bye, a forfeit won or lost, an absence) count as
  a game against a virtual opponent whose score is: the player's points before that
  round, plus the opposite of the player's result in it (1 - points), plus a draw for
  every later round (1/2 each, up to the round the standings are for). In FIDE's words
  S = SPR + (1 - SfPR) + 0.5 * (n - R). The same virtual opponent counts in
  Sonneborn-Berger, weighted by the player's result like any opponent.
- Buchholz cut-1 leaves out the single lowest contribution, a virtual opponent's
  included.
- Direct encounter applies to a group of players equal on points and on the three
  tie-breaks before it. When every pair of the group has met (a forfeit between them
  counts as their result), each player's value is the points scored against the others
  in the group, so a group of three or more is ordered by a mini-table of its own
  games, once (not again inside a sub-group it leaves tied). When some pair has not met,
  direct encounter cannot order the group fairly and gives everyone in it 0: the group
  goes on to sets won.
- Sets won are the Abluka sets (RULES 8.3) recorded with each round; the backgammon
  family records none and ends at direct encounter.
- A player with fewer recorded rounds than the standings ask for was absent from the
  missing ones: no points, unplayed (as the TRF's zero-point bye).

Players equal on every key share a rank (1, 2, 2, 4); they are listed by start number.
All values are exact: match points are halves and results weigh them by 0, 1/2 or 1, so
every sum is a multiple of 1/4 and floats hold it without rounding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from tavla.tournament.history import Entrant, Outcome, RoundEntry, TournamentError

ABSENT = RoundEntry(opponent=None, colour=None, outcome=Outcome.ZERO_BYE)


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    number: int
    name: str
    points: float
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float
    direct_encounter: float
    sets_won: int

    @property
    def key(self) -> tuple[float, float, float, float, float, int]:
        """What the order is decided by, most important first; higher is better."""
        return (
            self.points,
            self.buchholz,
            self.buchholz_cut1,
            self.sonneborn_berger,
            self.direct_encounter,
            self.sets_won,
        )


def standings(entrants: Sequence[Entrant], after_round: int | None = None) -> tuple[Standing, ...]:
    """The standings after round ``after_round`` (default: every recorded round)."""
    rounds = after_round if after_round is not None else max((len(e.rounds) for e in entrants), default=0)
    if rounds < 0:
        raise TournamentError(f"standings after round {rounds}: rounds count from 0")
    history = {e.number: _rounds_up_to(e, rounds) for e in entrants}
    if len(history) != len(entrants):
        raise TournamentError("standings: two entrants share a start number")
    _check_opponents(history)

    points = {n: sum(e.outcome.points for e in entries) for n, entries in history.items()}
    # What each player is worth to his opponents: his unplayed rounds count as draws.
    worth = {
        n: sum(e.outcome.points if e.outcome.played else 0.5 for e in entries)
        for n, entries in history.items()
    }
    partial: dict[int, tuple[float, float, float, float]] = {}
    for number, entries in history.items():
        weights = _opponent_weights(entries, worth, rounds)
        buchholz = sum(weights)
        cut1 = buchholz - min(weights) if weights else 0.0
        berger = sum(w * e.outcome.points for w, e in zip(weights, entries, strict=True))
        partial[number] = (points[number], buchholz, cut1, berger)

    encounter = _direct_encounter(history, partial)
    names = {e.number: e.name for e in entrants}
    lines = [
        Standing(
            rank=0,
            number=n,
            name=names[n],
            points=partial[n][0],
            buchholz=partial[n][1],
            buchholz_cut1=partial[n][2],
            sonneborn_berger=partial[n][3],
            direct_encounter=encounter[n],
            sets_won=sum(e.sets_won for e in history[n]),
        )
        for n in history
    ]
    lines.sort(key=lambda s: (tuple(-k for k in s.key), s.number))
    ranked: list[Standing] = []
    for position, line in enumerate(lines, start=1):
        shared = ranked and ranked[-1].key == line.key
        ranked.append(replace(line, rank=ranked[-1].rank if shared else position))
    return tuple(ranked)


def _rounds_up_to(entrant: Entrant, rounds: int) -> tuple[RoundEntry, ...]:
    entries = entrant.rounds[:rounds]
    return entries + (ABSENT,) * (rounds - len(entries))


def _check_opponents(history: dict[int, tuple[RoundEntry, ...]]) -> None:
    """Each recorded opponent exists and names the player back in the same round."""
    for number, entries in history.items():
        for round_number, entry in enumerate(entries, start=1):
            if entry.opponent is None:
                continue
            back = history.get(entry.opponent)
            if entry.opponent == number or back is None or back[round_number - 1].opponent != number:
                raise TournamentError(
                    f"round {round_number}: player {number}'s opponent {entry.opponent} "
                    f"does not have {number} as opponent"
                )


def _opponent_weights(entries: tuple[RoundEntry, ...], worth: dict[int, float], rounds: int) -> list[float]:
    """Each round's contribution to Buchholz: the opponent's adjusted score, or for an
    unplayed round the virtual opponent's score (see the module docstring)."""
    weights = []
    before = 0.0
    for round_number, entry in enumerate(entries, start=1):
        if entry.outcome.played and entry.opponent is not None:
            weights.append(worth[entry.opponent])
        else:
            weights.append(before + (1.0 - entry.outcome.points) + 0.5 * (rounds - round_number))
        before += entry.outcome.points
    return weights


def _direct_encounter(
    history: dict[int, tuple[RoundEntry, ...]], partial: dict[int, tuple[float, float, float, float]]
) -> dict[int, float]:
    groups: dict[tuple[float, float, float, float], list[int]] = {}
    for number, key in partial.items():
        groups.setdefault(key, []).append(number)
    encounter = dict.fromkeys(history, 0.0)
    for group in groups.values():
        if len(group) < 2:
            continue
        members = set(group)
        met = {frozenset((n, e.opponent)) for n in group for e in history[n] if e.opponent in members}
        if any(frozenset(pair) not in met for pair in combinations(group, 2)):
            continue  # not everyone has met everyone: the tie-break does not apply
        for number in group:
            encounter[number] = sum(e.outcome.points for e in history[number] if e.opponent in members)
    return encounter
