"""The FIBS rating formula for backgammon-family matches.

From the First Internet Backgammon Server's help page "formula" (reproduced in the
rec.games.backgammon FAQ, section 14 "FIBS ratings"): two players rated r1 and r2 play
an n-point match.

- D = |r1 - r2|; the underdog wins with P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1).
  The longer the match, the likelier the better player wins: the difference counts
  sqrt(n) times.
- P is the chance the winner had of losing: 1 - P_upset when the underdog wins, P_upset
  when the favourite does.
- Each player has an experience factor K = max(1, 5 - experience / 100), where the
  experience is the sum of the lengths of all matches he has finished. A newcomer's K
  is 5; it shrinks by 1 every 100 points of experience and stays at 1 from 400 on, so
  early results move a new rating quickly toward its level.
- The winner gains 4 * K_winner * sqrt(n) * P; the loser loses 4 * K_loser * sqrt(n) * P.
  Each uses his own K, so the exchange is zero-sum only between players of equal K.
- Everyone starts at 1500 with experience 0.

Writing P(win) for a player rated r against r' as 1 / (10^((r' - r) * sqrt(n) / 2000) + 1)
covers both cases of the FIBS text at once: the winner's P is 1 - P(win).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tavla.ratings.errors import RatingError

START_RATING = 1500.0


@dataclass(frozen=True)
class FibsRating:
    """A player's FIBS rating and experience (the sum of his finished matches' lengths)."""

    rating: float = START_RATING
    experience: int = 0


def experience_factor(experience: int) -> float:
    """K: 5 for a newcomer, falling by 1 per 100 points of experience, never below 1."""
    return max(1.0, 5.0 - experience / 100.0)


def win_probability(rating: float, opponent: float, match_length: int) -> float:
    """The chance that a player rated ``rating`` wins an n-point match against ``opponent``."""
    _check_length(match_length)
    return 1.0 / (math.pow(10.0, (opponent - rating) * math.sqrt(match_length) / 2000.0) + 1.0)


def match_changes(winner: FibsRating, loser: FibsRating, match_length: int) -> tuple[float, float]:
    """The winner's gain and the loser's change (negative) for one finished match."""
    surprise = 1.0 - win_probability(winner.rating, loser.rating, match_length)
    stake = 4.0 * math.sqrt(match_length) * surprise
    return (
        stake * experience_factor(winner.experience),
        -stake * experience_factor(loser.experience),
    )


def rate_match(winner: FibsRating, loser: FibsRating, match_length: int) -> tuple[FibsRating, FibsRating]:
    """Both players after the match: new ratings, and the match length added to each
    one's experience."""
    gain, loss = match_changes(winner, loser, match_length)
    return (
        FibsRating(winner.rating + gain, winner.experience + match_length),
        FibsRating(loser.rating + loss, loser.experience + match_length),
    )


def _check_length(match_length: int) -> None:
    if match_length < 1:
        raise RatingError(f"match length {match_length}: must be a positive number of points")
