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


_GAMMON_NEEDS_NONE_OFF = frozenset({"tabla", "chelebi", "gulbara"})
"""Games where a gammon needs the loser to have borne off nothing, with no other way to
one (RULES 2, 4 and 6.4; not tapa, whose pinned mother wins 2 points at any time, nor
antitabla, whose winner is the one still holding checkers)."""


def ruled_out(estimate: Estimate, game: str, off: tuple[int, int], player: int) -> Estimate:
    """``estimate`` (``player``'s) with the gammons the rules no longer allow set to 0: a
    side that has borne a checker off can lose no gammon. A network learns this only
    roughly; the cube, where a few per cent of gammons change the decision, needs it
    exact."""
    if game not in _GAMMON_NEEDS_NONE_OFF:
        return estimate
    out = np.array(estimate, dtype=np.float64)
    if off[1 - player] > 0:
        out[..., 1:3] = 0.0
    if off[player] > 0:
        out[..., 3:5] = 0.0
    return out


def output_mask(game: str) -> npt.NDArray[np.float64]:
    """1 for the outputs ``game`` can reach, 0 for the gammon chances it cannot."""
    points = _MAX_POINTS.get(game, 3)
    return np.array([1.0, points >= 2, points >= 3, points >= 2, points >= 3])


def consistent(estimate: Estimate) -> Estimate:
    """The estimate with its chances made to nest: a gammon win no likelier than a win,
    a backgammon no likelier than a gammon, and the same for the losses. A network's
    five outputs are learnt separately and may disagree a little (a lost gammon of
    1e-7 beside a lost backgammon of 1e-4); the cube's formulas need them nested."""
    out = np.clip(np.array(estimate, dtype=np.float64), 0.0, 1.0)
    out[..., 1] = np.minimum(out[..., 1], out[..., 0])
    out[..., 2] = np.minimum(out[..., 2], out[..., 1])
    out[..., 3] = np.minimum(out[..., 3], 1.0 - out[..., 0])
    out[..., 4] = np.minimum(out[..., 4], out[..., 3])
    return out


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
