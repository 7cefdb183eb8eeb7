"""Glicko-2 for Abluka, after Mark E. Glickman, "Example of the Glicko-2 system"
(Boston University, glicko.net/glicko/glicko2.pdf, 2013 revision).

Each player has a rating r, a rating deviation RD (how unsure the rating is) and a
volatility sigma (how erratic his results are). Games are gathered in a rating period
and counted as if played at once, every player rated from the values at the start of
the period. For each player, in Glickman's steps:

1. Move to the Glicko-2 scale: mu = (r - 1500) / 173.7178, phi = RD / 173.7178.
2. For each opponent j: g(phi_j) = 1 / sqrt(1 + 3 phi_j^2 / pi^2) (a far less certain
   opponent counts for less), and the expected score E_j = 1 / (1 + exp(-g(phi_j) (mu - mu_j))).
3. The estimated variance v = 1 / sum(g_j^2 E_j (1 - E_j)) and the improvement
   Delta = v * sum(g_j (s_j - E_j)), s_j the score (1 win, 0 loss).
4. The new volatility sigma' solves f(x) = 0 with x = ln(sigma'^2),
   f(x) = e^x (Delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - ln sigma^2) / tau^2,
   found by the Illinois variant of regula falsi the paper gives, to a tolerance epsilon.
5. phi* = sqrt(phi^2 + sigma'^2); phi' = 1 / sqrt(1 / phi*^2 + 1 / v);
   mu' = mu + phi'^2 * sum(g_j (s_j - E_j)).
6. Back to the rating scale: r' = 173.7178 mu' + 1500, RD' = 173.7178 phi'.

A player who plays nothing in a period keeps r and sigma, and his deviation grows to
sqrt(phi^2 + sigma^2). The paper sets no ceiling; this module caps RD at 350, a new
player's deviation, so that a long absence never makes a rating less certain than no
rating at all (Glickman's advice for the original Glicko system).

tau limits how fast the volatility may change; Glickman suggests 0.3 to 1.2 and uses
0.5 in the example, the default here. For Abluka each finished match is one game of the
period, scored 1 for its winner and 0 for its loser (RULES 8.3 matches have no draws).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tavla.ratings.errors import RatingError

SCALE = 173.7178  # 400 / ln(10): the Glicko-2 scale in rating points
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06


@dataclass(frozen=True)
class Glicko2Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Glicko2Settings:
    """tau: how much the volatility may change per period; tolerance: the volatility
    search's epsilon; max_deviation: the ceiling on RD (see the module docstring)."""

    tau: float = 0.5
    tolerance: float = 0.000001
    max_deviation: float = START_DEVIATION

    def __post_init__(self) -> None:
        if self.tau <= 0 or self.tolerance <= 0 or self.max_deviation <= 0:
            raise RatingError(f"Glicko-2 settings {self}: tau, tolerance and ceiling must be positive")


@dataclass(frozen=True)
class Glicko2Result:
    """One game of the period from the player's side: the opponent's rating at the start
    of the period and the player's score (1 win, 1/2 draw, 0 loss)."""

    opponent: Glicko2Rating
    score: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise RatingError(f"score {self.score}: must lie between 0 and 1")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, opponent_g: float) -> float:
    return 1.0 / (1.0 + math.exp(-opponent_g * (mu - opponent_mu)))


def rate_period(
    player: Glicko2Rating, results: Sequence[Glicko2Result], settings: Glicko2Settings | None = None
) -> Glicko2Rating:
    """The player's rating at the end of a rating period with these games."""
    settings = settings or Glicko2Settings()
    phi = player.deviation / SCALE
    if not results:
        grown = math.sqrt(phi * phi + player.volatility * player.volatility) * SCALE
        return Glicko2Rating(player.rating, min(grown, settings.max_deviation), player.volatility)

    mu = (player.rating - START_RATING) / SCALE
    information = 0.0  # 1 / v
    surprise = 0.0  # sum of g_j (s_j - E_j)
    for result in results:
        opponent_g = _g(result.opponent.deviation / SCALE)
        expected = _expected(mu, (result.opponent.rating - START_RATING) / SCALE, opponent_g)
        information += opponent_g * opponent_g * expected * (1.0 - expected)
        surprise += opponent_g * (result.score - expected)
    variance = 1.0 / information
    delta = variance * surprise

    volatility = _new_volatility(phi, player.volatility, variance, delta, settings)
    phi_star_squared = phi * phi + volatility * volatility
    new_phi = 1.0 / math.sqrt(1.0 / phi_star_squared + 1.0 / variance)
    new_mu = mu + new_phi * new_phi * surprise
    return Glicko2Rating(
        rating=SCALE * new_mu + START_RATING,
        deviation=min(SCALE * new_phi, settings.max_deviation),
        volatility=volatility,
    )


def _new_volatility(
    phi: float, sigma: float, variance: float, delta: float, settings: Glicko2Settings
) -> float:
    """Step 5 of the paper: the root of f by the Illinois algorithm."""
    tau = settings.tau
    a = math.log(sigma * sigma)
    base = phi * phi + variance

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - base - ex) / (2.0 * (base + ex) ** 2) - (x - a) / (tau * tau)

    # Bracket the root: [A, B] with f(A) and f(B) of opposite signs.
    lower = a
    if delta * delta > base:
        upper = math.log(delta * delta - base)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        upper = a - k * tau
    f_lower, f_upper = f(lower), f(upper)
    while abs(upper - lower) > settings.tolerance:
        middle = lower + (lower - upper) * f_lower / (f_upper - f_lower)
        f_middle = f(middle)
        if f_middle * f_upper <= 0:
            lower, f_lower = upper, f_upper
        else:
            # Illinois step: halve the retained end's value so the bracket keeps shrinking.
            f_lower /= 2.0
        upper, f_upper = middle, f_middle
    return math.exp(lower / 2.0)


Player = TypeVar("Player", bound=Hashable)


def rate_all(
    ratings: Mapping[Player, Glicko2Rating],
    games: Iterable[tuple[Player, Player, float]],
    settings: Glicko2Settings | None = None,
) -> dict[Player, Glicko2Rating]:
    """Everyone's rating at the end of a period. ``games`` are (first, second, first's
    score); every player is rated from the values at the start of the period, and a
    player with no game in it only grows his deviation."""
    results: dict[Player, list[Glicko2Result]] = {player: [] for player in ratings}
    for first, second, score in games:
        if first not in ratings or second not in ratings or first == second:
            raise RatingError(f"game {first!r} against {second!r}: both must be distinct rated players")
        results[first].append(Glicko2Result(ratings[second], score))
        results[second].append(Glicko2Result(ratings[first], 1.0 - score))
    return {player: rate_period(ratings[player], results[player], settings) for player in ratings}
