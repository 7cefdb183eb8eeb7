"""Round robin by the Berger tables (RULES 11.3): the published rows, and the properties
every table must have for fields up to 20."""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.tournament.history import TournamentError
from tavla.tournament.roundrobin import RoundPairings, RoundRobin, berger_round


def rows(players: int) -> list[str]:
    """Each round of the single round robin as the tables print it: 'white-black ...'."""
    return [
        " ".join(f"{p.white}-{p.black}" for p in berger_round(players, r).pairings)
        for r in range(1, players + players % 2)
    ]


# FIDE Handbook C.05, annex 1 (the Berger tables), copied by hand, first player White.
PUBLISHED = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
}


@pytest.mark.parametrize("players", sorted(PUBLISHED))
def test_the_published_berger_tables(players: int) -> None:
    assert rows(players) == PUBLISHED[players]


@pytest.mark.parametrize("players", [6, 7])
def test_each_round_carries_its_own_number(players: int) -> None:
    # Both an even field and an odd one (whose phantom's partner rests).
    rounds = RoundRobin(players, (1,)).rounds
    assert [berger_round(players, r).round for r in range(1, rounds + 1)] == list(range(1, rounds + 1))


def test_ten_players_spot_rows() -> None:
    table = rows(10)
    assert table[1] == "10-6 7-5 8-4 9-3 1-2"
    assert table[8] == "5-10 6-4 7-3 8-2 9-1"


def test_an_odd_field_uses_the_next_table_and_the_phantom_is_the_bye() -> None:
    # 7 players use the 8-player table; whoever meets 8 rests.
    first = berger_round(7, 1)
    assert first.bye == 1
    assert [(p.white, p.black) for p in first.pairings] == [(2, 7), (3, 6), (4, 5)]
    assert berger_round(7, 2).bye == 5  # 8-5 in the table
    assert berger_round(3, 3).bye == 2  # 2-4 in the 4-player table
    assert RoundRobin(7, (5,)).rounds == 7


def test_double_round_robin_reverses_colours_and_swaps_the_last_two_rounds() -> None:
    double = RoundRobin(6, (3,), cycles=2)
    assert double.rounds == 10
    one = [berger_round(6, r) for r in range(1, 6)]
    assert double.round(4).pairings == one[4].pairings  # rounds 4 and 5 swapped
    assert double.round(5).pairings == one[3].pairings
    assert double.round(6).pairings == tuple(p.reversed() for p in one[0].pairings)
    assert double.round(10).pairings == tuple(p.reversed() for p in one[4].pairings)
    assert double.round(6).round == 6


def test_match_length_per_round_or_one_for_all() -> None:
    assert RoundRobin(4, (5,)).match_length(3) == 5
    assert [RoundRobin(4, (3, 5, 7)).match_length(r) for r in (1, 2, 3)] == [3, 5, 7]
    with pytest.raises(TournamentError, match="one length"):
        RoundRobin(4, (3, 5))
    with pytest.raises(TournamentError, match="positive"):
        RoundRobin(4, (0,))


@pytest.mark.parametrize(
    ("players", "cycles", "round_number"),
    [(1, 1, 1), (4, 1, 0), (4, 1, 4), (4, 2, 7), (4, 3, 1)],
)
def test_impossible_requests_are_refused(players: int, cycles: int, round_number: int) -> None:
    with pytest.raises(TournamentError):
        RoundRobin(players, (1,), cycles).round(round_number)


def colours_by_player(schedule: tuple[RoundPairings, ...]) -> dict[int, str]:
    colours: dict[int, str] = {}
    for round_ in schedule:
        for pairing in round_.pairings:
            colours[pairing.white] = colours.get(pairing.white, "") + "w"
            colours[pairing.black] = colours.get(pairing.black, "") + "b"
    return colours


fields = st.integers(min_value=2, max_value=20)


@settings(max_examples=40)
@given(players=fields, cycles=st.sampled_from([1, 2]))
def test_everyone_meets_everyone_once_per_cycle_and_plays_at_most_once_a_round(
    players: int, cycles: int
) -> None:
    schedule = RoundRobin(players, (1,), cycles).schedule()
    meetings: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for round_ in schedule:
        seated = [n for p in round_.pairings for n in p.players]
        if round_.bye is not None:
            seated.append(round_.bye)
            byes[round_.bye] += 1
        assert sorted(seated) == list(range(1, players + 1))  # each exactly once
        meetings.update(frozenset(p.players) for p in round_.pairings)
    assert meetings == {frozenset(pair): cycles for pair in itertools.combinations(range(1, players + 1), 2)}
    # Byes are fair: an odd field gives every player exactly one per cycle, an even none.
    assert byes == ({n: cycles for n in range(1, players + 1)} if players % 2 else {})


@settings(max_examples=40)
@given(players=fields)
def test_colours_balance_over_a_cycle(players: int) -> None:
    colours = colours_by_player(RoundRobin(players, (1,)).schedule())
    for sequence in colours.values():
        difference = abs(sequence.count("w") - sequence.count("b"))
        # n - 1 games (odd) for an even field: 1 more of one colour; an odd field: equal.
        assert difference == (1 if players % 2 == 0 else 0)


@settings(max_examples=40)
@given(players=st.integers(min_value=4, max_value=20))
def test_a_double_round_robin_never_gives_three_games_in_a_row_with_one_colour(players: int) -> None:
    for sequence in colours_by_player(RoundRobin(players, (1,), cycles=2).schedule()).values():
        assert max(len(run) for run in re.findall("w+|b+", sequence)) <= 2
        assert sequence.count("w") == sequence.count("b")
