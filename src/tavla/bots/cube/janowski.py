"""Janowski's cubeful model: cubeful equity from cubeless chances.

Rick Janowski's model ("Take-points in money games", 1993) treats the game as a
winning chance ``p`` that wanders between 0 and 1, with the value of a win and of a
loss fixed at their averages given the present gammon chances. Two limits bound the
truth:

- the **dead cube**: nobody doubles again, the equity is the cubeless expectation
  ``p W + (1 - p) L``;
- the **fully live cube**: ``p`` moves continuously, so a player can always double at
  exactly his opponent's take point. The equity is then linear in ``p`` between the
  points where something happens (a cash, the end of the game), a piecewise linear
  curve through (0, L), the opponent's cash point, the own cash point, (1, W).

The cubeful equity is ``x * live + (1 - x) * dead`` with ``x`` the cube-life index.
The cash points come from the curves one cube level up (the opponent takes my double
to 2v while his curve at 2v, owning the cube, is no better for me than my cash), down
from the 64 cap of RULES.md 9.2, where the cube is dead. Money play and match play
share this: they differ only in what scoring ``k`` points is worth (``payoff``): ``k``
points, or the match winning chance at the new score. With no cap and money payoffs
this gives Janowski's take point ``(W - 1/2) / (W + L + x/2)`` (docs/cube.md).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tavla.bots.cube.chances import (
    LOSE_BACKGAMMON,
    LOSE_GAMMON,
    WIN,
    WIN_BACKGAMMON,
    WIN_GAMMON,
    Chances,
    single_only,
)
from tavla.bots.cube.context import CUBE_CAP, CubeContext, CubeOwner

Curve = tuple[list[float], list[float]]
"""A piecewise linear curve of ``p``: its break points and the values there."""


class CubefulModel:
    """The cubeful equity of one position's chances under one context, for any cube.

    Equities are for the player on roll: points (money, not divided by the cube) or
    the chance to win the match.
    """

    def __init__(self, values: Chances, context: CubeContext) -> None:
        self.p = float(values[WIN])
        self._chances = values
        # Jacoby (RULES.md 9.2): while the cube is centred and unturned, gammons count 1.
        self._centred_chances = single_only(values) if context.jacoby else values
        self._payoff: Callable[[int], float] = context.payoff()
        self._life = context.cube_life
        self._doubling = context.doubling_allowed

    # ------------------------------------------------------------ game values
    def win_value(self, cube: int, *, centred: bool = False) -> float:
        """The average worth of a win with the cube at ``cube``."""
        win, gammon, backgammon = (float(v) for v in self._values(centred)[[WIN, WIN_GAMMON, WIN_BACKGAMMON]])
        pay = self._payoff
        if win <= 0.0:
            return pay(cube)  # never won: any value will do, it is weighted by 0
        single = (win - gammon) * pay(cube)
        return (single + (gammon - backgammon) * pay(2 * cube) + backgammon * pay(3 * cube)) / win

    def loss_value(self, cube: int, *, centred: bool = False) -> float:
        """The average worth of a loss with the cube at ``cube``."""
        values = self._values(centred)
        lose = 1.0 - float(values[WIN])
        gammon, backgammon = float(values[LOSE_GAMMON]), float(values[LOSE_BACKGAMMON])
        pay = self._payoff
        if lose <= 0.0:
            return pay(-cube)
        single = (lose - gammon) * pay(-cube)
        return (single + (gammon - backgammon) * pay(-2 * cube) + backgammon * pay(-3 * cube)) / lose

    def _values(self, centred: bool) -> Chances:
        return self._centred_chances if centred else self._chances

    # ------------------------------------------------------------ equities
    def equity(self, holder: CubeOwner, cube: int) -> float:
        """The cubeful equity with the cube at ``cube`` held by ``holder`` (seen from
        the player on roll), before any cube action: Janowski's mix of live and dead."""
        centred = holder == CubeOwner.CENTRED
        dead = self.p * self.win_value(cube, centred=centred) + (1 - self.p) * self.loss_value(
            cube, centred=centred
        )
        xs, ys = self.curve(holder, cube)
        live = float(np.interp(self.p, xs, ys))
        return self._life * live + (1 - self._life) * dead

    def curve(self, holder: CubeOwner, cube: int) -> Curve:
        """The fully live equity as a function of ``p`` (break points, values)."""
        centred = holder == CubeOwner.CENTRED
        xs = [0.0]
        ys = [self.loss_value(cube, centred=centred)]
        theirs = self.cash_point(CubeOwner.OPPONENT, cube) if holder != CubeOwner.ME else None
        mine = self.cash_point(CubeOwner.ME, cube) if holder != CubeOwner.OPPONENT else None
        if theirs is not None and mine is not None and theirs >= mine:
            # Each side would cash before the other's point: never with a sensible
            # table; meet half way rather than draw a curve that turns back.
            xs.append((theirs + mine) / 2)
            ys.append((self._payoff(-cube) + self._payoff(cube)) / 2)
        else:
            if theirs is not None:
                xs.append(theirs)
                ys.append(self._payoff(-cube))
            if mine is not None:
                xs.append(mine)
                ys.append(self._payoff(cube))
        xs.append(1.0)
        ys.append(self.win_value(cube, centred=centred))
        return xs, ys

    def cash_point(self, doubler: CubeOwner, cube: int) -> float | None:
        """The ``p`` at which ``doubler``'s double from ``cube`` is a cash: his opponent
        is just indifferent between taking and passing. None when he cannot double
        from ``cube`` or his double is never passed (a dead cube)."""
        if not self._doubling or 2 * cube > CUBE_CAP:
            return None
        if doubler == CubeOwner.ME:
            # The opponent takes while his holding the cube at 2v leaves me no more
            # than my cash: the largest such p.
            xs, ys = self.curve(CubeOwner.OPPONENT, 2 * cube)
            point = _last_at_most(xs, ys, self._payoff(cube))
        else:
            xs, ys = self.curve(CubeOwner.ME, 2 * cube)
            point = _first_at_least(xs, ys, self._payoff(-cube))
        return point if 0.0 < point < 1.0 else None


def _last_at_most(xs: list[float], ys: list[float], target: float) -> float:
    """The largest x where the nondecreasing curve is at most ``target``."""
    for i in range(len(xs) - 1, 0, -1):
        if ys[i] <= target:
            return xs[i]
        if ys[i - 1] <= target:
            return xs[i - 1] + (target - ys[i - 1]) / (ys[i] - ys[i - 1]) * (xs[i] - xs[i - 1])
    return xs[0]


def _first_at_least(xs: list[float], ys: list[float], target: float) -> float:
    """The smallest x where the nondecreasing curve is at least ``target``."""
    for i in range(len(xs) - 1):
        if ys[i] >= target:
            return xs[i]
        if ys[i + 1] >= target:
            return xs[i] + (target - ys[i]) / (ys[i + 1] - ys[i]) * (xs[i + 1] - xs[i])
    return xs[-1]
