"""The pairing criteria of C.04.3 as fields of an edge weight.

Pairing a bracket is choosing a maximum-weight matching where an edge's weight is a
number whose bit fields, from the most significant down, hold the criteria in their
order of priority: a matching that wins on a higher criterion wins whatever the lower
ones say. Each field is wide enough for its sum over every pair, so fields never carry
into each other. The order follows bbpPairings (the FIDE-endorsed Dutch program):

1. completion and the bye (C.4, C.2): everybody paired, the one left over allowed the bye
2. pairs in the current bracket (C.5), then the scores they pair (C.6, the PSD)
3. the same two for the next bracket (C.7)
4. when the bracket will leave just the bye's receiver: the bye to the player with the
   most games played (fewest unplayed ones, C.9 of the rules as amended in 2025)
5. colours: topscorers beyond ±2 and three in a row (C.8, C.9; only topscorers can
   meet with equal absolute preferences), then preferences (C.10), strong ones (C.11)
6. floats: repeated downfloats and upfloats of the last round, of the round before
   (C.12-C.15), then the scores involved (C.16-C.19)

Fields that only break ties between equally good pairings (the order of transpositions
and exchanges of section D) are added below these by :mod:`tavla.tournament.dutch.brackets`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavla.tournament.dutch.players import Float, SwissPlayer


def compatible(a: SwissPlayer, b: SwissPlayer) -> bool:
    """The absolute criteria C.1 and C.3: no rematch of a played game; two players with
    the same absolute colour preference meet only when one is a topscorer (A.7)."""
    if b.number in a.opponents:
        return False
    same_absolute = a.absolute and b.absolute and a.preference == b.preference
    return not same_absolute or a.topscorer or b.topscorer


def score_shifts(scores: Sequence[int]) -> tuple[dict[int, int], int]:
    """Bit offsets per score, lowest score at offset 0: each score gets room to count
    all its players, so "pairs made at score s" weighs more than any number of pairs
    made at lower scores. Returns the offsets and the total width."""
    sizes: dict[int, int] = {}
    for score in scores:
        sizes[score] = sizes.get(score, 0) + 1
    shifts = {}
    offset = 0
    for score in sorted(sizes):
        shifts[score] = offset
        offset += sizes[score].bit_length()
    return shifts, offset


@dataclass(frozen=True)
class Layout:
    """The widths of the criterion fields for one matching problem of ``vertices``
    players and ``scores_width`` bits of score offsets."""

    vertices: int
    scores_width: int

    @property
    def count_width(self) -> int:
        return (3 * self.vertices + 1).bit_length()

    @property
    def widths(self) -> list[int]:
        count, scores = self.count_width, self.scores_width + 2
        ranks = (self.vertices * self.vertices + 1).bit_length()
        return [count, count, scores, count, scores, ranks] + [count] * 4 + [count] * 4 + [scores] * 4

    @property
    def total_width(self) -> int:
        return sum(self.widths)

    def pack(self, values: Sequence[int]) -> int:
        weight = 0
        for value, width in zip(values, self.widths, strict=True):
            weight = (weight << width) | value
        return weight


def _colour_fields(a: SwissPlayer, b: SwissPlayer) -> list[int]:
    """Four booleans, 1 when the pair keeps the criterion. Only topscorers can meet with
    the same absolute preference; the one with the smaller difference then gives way."""
    same = a.preference is not None and a.preference == b.preference
    beyond_two = not (same and a.imbalance > 1 and b.imbalance > 1)
    if not (same and a.absolute and b.absolute):
        three_in_row = True
    elif a.imbalance == b.imbalance:
        three_in_row = a.repeated is None or a.repeated != b.repeated
    else:
        yielding = b if a.imbalance > b.imbalance else a
        three_in_row = a.preference is not None and yielding.repeated != a.preference.other
    a_wants = a.strong or a.absolute
    b_wants = b.strong or b.absolute
    strong_kept = not (same and a_wants and b_wants and not (a.absolute and b.absolute))
    return [int(beyond_two), int(three_in_row), int(not same), int(strong_kept)]


def _float_fields(high: SwissPlayer, low: SwissPlayer, shifts: dict[int, int]) -> list[int]:
    """For a pair inside the bracket: players who floated down before and are not
    floated down again, players who floated up before and are not floated up again,
    for the last round and the one before; then the same weighted by score."""
    counts: list[int] = []
    weighted: list[int] = []
    floats_up = high.score > low.score
    for back in (0, 1):
        low_down = low.floats[back] is Float.DOWN
        high_down = high.floats[back] is Float.DOWN
        up_again = floats_up and low.floats[back] is Float.UP
        counts += [int(low_down) + int(high_down and not floats_up), int(not up_again)]
        weighted += [
            (int(low_down) << shifts[low.score]) + (int(high_down) << shifts[high.score]),
            0 if up_again else 1 << shifts[high.score],
        ]
    # Field order: down(1), up(1), down(2), up(2), then the four score fields.
    return counts + weighted


def criterion_values(
    high: SwissPlayer,
    low: SwissPlayer,
    *,
    in_bracket: bool,
    in_next: bool,
    completion: int,
    shifts: dict[int, int],
    bye_ranks: int = 0,
) -> list[int]:
    """The field values of the pair (``high`` ranks above ``low``). ``in_bracket``: both
    belong to the bracket being paired; ``in_next``: ``low`` is in the next score group.
    ``completion`` is the top field (0 when completion is checked apart); ``bye_ranks``
    what pairing these two is worth for the choice of the bye (see :func:`bye_ranks`)."""
    values = [completion]
    values += [int(in_bracket), 1 << shifts[high.score] if in_bracket else 0]
    values += [int(in_next), 1 << shifts[high.score] if in_next else 0, bye_ranks]
    if in_bracket:
        values += _colour_fields(high, low) + _float_fields(high, low, shifts)
    else:
        values += [0] * 12
    return values


def bye_ranks(players: Sequence[SwissPlayer], bye_score: int) -> dict[int, int]:
    """Per start number, for the players with the bye's score: the rank of their count
    of played games, fewest played highest. Pairing players of high rank is worth more,
    so the one left for the bye is among those who played the most."""
    counts = sorted((len(p.colours) for p in players if p.score == bye_score), reverse=True)
    rank_of_count = {count: rank for rank, count in enumerate(counts)}
    return {p.number: rank_of_count[len(p.colours)] for p in players if p.score == bye_score}
