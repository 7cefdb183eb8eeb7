"""Glicko-2 (Abluka's rating): Glickman's worked example, and properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.ratings.errors import RatingError
from tavla.ratings.glicko2 import (
    SCALE,
    Glicko2Rating,
    Glicko2Result,
    Glicko2Settings,
    rate_all,
    rate_period,
)

EXAMPLE_PLAYER = Glicko2Rating(1500, 200, 0.06)
EXAMPLE_GAMES = [
    Glicko2Result(Glicko2Rating(1400, 30), 1),
    Glicko2Result(Glicko2Rating(1550, 100), 0),
    Glicko2Result(Glicko2Rating(1700, 300), 0),
]


def test_glickmans_worked_example() -> None:
    after = rate_period(EXAMPLE_PLAYER, EXAMPLE_GAMES, Glicko2Settings(tau=0.5))
    # The paper: mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999, hence r' = 1464.06 and
    # RD' = 151.52. It rounds mu' before scaling back (-0.2069 * 173.7178 + 1500 =
    # 1464.06); unrounded, r' = 1464.0507, so r' is checked to within 0.01.
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation_up_to_the_ceiling() -> None:
    after = rate_period(EXAMPLE_PLAYER, [])
    # phi* = sqrt((200/173.7178)^2 + 0.06^2) = sqrt(1.32547 + 0.0036) = 1.15286 -> 200.27
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.deviation == pytest.approx(200.27, abs=0.01)
    assert rate_period(Glicko2Rating(1500, 349.9, 0.06), []).deviation == 350
    assert (
        rate_period(Glicko2Rating(1500, 349.9, 0.06), [], Glicko2Settings(max_deviation=400)).deviation > 350
    )


def test_rate_all_rates_everyone_from_the_start_of_the_period() -> None:
    start = {"a": EXAMPLE_PLAYER, "b": Glicko2Rating(1400, 30), "c": Glicko2Rating(1550, 100)}
    start["d"] = Glicko2Rating(1700, 300)
    after = rate_all(start, [("a", "b", 1), ("c", "a", 1), ("a", "d", 0)])
    assert after["a"] == rate_period(EXAMPLE_PLAYER, EXAMPLE_GAMES)
    assert after["b"] == rate_period(start["b"], [Glicko2Result(EXAMPLE_PLAYER, 0)])
    assert after["c"] == rate_period(start["c"], [Glicko2Result(EXAMPLE_PLAYER, 1)])
    with pytest.raises(RatingError):
        rate_all(start, [("a", "z", 1)])
    with pytest.raises(RatingError):
        rate_all(start, [("a", "a", 1)])


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(RatingError):
        Glicko2Result(EXAMPLE_PLAYER, 1.5)
    with pytest.raises(RatingError):
        Glicko2Settings(tau=0)


ratings = st.builds(
    Glicko2Rating,
    rating=st.floats(1000, 2200),
    deviation=st.floats(30, 350),
    volatility=st.floats(0.03, 0.1),
)


@settings(max_examples=80)
@given(player=ratings, opponent=ratings)
def test_a_win_is_worth_more_than_a_loss_and_a_game_narrows_the_deviation(
    player: Glicko2Rating, opponent: Glicko2Rating
) -> None:
    won = rate_period(player, [Glicko2Result(opponent, 1)])
    lost = rate_period(player, [Glicko2Result(opponent, 0)])
    assert lost.rating < player.rating < won.rating
    # A game always narrows the deviation below phi* = sqrt(phi^2 + sigma'^2), the
    # width the new volatility alone would give (a surprise may raise sigma', so the
    # result can still be a hair wider than an idle period's).
    for after in (won, lost):
        assert after.deviation < math.hypot(player.deviation, after.volatility * SCALE)
    assert won.volatility > 0 and lost.volatility > 0
    assert all(math.isfinite(x) for x in (won.rating, won.deviation, lost.rating, lost.deviation))


@settings(max_examples=80)
@given(player=ratings, opponent=ratings, gap=st.floats(10, 400))
def test_beating_a_stronger_opponent_gains_more(
    player: Glicko2Rating, opponent: Glicko2Rating, gap: float
) -> None:
    stronger = Glicko2Rating(opponent.rating + gap, opponent.deviation, opponent.volatility)
    assert (
        rate_period(player, [Glicko2Result(stronger, 1)]).rating
        > rate_period(player, [Glicko2Result(opponent, 1)]).rating
    )


@settings(max_examples=60)
@given(player=ratings)
def test_equal_players_exchange_equal_amounts(player: Glicko2Rating) -> None:
    after = rate_all({1: player, 2: player}, [(1, 2, 1.0)])
    assert after[1].rating - player.rating == pytest.approx(player.rating - after[2].rating)
    assert after[1].deviation == pytest.approx(after[2].deviation)


def volatility_equation(player: Glicko2Rating, games: list[Glicko2Result], tau: float) -> float:
    """f(ln sigma'^2) for the new volatility sigma' that rate_period returns: Glickman's
    step 5 equation, written out again here from the paper, is zero at its root."""
    mu, phi = (player.rating - 1500) / SCALE, player.deviation / SCALE
    information, surprise = 0.0, 0.0
    for game in games:
        g = 1 / math.sqrt(1 + 3 * (game.opponent.deviation / SCALE) ** 2 / math.pi**2)
        e = 1 / (1 + math.exp(-g * (mu - (game.opponent.rating - 1500) / SCALE)))
        information += g * g * e * (1 - e)
        surprise += g * (game.score - e)
    v = 1 / information
    delta = v * surprise
    sigma = rate_period(player, games, Glicko2Settings(tau=tau)).volatility
    x, a = math.log(sigma**2), math.log(player.volatility**2)
    return (
        math.exp(x) * (delta**2 - phi**2 - v - math.exp(x)) / (2 * (phi**2 + v + math.exp(x)) ** 2)
        - (x - a) / tau**2
    )


@settings(max_examples=80)
@given(
    player=ratings,
    games=st.lists(
        st.builds(Glicko2Result, ratings, st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=8
    ),
    tau=st.floats(0.3, 1.2),
)
def test_the_new_volatility_solves_glickmans_equation(
    player: Glicko2Rating, games: list[Glicko2Result], tau: float
) -> None:
    # f's slope is about -1/tau^2 near the root, so a root found to 1e-6 in x leaves
    # |f| well under 1e-4.
    assert abs(volatility_equation(player, games, tau)) < 1e-4


def test_the_volatility_bracket_steps_down_more_than_once() -> None:
    # Step 5's bracket: when Delta^2 <= phi^2 + v the lower end is found at a - k tau for
    # the first k with f(a - k tau) >= 0. A wild volatility (5) under a large tau (3), with
    # eight draws against an equal player, needs k = 2: f(a - tau) is still below zero.
    player = Glicko2Rating(1500, 30, 5.0)
    draws = [Glicko2Result(Glicko2Rating(1500, 30), 0.5)] * 8
    after = rate_period(player, draws, Glicko2Settings(tau=3.0))
    assert abs(volatility_equation(player, draws, 3.0)) < 1e-4
    assert after.rating == 1500 and after.volatility == pytest.approx(1.0742, abs=0.0001)


def test_rate_all_uses_the_settings_it_is_given() -> None:
    start = {"a": EXAMPLE_PLAYER, "b": Glicko2Rating(1400, 30)}
    custom = Glicko2Settings(tau=1.2, max_deviation=150)
    after = rate_all(start, [("a", "b", 0)], custom)
    assert after["a"] == rate_period(EXAMPLE_PLAYER, [Glicko2Result(start["b"], 0)], custom)
    assert after["a"] != rate_period(EXAMPLE_PLAYER, [Glicko2Result(start["b"], 0)])
    assert after["a"].deviation == 150  # the ceiling given, not the default 350


def test_a_run_of_upsets_raises_the_volatility() -> None:
    player = Glicko2Rating(1500, 50, 0.06)
    upsets = [Glicko2Result(Glicko2Rating(2100, 40), 1)] * 6
    after = rate_period(player, upsets)
    assert after.volatility > 0.0604  # from 0.06: six wins, each about a 3% chance
    assert abs(volatility_equation(player, upsets, 0.5)) < 1e-4
