"""The benchmark's judge of two pairings (benchmarks/swiss_judge.py, swiss_candidates.py):
the order of section D's candidates, and why a round must be judged bracket by bracket."""

from __future__ import annotations

from benchmarks.swiss_candidates import Exchange, Key, candidate_key, exchange_key
from benchmarks.swiss_judge import brackets, judge, next_bracket_outlook

from tavla.tournament.dutch import RoundPairing
from tavla.tournament.dutch.colours import colour_of
from tavla.tournament.dutch.players import Float, SwissPlayer
from tavla.tournament.history import Colour

W, B = Colour.WHITE, Colour.BLACK
S1_OF_ELEVEN = [1, 2, 3, 4, 5]


def swap(out: list[int], into: list[int]) -> list[int]:
    return [b for b in S1_OF_ELEVEN if b not in out] + into


def test_d2_examples_of_the_rules_sort_exchanges_in_their_order() -> None:
    """C.04.3 D.2's own examples, for an eleven-player bracket (S1 = 1..5)."""

    def key(out: list[int], into: list[int]) -> Exchange:
        return exchange_key(S1_OF_ELEVEN, swap(out, into))

    assert key([], []) < key([5], [6])  # fewest players exchanged first
    assert key([4], [6]) < key([5], [8])  # 6 for 4 before 8 for 5: smaller sum difference
    assert key([4, 3], [8, 6]) < key([4, 2], [9, 8])
    assert key([5, 2], [6, 7]) < key([4, 3], [6, 7])  # equal sums: the higher one out of S1
    assert key([5, 4, 1], [6, 7, 8]) < key([5, 3, 2], [6, 7, 8])
    assert key([5, 4], [6, 9]) < key([5, 4], [7, 8])  # then the lower one into S1


def pairs(*games: tuple[int, int]) -> list[frozenset[int]]:
    return [frozenset(g) for g in games]


def test_d1_transpositions_then_exchanges_in_a_homogeneous_bracket() -> None:
    """Six players: 1-4 2-5 3-6 first, transpositions of S2 in lexicographic order, and
    every transposition before the first exchange."""
    members = (1, 2, 3, 4, 5, 6)

    def key(*games: tuple[int, int]) -> Key:
        return candidate_key(members, frozenset(), pairs(*games))

    first = key((1, 4), (2, 5), (3, 6))
    second = key((1, 4), (2, 6), (3, 5))
    last_transposition = key((1, 6), (2, 5), (3, 4))
    exchange = key((1, 3), (2, 5), (4, 6))
    assert first < second < last_transposition < exchange


def test_heterogeneous_bracket_the_moved_down_players_pairing_comes_first() -> None:
    """The MDP's pairing is the outer loop: 1-2 (S2's first transposition) comes before
    1-3 whatever the remainder does; with 1-2 fixed, the remainder's own order decides."""
    members = (1, 2, 3, 4, 5)

    def key(*games: tuple[int, int]) -> Key:
        return candidate_key(members, frozenset({1}), pairs(*games))

    assert key((1, 2), (3, 5)) < key((1, 3), (2, 4))
    assert key((1, 2), (3, 4)) < key((1, 2), (3, 5))


def player(
    number: int, score: int, colours: tuple[Colour, ...], last_float: Float = Float.NONE
) -> SwissPlayer:
    return SwissPlayer(
        number=number,
        rank=number - 1,
        score=score,
        opponents=frozenset(),
        colours=colours,
        bye_allowed=True,
        floats=(last_float, Float.NONE),
        topscorer=False,
    )


def test_the_first_differing_bracket_decides_not_round_wide_sums() -> None:
    """Top bracket {1, 2, 3} (1 point) pairs one pair and moves one player down; 1 was
    moved down last round. Pairing A keeps 1 up (C.12 kept in the top bracket) and costs
    two colour preferences below; pairing B floats 1 again and costs one. Summed over the
    round B looks better (C.10 comes before C.12), but the top bracket is paired first
    and on its own criteria A wins."""
    players = {
        1: player(1, 2, (W,), Float.DOWN),
        2: player(2, 2, ()),
        3: player(3, 2, (B,)),
        **{n: player(n, 0, (B,)) for n in (4, 5, 6)},
    }
    a = RoundPairing(((1, 2), (3, 4), (5, 6)), None)
    b = RoundPairing(((2, 3), (1, 4), (5, 6)), None)

    def missed(pairing: RoundPairing) -> int:
        total = 0
        for x, y in pairing.games:
            given = colour_of(players[x], players[y], W)
            total += players[x].preference not in (None, given)
            total += players[y].preference not in (None, given.other)
        return total

    assert missed(a) > missed(b)
    assert [len(bracket.pairs) for bracket in brackets(a, players)] == [1, 2]
    verdict = judge(a, b, players, W)
    assert verdict is not None
    assert (verdict.score, verdict.rule, verdict.better) == (2, "C.12 downfloat as last round", "ours")
    reverse = judge(b, a, players, W)
    assert reverse is not None and reverse.better == "oracle"


def test_equal_criteria_fall_to_section_d() -> None:
    """Four players without history: 1-3 2-4 is D.1's first candidate, 1-4 2-3 the second."""
    players = {n: player(n, 0, ()) for n in (1, 2, 3, 4)}
    first = RoundPairing(((1, 3), (2, 4)), None)
    second = RoundPairing(((1, 4), (2, 3)), None)
    verdict = judge(first, second, players, W)
    assert verdict is not None
    assert (verdict.rule, verdict.better) == ("section D candidate order", "ours")
    assert judge(first, first, players, W) is None


def test_c7_outlook_never_pairs_two_players_moved_down_together() -> None:
    """Two downfloaters of one bracket (1 point) and the one resident of the next
    (0 points): one pair, the other floater moved on; pairing the two floaters with
    each other (PSD 0) is no candidate of the next bracket."""
    players = {1: player(1, 2, ()), 2: player(2, 2, ()), 3: player(3, 0, ())}
    assert next_bracket_outlook((1, 2), (3,), players) == (-1, (4, 2))
