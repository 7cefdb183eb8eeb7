"""Stake, fee and prize arithmetic (RULES 12) in integer cents."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavla.ledger import stakes
from tavla.ledger.errors import AmountError
from tavla.ledger.stakes import GameStake, MatchStake, distribute, fee_cents, payout, prize_pool_cents


def test_the_module_examples_run_as_written() -> None:
    failures, attempted = doctest.testmod(stakes)
    assert attempted >= 4 and failures == 0


@pytest.mark.parametrize(
    ("points", "final"),
    [(1, 200), (2, 400), (3, 500), (4, 500), (6, 500), (192, 500)],
)
def test_final_stake_is_the_initial_stake_times_points_up_to_the_maximum(points: int, final: int) -> None:
    assert GameStake(200, 500).final_cents(points) == final


def test_a_maximum_equal_to_the_initial_stake_caps_at_one_point() -> None:
    assert GameStake(300, 300).final_cents(3) == 300


def test_a_match_stake_is_fixed_whatever_the_points() -> None:
    terms = MatchStake(1000)
    assert terms.reserve_cents == 1000
    assert {terms.final_cents(points) for points in (1, 2, 3, 7)} == {1000}
    split = payout(terms, 5)
    assert (split.pot_cents, split.fee_cents, split.winner_cents, split.loser_cents) == (2000, 100, 1900, 0)


@pytest.mark.parametrize(
    ("pot", "fee"),
    [
        (0, 0),
        (9, 0),  # 0.45 cent rounds down
        (10, 1),  # exactly half a cent: up
        (19, 1),  # 0.95 cent rounds up
        (210, 11),  # a stake of 1.05 each: 10.5 cents, up
        (230, 12),  # 11.5 cents, up (banker's rounding would give 12 here but 10 above)
        (1000, 50),
        (1010, 51),  # 50.5 cents, up
        (1030, 52),  # 51.5 cents, up
    ],
)
def test_the_fee_is_five_percent_to_the_nearest_cent_half_up(pot: int, fee: int) -> None:
    assert fee_cents(pot) == fee


@given(st.integers(min_value=0, max_value=10**12))
def test_the_fee_is_within_half_a_cent_of_five_percent(pot: int) -> None:
    fee = fee_cents(pot)
    assert abs(20 * fee - pot) <= 10  # |fee - pot/20| <= 1/2
    if (pot * 500) % 10_000 == 5_000:
        assert 20 * fee > pot  # an exact half goes up


@given(st.integers(1, 100_000), st.integers(0, 100_000), st.integers(1, 200))
def test_a_payout_hands_out_both_reservations_exactly(initial: int, extra: int, points: int) -> None:
    terms = GameStake(initial, initial + extra)
    split = payout(terms, points)
    assert split.winner_cents + split.loser_cents + split.fee_cents == 2 * terms.reserve_cents
    assert split.loser_cents >= 0 and split.fee_cents <= split.final_stake_cents
    assert split.final_stake_cents == min(initial * points, initial + extra)


@pytest.mark.parametrize(
    "bad",
    [
        lambda: GameStake(0, 100),
        lambda: GameStake(200, 100),
        lambda: GameStake(True, 100),  # a bool is not a number of cents
        lambda: MatchStake(-5),
        lambda: GameStake(100, 200).final_cents(0),
        lambda: fee_cents(-1),
        lambda: distribute(100, []),
        lambda: distribute(100, [0, 0]),
        lambda: distribute(100, [50, -1]),
    ],
)
def test_impossible_terms_are_refused_with_an_amount_error(bad: object) -> None:
    with pytest.raises(AmountError):
        bad()  # type: ignore[operator]


def test_the_pool_is_every_entry_fee_plus_the_sponsors() -> None:
    assert prize_pool_cents(entry_fee_cents=2500, entrants=16, sponsor_cents=10_000) == 50_000


def test_prizes_by_shares_with_the_remainders_to_the_better_places() -> None:
    assert distribute(50_000, [50, 30, 20]) == (25_000, 15_000, 10_000)
    assert distribute(10, [1, 1, 1]) == (4, 3, 3)
    assert distribute(11, [1, 1, 1]) == (4, 4, 3)
    assert distribute(7, [1, 0, 1]) == (4, 0, 3)
    # 333.3, 333.3, 333.3 of 1000 and 1 left: the first place; 0.6 beats 0.3 of an earlier place.
    assert distribute(1000, [1, 1, 1]) == (334, 333, 333)
    assert distribute(100, [3, 7]) == (30, 70)
    assert distribute(101, [30, 70]) == (30, 71)  # 30.3 and 70.7: the larger remainder wins


@given(st.integers(0, 10**9), st.lists(st.integers(0, 1000), min_size=1, max_size=12))
def test_prizes_sum_to_the_pool_and_each_is_within_a_cent_of_its_share(pool: int, shares: list[int]) -> None:
    if sum(shares) == 0:
        shares[0] = 1
    prizes = distribute(pool, shares)
    assert sum(prizes) == pool
    total = sum(shares)
    for prize, share in zip(prizes, shares, strict=True):
        assert abs(prize * total - pool * share) < total  # |prize - exact share| < 1 cent
        if share == 0:
            assert prize == 0
    assert distribute(pool, shares) == prizes  # deterministic


def test_the_examples_in_docs_ledger_run_as_written() -> None:
    page = Path(__file__).parent.parent.parent / "docs" / "ledger.md"
    failures, attempted = doctest.testfile(str(page), module_relative=False)
    assert attempted >= 2 and failures == 0
