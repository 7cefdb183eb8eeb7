"""Pairing the score brackets one after the other, from the top (C.04.3 section C).

Each bracket is settled with at most two maximum-weight matchings. The first (only when
players moved down from above) decides which moved-down players are paired and with
whom; the second pairs the rest, the *remainder*, and with that decides who floats down.
The weight of an edge is the criteria of :mod:`criteria` followed by tie-break fields
that encode the order in which section D generates candidates, so that among equally
good pairings the one D would reach first wins:

* moved-down players: the higher ones are paired first, each with the highest resident
  it can meet;
* remainder: S1 is its first P players where P is the number of pairs it makes; fewest
  exchanges between S1 and S2, then the smallest difference of the exchanged numbers,
  then S1's lowest players exchanged first and S2's highest first (D.2); then each S1
  player, in order, gets the first S2 player it can (the transposition order of D.1).

A bracket is first solved among its own players and the next score group (what C.7 looks
at); if the players left over cannot all be paired any more (C.4), it is solved again
with every remaining player, completion being the weight's top field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tavla.tournament.dutch.criteria import Layout, bye_ranks, compatible, criterion_values, score_shifts
from tavla.tournament.dutch.matching import best_matching, completes
from tavla.tournament.dutch.players import SwissPlayer
from tavla.tournament.history import TournamentError

NO_PAIRING = "no pairing of the round keeps the absolute criteria (no rematch, colours, one bye)"


class NoPairingError(TournamentError):
    """No pairing of the round keeps the absolute criteria (C.1-C.3)."""


TieBreak = Callable[[int, int], int]


@dataclass(frozen=True)
class Bracket:
    moved_down: list[int]
    residents: list[int]
    next_group: list[int]
    lower: list[int]

    @property
    def players(self) -> list[int]:
        return self.moved_down + self.residents


class RoundPairer:
    """Pairs ``players`` (those present) for one round; vertices are indices into
    ``self.order``, the players by score then rank."""

    def __init__(self, players: list[SwissPlayer]) -> None:
        self.order = sorted(players, key=lambda p: (-p.score, p.rank))
        count = len(self.order)
        self.allowed = [[compatible(a, b) for b in self.order] for a in self.order]
        self.shifts, scores_width = score_shifts([p.score for p in self.order])
        self.layout = Layout(count, scores_width)
        self.bye_score = self._bye_score()
        self.bye_ranks = {} if self.bye_score is None else bye_ranks(self.order, self.bye_score)

    def may_sit_out(self, vertex: int) -> bool:
        player = self.order[vertex]
        return self.bye_score is not None and player.bye_allowed and player.score <= self.bye_score

    def can_meet(self, u: int, v: int) -> bool:
        return self.allowed[u][v]

    def _bye_score(self) -> int | None:
        """The score of the bye: the lowest score at which a player allowed the bye can
        be left out while all the others are paired (C.2, C.4). None for an even field."""
        count = len(self.order)
        everybody = list(range(count))
        if count % 2 == 0:
            if count and not completes(everybody, self.can_meet, lambda v: False):
                raise NoPairingError(NO_PAIRING)
            return None
        by_score: dict[int, list[int]] = {}
        for vertex in reversed(everybody):
            if self.order[vertex].bye_allowed:
                by_score.setdefault(self.order[vertex].score, []).append(vertex)
        for score in sorted(by_score):
            for vertex in by_score[score]:
                others = [v for v in everybody if v != vertex]
                if completes(others, self.can_meet, lambda v: False):
                    return score
        raise NoPairingError(NO_PAIRING)

    # -- one matching problem ---------------------------------------------------------

    def _weight(
        self, bracket: Bracket, full: bool, tie: TieBreak, tie_width: int
    ) -> Callable[[int, int], int | None]:
        in_bracket = set(bracket.players)
        in_next = set(bracket.next_group)
        # The bye is settled in this bracket when it is the last one and holds the bye's
        # score (bbpPairings also covers a bye-score group above ineligible players; such
        # fields are left to the other criteria here).
        settles_bye = (
            self.bye_score is not None
            and not bracket.next_group
            and not bracket.lower
            and bool(bracket.residents)
            and self.order[bracket.residents[0]].score == self.bye_score
        )

        def weight(u: int, v: int) -> int | None:
            if not self.allowed[u][v]:
                return None
            completion = 1 + (not self.may_sit_out(u)) + (not self.may_sit_out(v)) if full else 0
            values = criterion_values(
                self.order[u],
                self.order[v],
                in_bracket=v in in_bracket,
                in_next=v in in_next,
                completion=completion,
                shifts=self.shifts,
                bye_ranks=self._bye_rank(u) + self._bye_rank(v) if settles_bye else 0,
            )
            return (self.layout.pack(values) << tie_width) | tie(u, v)

        return weight

    def _bye_rank(self, vertex: int) -> int:
        return self.bye_ranks.get(self.order[vertex].number, 0)

    def _solve(self, bracket: Bracket, tie: TieBreak, tie_width: int) -> dict[int, int]:
        """The best matching of the bracket with the next score group, if the players it
        leaves can still be completed; otherwise the best one over everybody left."""
        local = bracket.players + bracket.next_group
        partner = best_matching(local, self._weight(bracket, False, tie, tie_width))
        left = [v for v in local if v not in partner] + bracket.lower
        if completes(left, self.can_meet, self.may_sit_out):
            return partner
        everybody = local + bracket.lower
        return best_matching(everybody, self._weight(bracket, True, tie, tie_width))

    # -- the two steps of a bracket ----------------------------------------------------

    def _pair_moved_down(self, bracket: Bracket) -> tuple[list[tuple[int, int]], int]:
        """Pairs of moved-down players with residents, and the number of pairs the
        residents make among themselves in the same optimum."""
        moved, residents = bracket.moved_down, bracket.residents
        slot = (len(residents) + 1).bit_length()
        position = {v: i for i, v in enumerate(moved)}
        resident_index = {v: j for j, v in enumerate(residents)}
        preference_width = slot * len(moved)

        def tie(u: int, v: int) -> int:
            if u not in position or v not in resident_index:
                return 0
            i = len(moved) - 1 - position[u]
            paired_first = 1 << i
            highest_resident = (len(residents) - resident_index[v]) << (slot * i)
            return (paired_first << preference_width) | highest_resident

        partner = self._solve(bracket, tie, len(moved) + preference_width)
        pairs = [(u, partner[u]) for u in moved if partner.get(u) in resident_index]
        resident_pairs = sum(1 for v in residents if partner.get(v, -1) in resident_index) // 2
        return pairs, resident_pairs

    def _pair_remainder(
        self, bracket: Bracket, remainder: list[int], pairs_made: int
    ) -> tuple[dict[int, int], int]:
        """The remainder's pairs (leader -> partner), S1 being its first ``pairs_made``
        players, and the number of pairs the optimum really makes there: when the two
        differ, the caller asks again with the right size of S1."""
        size = len(remainder)
        index = {v: a for a, v in enumerate(remainder)}
        s1, s2 = pairs_made, size - pairs_made
        count_width = (size + 1).bit_length()
        sum_width = (size * size + 1).bit_length()
        s1_width = s1 + count_width + 1
        slot = (size + 1).bit_length()
        partner_width = slot * size
        widths = [count_width, sum_width, s1_width, s2, partner_width]

        def tie(u: int, v: int) -> int:
            if u not in index or v not in index:
                return 0
            a, b = index[u], index[v]
            fields = [
                int(a < s1),  # fewest exchanges: leaders taken from S1
                size - a,  # smallest sum of the leaders' numbers
                (1 << s1) - (1 << a) if a < s1 else 1 << s1,  # S1's lowest exchanged first
                1 << (s2 - 1 - (a - s1)) if a >= s1 else 0,  # S2's highest exchanged first
                (size - b) << (slot * (size - 1 - a)),  # each leader's first possible partner
            ]
            packed = 0
            for value, width in zip(fields, widths, strict=True):
                packed = (packed << width) | value
            return packed

        partner = self._solve(bracket, tie, sum(widths))
        leaders = {u: partner[u] for u in remainder if partner.get(u, -1) in index and partner[u] > u}
        return leaders, len(leaders)

    def _pair_bracket(self, bracket: Bracket) -> tuple[list[tuple[int, int]], list[int]]:
        """The bracket's pairs and its downfloaters."""
        pairs: list[tuple[int, int]] = []
        residents = bracket.residents
        if bracket.moved_down:
            pairs, remainder_pairs = self._pair_moved_down(bracket)
            taken = {v for pair in pairs for v in pair}
            remainder = [v for v in residents if v not in taken]
            moved_left = [v for v in bracket.moved_down if v not in taken]
        else:
            # Usually every resident is paired: a first guess, corrected if wrong.
            remainder, moved_left, remainder_pairs = residents, [], len(residents) // 2
        reduced = Bracket(moved_left, remainder, bracket.next_group, bracket.lower)
        leaders, made = self._pair_remainder(reduced, remainder, remainder_pairs)
        if made != remainder_pairs:
            leaders, made = self._pair_remainder(reduced, remainder, made)
        pairs += list(leaders.items())
        paired = {v for pair in pairs for v in pair}
        return pairs, [v for v in bracket.players if v not in paired]

    def pair(self) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], SwissPlayer | None]:
        groups: list[list[int]] = []
        for vertex, player in enumerate(self.order):
            if groups and self.order[groups[-1][0]].score == player.score:
                groups[-1].append(vertex)
            else:
                groups.append([vertex])
        pairs: list[tuple[int, int]] = []
        moved: list[int] = []
        for g, residents in enumerate(groups):
            next_group = groups[g + 1] if g + 1 < len(groups) else []
            lower = [v for group in groups[g + 2 :] for v in group]
            new_pairs, moved = self._pair_bracket(Bracket(moved, residents, next_group, lower))
            pairs += new_pairs
        if len(moved) > 1:
            raise NoPairingError(NO_PAIRING)
        bye = self.order[moved[0]] if moved else None
        return [(self.order[u], self.order[v]) for u, v in pairs], bye
