"""The five chances a dice-game evaluator estimates, and what they are worth.

The convention shared by every evaluator, the cube and the analysis: an
estimate is a float array of five values seen from the side of the player who
just moved (the afterstate's owner), as GNU Backgammon orders them:

``[p_win, p_win_gammon, p_win_backgammon, p_lose_gammon, p_lose_backgammon]``

Gammons include backgammons. A game whose results are all single (indiyka, RULES
section 7) has its four gammon chances masked to 0. A void game (tapa, both
mothers pinned: nobody scores) counts as half a win and no gammon, so that its
cubeless equity is 0.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavla.core.protocol import Outcome

Estimate = npt.NDArray[np.float64]
"""Five chances (or rows of them) in the order of :data:`OUTPUT_NAMES`."""

OUTPUTS = 5
OUTPUT_NAMES = ("p_win", "p_win_gammon", "p_win_backgammon", "p_lose_gammon", "p_lose_backgammon")
FLIP = np.array([0, 3, 4, 1, 2])
"""Output order seen from the other side: my gammon wins are his gammon losses."""
_EQUITY = np.array([2.0, 1.0, 1.0, -1.0, -1.0])

_MAX_POINTS: dict[str, int] = {"indiyka": 1}
"""Games whose results never reach 3 points (RULES section 7); the others score 1, 2 or 3."""


def output_mask(game: str) -> npt.NDArray[np.float64]:
    """1 for the outputs ``game`` can reach, 0 for the gammon chances it cannot."""
    points = _MAX_POINTS.get(game, 3)
    return np.array([1.0, points >= 2, points >= 3, points >= 2, points >= 3])


def flip(estimate: Estimate) -> Estimate:
    """The same chances seen by the opponent (works on one estimate or rows of them)."""
    flipped = estimate[..., FLIP].copy()
    flipped[..., 0] = 1.0 - flipped[..., 0]
    return flipped


def equity(estimate: Estimate) -> npt.NDArray[np.float64]:
    """Cubeless equity: ``2 p_win - 1 + p_wg - p_lg + p_wbg - p_lbg`` (per row)."""
    return np.asarray(estimate @ _EQUITY - 1.0)


def outcome_estimate(outcome: Outcome, player: int) -> Estimate:
    """The certain "estimate" of a finished game for ``player`` (training targets)."""
    if outcome.winner is None:  # a void game: nobody scores
        return np.array([0.5, 0.0, 0.0, 0.0, 0.0])
    gammon, backgammon = float(outcome.points >= 2), float(outcome.points >= 3)
    if outcome.winner == player:
        return np.array([1.0, gammon, backgammon, 0.0, 0.0])
    return np.array([0.0, 0.0, 0.0, gammon, backgammon])
