"""Cubeless chances: the five numbers an evaluator gives for a position.

The convention shared by every evaluator and the cube: from the point of view of the
player on roll (the one deciding whether to double), a float array

    [p_win, p_win_gammon, p_win_backgammon, p_lose_gammon, p_lose_backgammon]

where gammon chances include backgammons (as GNU Backgammon's outputs do), so
``p_win >= p_win_gammon >= p_win_backgammon`` and ``1 - p_win >= p_lose_gammon >=
p_lose_backgammon``. Games without gammons (indiyka) give zeros for the last four.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from tavla.bots.outcomes import equity, flip

Chances = NDArray[np.float64]
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)
_SLACK = 1e-9
"""What rounding in an evaluator's output may break the order of the chances by."""


def chances(values: Sequence[float] | NDArray[np.floating]) -> Chances:
    """The five chances as a checked float array (ValueError naming what is wrong)."""
    array = np.asarray(values, dtype=np.float64)
    if array.shape != (5,):
        raise ValueError(f"cubeless chances are 5 numbers, not shape {array.shape}")
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (float(v) for v in array)
    slack = _SLACK
    ordered = (
        -slack <= win_backgammon <= win_gammon + slack
        and win_gammon <= win + slack
        and win <= 1 + slack
        and -slack <= lose_backgammon <= lose_gammon + slack
        and lose_gammon <= 1 - win + slack
    )
    if not ordered:
        raise ValueError(
            "need 1 >= p_win >= p_win_gammon >= p_win_backgammon >= 0 and "
            f"1 - p_win >= p_lose_gammon >= p_lose_backgammon >= 0: {array.tolist()}"
        )
    return np.clip(array, 0.0, 1.0)


def cubeless_equity(values: Chances) -> float:
    """Points per game for the player on roll with a cube of 1 that never moves."""
    return float(equity(np.asarray(values, dtype=np.float64)))


def swap_sides(values: Chances) -> Chances:
    """The same chances from the other player's point of view."""
    return flip(np.asarray(values, dtype=np.float64))


def single_only(values: Chances) -> Chances:
    """The chances with every gammon and backgammon counted as a single game (Jacoby)."""
    return np.array([float(values[WIN]), 0.0, 0.0, 0.0, 0.0])
