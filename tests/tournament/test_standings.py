"""Standings and tie-breaks (RULES 11.3): tournaments worked out by hand, and properties
over random round robins."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.tournament.standings_helpers import Game, entrants

from tavla.tournament.history import Entrant, Outcome, RoundEntry, TournamentError
from tavla.tournament.roundrobin import RoundRobin
from tavla.tournament.standings import Standing, standings


def by_number(table: tuple[Standing, ...]) -> dict[int, Standing]:
    return {line.number: line for line in table}


def values(line: Standing) -> tuple[float, float, float, float, float, int]:
    return line.key


def test_sets_won_break_a_cyclic_tie_and_equal_players_share_a_rank() -> None:
    # Berger table for 4, Abluka matches over 3 sets (sets after the code).
    table = standings(
        entrants(
            4,
            [
                [(1, 4, "1", 2, 1), (2, 3, "1", 2, 0)],
                [(4, 3, "1", 2, 1), (1, 2, "0", 1, 2)],
                [(2, 4, "0", 0, 2), (3, 1, "0", 0, 2)],
            ],
        )
    )
    lines = by_number(table)
    # 1, 2 and 4 each won twice: 1 beat 4 and 3, 2 beat 3 and 1, 4 beat 3 and 2.
    # Buchholz: 1: s(4)+s(2)+s(3) = 2+2+0 = 4; 2: 0+2+2 = 4; 4: 2+0+2 = 4.
    # Cut-1 drops player 3's 0: 4 each. Sonneborn-Berger: the beaten opponents' scores,
    # 1: s(4)+s(3) = 2; 2: s(3)+s(1) = 2; 4: s(3)+s(2) = 2.
    # Direct encounter: all three met, each beat one of the others: 1 each.
    # Sets: 1: 2+1+2 = 5; 2: 2+2+0 = 4; 4: 1+2+2 = 5; 3: 0+1+0 = 1.
    assert values(lines[1]) == (2, 4, 4, 2, 1, 5)
    assert values(lines[2]) == (2, 4, 4, 2, 1, 4)
    assert values(lines[4]) == (2, 4, 4, 2, 1, 5)
    assert values(lines[3]) == (0, 6, 4, 0, 0, 1)  # Buchholz 2+2+2, cut-1 drops a 2
    assert [(line.rank, line.number) for line in table] == [(1, 1), (1, 4), (3, 2), (4, 3)]


def test_byes_and_forfeits_count_with_a_virtual_opponent() -> None:
    table = standings(
        entrants(
            5,
            [
                [(1, 2, "1"), (3, 4, "="), (5, "U")],
                [(5, 1, "1"), (2, 3, "+"), (4, "U")],
                [(1, 4, "1"), (5, 2, "="), (3, "U")],
            ],
        )
    )
    lines = by_number(table)
    # Points: 1: 1+0+1 = 2; 2: 0+1+1/2 = 1.5; 3: 1/2+0+1 = 1.5; 4: 1/2+1+0 = 1.5;
    # 5: 1+1+1/2 = 2.5.
    # Worth to opponents (own unplayed rounds as draws): 1: 2; 2: 0+1/2+1/2 = 1;
    # 3: 1/2+1/2+1/2 = 1.5; 4: 1/2+1/2+0 = 1; 5: 1/2+1+1/2 = 2.
    # A virtual opponent: points before the round + (1 - result) + 1/2 per later round.
    # 1: opponents 2, 5, 4 -> 1+2+1 = 4; cut-1 4-1 = 3; SB 1*1 + 0*2 + 1*1 = 2.
    assert values(lines[1]) == (2, 4, 3, 2, 0, 0)
    # 2: 1 (2), forfeit win in round 2 (virtual 0+0+1/2 = 0.5), 5 (2) -> 4.5;
    #    cut-1 4.5-0.5 = 4; SB 0*2 + 1*0.5 + 1/2*2 = 1.5.
    assert values(lines[2]) == (1.5, 4.5, 4, 1.5, 0, 0)
    # 3: 4 (1), forfeit loss in round 2 (virtual 1/2+1+1/2 = 2), bye in round 3
    #    (virtual 1/2+0+0 = 0.5) -> 3.5; cut-1 3; SB 1/2*1 + 0*2 + 1*0.5 = 1.
    assert values(lines[3]) == (1.5, 3.5, 3, 1, 0, 0)
    # 4: 3 (1.5), bye in round 2 (virtual 1/2+0+1/2 = 1), 1 (2) -> 4.5; cut-1 3.5;
    #    SB 1/2*1.5 + 1*1 + 0*2 = 1.75.
    assert values(lines[4]) == (1.5, 4.5, 3.5, 1.75, 0, 0)
    # 5: bye in round 1 (virtual 0+0+1 = 1), 1 (2), 2 (1) -> 4; cut-1 3;
    #    SB 1*1 + 1*2 + 1/2*1 = 3.5.
    assert values(lines[5]) == (2.5, 4, 3, 3.5, 0, 0)
    # 2 and 4 are level on Buchholz; cut-1 puts 2 first.
    assert [line.number for line in table] == [5, 1, 2, 4, 3]
    assert [line.rank for line in table] == [1, 2, 3, 4, 5]


def test_direct_encounter_decides_before_sets() -> None:
    # Berger table for 4; 4 wins the event, 1 and 2 are level on everything before
    # direct encounter, and 1 beat 2. 2 won more sets, which must not matter.
    games: list[list[Game]] = [
        [(1, 4, "0", 0, 2), (2, 3, "1", 2, 1)],
        [(4, 3, "1", 2, 0), (1, 2, "1", 2, 1)],
        [(2, 4, "=", 1, 1), (3, 1, "=", 1, 1)],
    ]
    lines = by_number(table := standings(entrants(4, list(games))))
    # Points: 1: 0+1+1/2 = 1.5; 2: 1+0+1/2 = 1.5; 3: 0+0+1/2 = 0.5; 4: 1+1+1/2 = 2.5.
    # Buchholz 1: s(4)+s(2)+s(3) = 2.5+1.5+0.5 = 4.5; 2: s(3)+s(1)+s(4) = 4.5.
    # Cut-1 both drop s(3): 4. SB 1: 1*1.5 (beat 2) + 1/2*0.5 (drew 3) = 1.75;
    # 2: 1*0.5 (beat 3) + 1/2*2.5 (drew 4) = 1.75. Direct encounter: 1 beat 2.
    assert values(lines[1]) == (1.5, 4.5, 4, 1.75, 1, 3)
    assert values(lines[2]) == (1.5, 4.5, 4, 1.75, 0, 4)
    assert [line.number for line in table] == [4, 1, 2, 3]


def test_direct_encounter_does_not_apply_when_some_of_the_group_never_met() -> None:
    # Six players, three Swiss rounds. 1, 2, 3 and 4 end on one point each and level
    # on every tie-break before direct encounter, but 1 never met 4.
    table = standings(
        entrants(
            6,
            [
                [(1, 2, "1", 2, 0), (3, 5, "0", 1, 2), (4, 6, "0", 0, 2)],
                [(1, 3, "0", 1, 2), (2, 4, "1", 2, 1), (5, 6, "=")],
                [(1, 5, "0", 0, 2), (2, 6, "0", 1, 2), (3, 4, "0", 0, 2)],
            ],
        )
    )
    lines = by_number(table)
    # Scores: 1, 2, 3, 4: 1 each; 5: 1+1/2+1 = 2.5; 6: 1+1/2+1 = 2.5.
    # Buchholz 1: s(2)+s(3)+s(5) = 1+1+2.5 = 4.5; 2: s(1)+s(4)+s(6) = 4.5;
    # 3: s(5)+s(1)+s(4) = 4.5; 4: s(6)+s(2)+s(3) = 4.5. Cut-1 drops a 1: 3.5 each.
    # SB: 1: s(2) = 1; 2: s(4) = 1; 3: s(1) = 1; 4: s(3) = 1.
    # Direct encounter would be 1: 1, 2: 1, 3: 1, 4: 1 if all had met; it is 0.
    # Sets: 1: 2+1+0 = 3; 2: 0+2+1 = 3; 3: 1+2+0 = 3; 4: 0+1+2 = 3... all 3.
    for number in (1, 2, 3, 4):
        assert values(lines[number]) == (1, 4.5, 3.5, 1, 0, 3)
    assert [(line.rank, line.number) for line in table][2:] == [(3, 1), (3, 2), (3, 3), (3, 4)]


def test_standings_after_an_earlier_round_and_absences() -> None:
    players = entrants(3, [[(1, 2, "1"), (3, "U")], [(2, 3, "1"), (1, "U")]])
    after_one = by_number(standings(players, after_round=1))
    assert (after_one[1].points, after_one[2].points, after_one[3].points) == (1, 0, 1)
    # 3's bye in round 1 of 1: virtual opponent 0 + (1 - 1) + 0 = 0.
    assert after_one[3].buchholz == 0
    # After round 3, nobody has played it: an absence, no points, a virtual opponent
    # of (points so far) + 1.
    after_three = by_number(standings(players, after_round=3))
    assert after_three[1].points == 2
    # 1: opponent 2 (worth 1 + 1/2 for the absence = 1.5), bye in round 2 (virtual
    # 1 + 0 + 1/2 = 1.5), absence in round 3 (virtual 2 + 1 + 0 = 3).
    assert after_three[1].buchholz == 1.5 + 1.5 + 3
    assert standings(players, after_round=0)[0].key == (0, 0, 0, 0, 0, 0)


def test_inconsistent_histories_are_refused() -> None:
    lone = Entrant(1, "A", rounds=(RoundEntry(2, None, Outcome.WIN),))
    with pytest.raises(TournamentError, match="opponent 2"):
        standings([lone])
    other = Entrant(2, "B", rounds=(RoundEntry(3, None, Outcome.LOSS),))
    with pytest.raises(TournamentError, match="opponent 2"):
        standings([lone, other])
    with pytest.raises(TournamentError, match="share"):
        standings([Entrant(1, "A"), Entrant(1, "B")])


def random_round_robin(players: int, rounds: int, seed: int, forfeits: bool) -> list[Entrant]:
    """A round robin's first ``rounds`` rounds with random results; rests are zero-point
    byes; with ``forfeits`` some games are forfeited."""
    choose = random.Random(seed)
    codes = ["1", "0", "="] + (["+", "-"] if forfeits else [])
    played: list[list[Game | tuple[int, str]]] = []
    for round_ in RoundRobin(players, (1,)).schedule()[:rounds]:
        games: list[Game | tuple[int, str]] = [
            (p.white, p.black, choose.choice(codes), choose.randint(0, 2), choose.randint(0, 2))
            for p in round_.pairings
        ]
        if round_.bye is not None:
            games.append((round_.bye, "Z"))
        played.append(games)
    return entrants(players, played)


tournaments = st.tuples(
    st.integers(min_value=2, max_value=12),
    st.integers(min_value=0, max_value=11),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)


@settings(max_examples=60)
@given(tournaments)
def test_the_order_follows_the_keys_and_ranks_are_shared_only_by_equals(
    tournament: tuple[int, int, int, bool],
) -> None:
    players, rounds, seed, forfeits = tournament
    history = random_round_robin(players, min(rounds, players + players % 2 - 1), seed, forfeits)
    table = standings(history)
    assert sorted(line.number for line in table) == list(range(1, players + 1))
    for position, (above, below) in enumerate(itertools.pairwise(table), start=2):
        assert above.key >= below.key
        if above.key == below.key:
            assert above.rank == below.rank and above.number < below.number
        else:
            assert below.rank == position
    for line in table:
        assert line.buchholz_cut1 <= line.buchholz
        assert line.rank == 1 + sum(other.key > line.key for other in table)


@settings(max_examples=60)
@given(tournaments)
def test_without_byes_or_forfeits_buchholz_is_the_sum_of_the_opponents_scores(
    tournament: tuple[int, int, int, bool],
) -> None:
    players, rounds, seed, _ = tournament
    players += players % 2  # an even field: no rests
    history = random_round_robin(players, min(rounds, players - 1), seed, forfeits=False)
    score = {e.number: e.points for e in history}
    lines = by_number(standings(history))
    assert sum(score.values()) == len(history) // 2 * min(rounds, players - 1)
    for entrant in history:
        line = lines[entrant.number]
        opponents = [score[e.opponent] for e in entrant.rounds if e.opponent is not None]
        assert line.points == entrant.points
        assert line.buchholz == sum(opponents)
        assert line.buchholz_cut1 == (sum(opponents) - min(opponents) if opponents else 0)
        assert line.sonneborn_berger == sum(
            score[e.opponent] * e.outcome.points for e in entrant.rounds if e.opponent is not None
        )
        assert line.sets_won == sum(e.sets_won for e in entrant.rounds)


@settings(max_examples=40)
@given(tournaments)
def test_standings_after_a_round_ignore_the_later_rounds(tournament: tuple[int, int, int, bool]) -> None:
    players, rounds, seed, forfeits = tournament
    rounds = min(rounds, players + players % 2 - 1)
    history = random_round_robin(players, rounds, seed, forfeits)
    earlier = max(rounds - 1, 0)
    cut = [Entrant(e.number, e.name, e.rating, e.rounds[:earlier]) for e in history]
    assert standings(history, after_round=earlier) == standings(cut)
