"""Single elimination (RULES 11.3): the seeded bracket, byes to the top seeds, a match
length per round, and random play-outs that must always end with one champion."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.tournament.history import TournamentError
from tavla.tournament.knockout import Knockout, seeding_order


def play_out(bracket: Knockout, choose: random.Random | None = None) -> Knockout:
    """Play every match; the better seed wins unless ``choose`` picks at random."""
    while ready := bracket.ready_matches():
        match = ready[0]
        players = list(match.players)
        winner = choose.choice(players) if choose else min(players)
        bracket = bracket.record(match.round, match.index, winner)
    return bracket


def test_the_standard_seeding_order() -> None:
    assert seeding_order(2) == (1, 2)
    assert seeding_order(4) == (1, 4, 2, 3)
    assert seeding_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert seeding_order(16)[:8] == (1, 16, 8, 9, 4, 13, 5, 12)
    assert seeding_order(1) == (1,)  # 2**0: a bracket of one slot is its own winner
    for size in (0, 6, -4):
        with pytest.raises(TournamentError, match=f"bracket of {size} slots: must be a power of two"):
            seeding_order(size)


def test_six_players_byes_go_to_seeds_one_and_two() -> None:
    bracket = Knockout(6, (5, 7, 11))
    first = bracket.round(1)
    # Slots 1 8 | 4 5 | 2 7 | 3 6: 7 and 8 are missing, so 1 and 2 have byes.
    assert [(m.top, m.bottom, m.is_bye, m.winner) for m in first] == [
        (1, None, True, 1),
        (4, 5, False, None),
        (2, None, True, 2),
        (3, 6, False, None),
    ]
    assert [m.length for m in first] == [5, 5, 5, 5]
    assert bracket.match_length(2) == 7 and bracket.match_length(3) == 11
    assert [(m.round, m.index) for m in bracket.ready_matches()] == [(1, 1), (1, 3)]
    # Round 2: 1 waits for the winner of 4-5.
    assert (bracket.match(2, 0).top, bracket.match(2, 0).bottom) == (1, None)
    bracket = bracket.record(1, 1, 5)
    assert (bracket.match(2, 0).top, bracket.match(2, 0).bottom) == (1, 5)
    assert bracket.match(2, 0).ready
    assert bracket.current_round == 1
    # A match past the round's end names how many the round has (round 2 of 8 slots: 2).
    with pytest.raises(TournamentError, match=r"^match 2 of round 2: the round has 2$"):
        bracket.match(2, 2)
    bracket = bracket.record(1, 3, 3).record(2, 0, 5).record(2, 1, 3)
    assert bracket.current_round == 3
    bracket = bracket.record(3, 0, 3)
    assert bracket.champion == 3 and bracket.current_round is None
    assert bracket.eliminated_in(1) == 2 and bracket.eliminated_in(4) == 1
    assert bracket.eliminated_in(3) is None


def test_results_are_new_values_and_bad_results_are_refused() -> None:
    bracket = Knockout(4, (3,))
    after = bracket.record(1, 0, 4)
    assert bracket.match(1, 0).winner is None and after.match(1, 0).winner == 4
    with pytest.raises(TournamentError, match="is decided"):
        after.record(1, 0, 1)
    with pytest.raises(TournamentError, match="not one of"):
        bracket.record(1, 1, 1)
    with pytest.raises(TournamentError, match="waits"):
        bracket.record(2, 0, 1)
    with pytest.raises(TournamentError, match="is decided"):
        Knockout(3, (3,)).record(1, 0, 1)  # seed 1's bye
    with pytest.raises(TournamentError):
        Knockout(1, (3,))
    with pytest.raises(TournamentError):
        Knockout(8, (3, 5))
    # A stored bracket is checked when it is read back.
    assert Knockout(4, (3,), after.winners) == after
    with pytest.raises(TournamentError, match="not one of"):
        Knockout(4, (3,), ((4, None), (1,)))
    with pytest.raises(TournamentError, match="not one of"):
        Knockout(3, (3,), ((None, 2), (None,)))  # seed 1's bye not given to him
    with pytest.raises(TournamentError, match="do not fit"):
        Knockout(4, (3,), ((None,), (None,)))


def test_when_favourites_win_the_final_is_one_against_two() -> None:
    bracket = play_out(Knockout(16, (1,)))
    assert sorted(bracket.match(4, 0).players) == [1, 2]
    assert sorted(sorted(m.players) for m in bracket.round(3)) == [[1, 4], [2, 3]]
    assert bracket.champion == 1


fields = st.integers(min_value=2, max_value=40)


@settings(max_examples=60)
@given(players=fields, seed=st.integers(0, 2**32 - 1))
def test_random_play_outs(players: int, seed: int) -> None:
    bracket = play_out(Knockout(players, (1,)), random.Random(seed))
    assert bracket.rounds == math.ceil(math.log2(players))
    size = 2**bracket.rounds
    byes = [m for r in range(1, bracket.rounds + 1) for m in bracket.round(r) if m.is_bye]
    # Byes only in round 1, one for each missing seed, given to the top seeds.
    assert all(m.round == 1 for m in byes)
    assert sorted(m.top for m in byes if m.top is not None) == list(range(1, size - players + 1))
    alive = set(range(1, players + 1))
    for round_number in range(1, bracket.rounds + 1):
        seated = [p for m in bracket.round(round_number) for p in m.players]
        assert len(seated) == len(set(seated)) == len(alive)  # everyone left, once each
        assert set(seated) == alive
        for match in bracket.round(round_number):
            if len(match.players) == 2:
                # The best 2^(k-r) seeds are in different blocks of 2^r: two seeds meet
                # in round r only if the weaker is not among them (1 and 2: final only).
                assert max(match.players) > size >> round_number
                alive.discard(next(p for p in match.players if p != match.winner))
    assert alive == {bracket.champion}
    assert [bracket.eliminated_in(p) is None for p in range(1, players + 1)].count(True) == 1


@settings(max_examples=30)
@given(players=fields)
def test_favourites_meet_their_mirror_seed_in_every_round(players: int) -> None:
    bracket = play_out(Knockout(players, (1,)))
    size = 2**bracket.rounds
    for round_number in range(1, bracket.rounds + 1):
        left = size >> (round_number - 1)  # seeds still in when favourites always win
        for match in bracket.round(round_number):
            top = match.top
            assert top is not None and top <= left
            mirror = left + 1 - top
            assert match.bottom == (mirror if mirror <= players else None)
    assert bracket.champion == 1
