"""The FIBS rating formula: matches worked out by hand, and properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.ratings.errors import RatingError
from tavla.ratings.fibs import (
    FibsRating,
    experience_factor,
    match_changes,
    rate_match,
    win_probability,
)

VETERAN = 1000  # experience past 400: K = 1


def test_experience_factor() -> None:
    # K = max(1, 5 - experience/100)
    assert [experience_factor(x) for x in (0, 50, 150, 399, 400, 5000)] == pytest.approx(
        [5, 4.5, 3.5, 1.01, 1, 1]
    )


def test_two_newcomers_play_a_five_point_match() -> None:
    # P = 1/2, K = 5: 4 * 5 * sqrt(5) * 1/2 = 10 sqrt(5) = 22.36
    winner, loser = rate_match(FibsRating(), FibsRating(), 5)
    assert winner.rating == pytest.approx(1500 + 10 * math.sqrt(5))
    assert winner.rating == pytest.approx(1522.36, abs=0.005)
    assert loser.rating == pytest.approx(1477.64, abs=0.005)
    assert (winner.experience, loser.experience) == (5, 5)


def test_veterans_of_equal_rating_exchange_two_points_over_one_point() -> None:
    # 4 * 1 * sqrt(1) * 1/2 = 2
    assert match_changes(FibsRating(1800, VETERAN), FibsRating(1800, VETERAN), 1) == (2, -2)


def test_an_upset_over_one_point() -> None:
    # D = 200: P_upset = 1/(10^(200/2000) + 1) = 1/(1.258925 + 1) = 0.442688.
    # The underdog wins: P = 1 - 0.442688 = 0.557312; 4 * 1 * 1 * 0.557312 = 2.229246.
    assert win_probability(1500, 1700, 1) == pytest.approx(0.442688, abs=1e-6)
    gain, loss = match_changes(FibsRating(1500, VETERAN), FibsRating(1700, VETERAN), 1)
    assert gain == pytest.approx(2.229246, abs=1e-6)
    assert loss == pytest.approx(-2.229246, abs=1e-6)


def test_the_favourite_wins_a_seven_point_match() -> None:
    # D * sqrt(7) / 2000 = 200 * 2.645751 / 2000 = 0.2645751; 10^0.2645751 = 1.838972;
    # P_upset = 1/2.838972 = 0.352240; the favourite gains 4 * sqrt(7) * 0.352240 = 3.727760.
    gain, _ = match_changes(FibsRating(1700, VETERAN), FibsRating(1500, VETERAN), 7)
    assert gain == pytest.approx(3.727760, abs=1e-6)


def test_each_player_uses_his_own_experience_factor() -> None:
    # A newcomer (K = 5) beats a veteran (K = 1) of equal rating over 1 point:
    # +4 * 5 * 1/2 = +10 and -4 * 1 * 1/2 = -2.
    assert match_changes(FibsRating(1500, 0), FibsRating(1500, VETERAN), 1) == (10, -2)


def test_a_match_needs_a_length() -> None:
    with pytest.raises(RatingError):
        rate_match(FibsRating(), FibsRating(), 0)


ratings = st.floats(800, 2200)
lengths = st.integers(1, 25)
experiences = st.integers(0, 2000)


@settings(max_examples=80)
@given(a=ratings, b=ratings, n=lengths, experience=experiences)
def test_equal_experience_makes_it_zero_sum(a: float, b: float, n: int, experience: int) -> None:
    winner, loser = rate_match(FibsRating(a, experience), FibsRating(b, experience), n)
    assert winner.rating - a == pytest.approx(b - loser.rating)
    assert winner.rating > a and loser.rating < b


@settings(max_examples=80)
@given(a=ratings, b=ratings, n=lengths)
def test_win_probabilities(a: float, b: float, n: int) -> None:
    assert win_probability(a, b, n) + win_probability(b, a, n) == pytest.approx(1)
    if a > b:
        # The better player is likelier to win, and more so over a longer match.
        assert win_probability(a, b, n) > 0.5
        assert win_probability(a, b, n + 1) >= win_probability(a, b, n)


@settings(max_examples=80)
@given(a=ratings, b=ratings, gap=st.floats(1, 300), n=lengths, experience=experiences)
def test_beating_a_stronger_player_gains_more_and_experience_slows_change(
    a: float, b: float, gap: float, n: int, experience: int
) -> None:
    me = FibsRating(a, experience)
    assert (
        match_changes(me, FibsRating(b + gap, experience), n)[0]
        > match_changes(me, FibsRating(b, experience), n)[0]
    )
    older = FibsRating(a, experience + 50)
    assert match_changes(older, FibsRating(b), n)[0] <= match_changes(me, FibsRating(b), n)[0]
