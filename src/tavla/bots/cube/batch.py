"""Cubeful equities of many positions at once: the same model as ``janowski.py``, on
arrays, for a bot that ranks every candidate turn of a roll by its cubeful equity.

Each quantity of :class:`~tavla.bots.cube.janowski.CubefulModel` becomes an array
over the positions; a curve always has four break points, (0, L), the opponent's cash
point, my cash point, (1, W), and a cash point that does not exist is pushed onto its
neighbour (0 or 1), leaving a segment of no width that interpolation skips.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from tavla.bots.cube.context import CUBE_CAP, CubeContext, CubeOwner
from tavla.bots.cube.convention import LOSE_BACKGAMMON, LOSE_GAMMON, WIN, WIN_BACKGAMMON, WIN_GAMMON

Floats = NDArray[np.float64]
Curve = tuple[list[Floats], list[Floats]]


def cubeful_equities(values: NDArray[np.floating], context: CubeContext) -> Floats:
    """:func:`~tavla.bots.cube.cubeful_equity` of every row of ``values`` (shape (n, 5),
    each row the chances of the player on roll, unchecked) under one ``context``."""
    rows = np.asarray(values, dtype=np.float64).reshape(-1, 5)
    model = _Batch(rows, context)
    cube = context.cube
    equity = model.equity(cube.owner, cube.value)
    return equity / cube.value if context.money else equity


class _Batch:
    def __init__(self, rows: Floats, context: CubeContext) -> None:
        self.p = rows[:, WIN]
        centred = rows.copy()
        if context.jacoby:
            centred[:, WIN_GAMMON:] = 0.0  # Jacoby: gammons count 1 while the cube is centred
        self._rates = {False: rows, True: centred}
        self._payoff = context.payoff()
        self._life = context.cube_life
        self._doubling = context.doubling_allowed
        self._paid: dict[int, float] = {}
        self._worth: dict[tuple[int, bool], tuple[Floats, Floats]] = {}
        self._cash: dict[tuple[CubeOwner, int], Floats | None] = {}

    def pay(self, points: int) -> float:
        if points not in self._paid:
            self._paid[points] = self._payoff(points)
        return self._paid[points]

    def values(self, cube: int, centred: bool) -> tuple[Floats, Floats]:
        """The average worth of a win and of a loss, per position."""
        key = (cube, centred)
        if key not in self._worth:
            rates, pay = self._rates[centred], self.pay
            win, lose = rates[:, WIN], 1.0 - rates[:, WIN]
            win_gammon, win_backgammon = rates[:, WIN_GAMMON], rates[:, WIN_BACKGAMMON]
            lose_gammon, lose_backgammon = rates[:, LOSE_GAMMON], rates[:, LOSE_BACKGAMMON]
            won = (
                (win - win_gammon) * pay(cube)
                + (win_gammon - win_backgammon) * pay(2 * cube)
                + win_backgammon * pay(3 * cube)
            )
            lost = (
                (lose - lose_gammon) * pay(-cube)
                + (lose_gammon - lose_backgammon) * pay(-2 * cube)
                + lose_backgammon * pay(-3 * cube)
            )
            # A side that never wins (or loses) gets any value: it is weighted by 0.
            wins = np.divide(won, win, out=np.full_like(win, pay(cube)), where=win > 0.0)
            losses = np.divide(lost, lose, out=np.full_like(lose, pay(-cube)), where=lose > 0.0)
            self._worth[key] = (wins, losses)
        return self._worth[key]

    def equity(self, holder: CubeOwner, cube: int) -> Floats:
        wins, losses = self.values(cube, holder == CubeOwner.CENTRED)
        dead = self.p * wins + (1 - self.p) * losses
        live = _at(*self.curve(holder, cube), self.p)
        return self._life * live + (1 - self._life) * dead

    def curve(self, holder: CubeOwner, cube: int) -> Curve:
        wins, losses = self.values(cube, holder == CubeOwner.CENTRED)
        n = len(self.p)
        theirs = self.cash_point(CubeOwner.OPPONENT, cube) if holder != CubeOwner.ME else None
        mine = self.cash_point(CubeOwner.ME, cube) if holder != CubeOwner.OPPONENT else None
        their_x = np.zeros(n) if theirs is None else np.nan_to_num(theirs, nan=0.0)
        my_x = np.ones(n) if mine is None else np.nan_to_num(mine, nan=1.0)
        their_y = np.where(np.isnan(theirs), losses, self.pay(-cube)) if theirs is not None else losses
        my_y = np.where(np.isnan(mine), wins, self.pay(cube)) if mine is not None else wins
        crossed = their_x >= my_x
        if crossed.any():  # never with a sensible table: meet half way, as janowski.py
            middle_x, middle_y = (their_x + my_x) / 2, (self.pay(-cube) + self.pay(cube)) / 2
            their_x, my_x = np.where(crossed, middle_x, their_x), np.where(crossed, middle_x, my_x)
            their_y, my_y = np.where(crossed, middle_y, their_y), np.where(crossed, middle_y, my_y)
        return [np.zeros(n), their_x, my_x, np.ones(n)], [losses, their_y, my_y, wins]

    def cash_point(self, doubler: CubeOwner, cube: int) -> Floats | None:
        """Per position the cash point, NaN where there is none; None for all."""
        key = (doubler, cube)
        if key not in self._cash:
            self._cash[key] = self._cash_point(doubler, cube)
        return self._cash[key]

    def _cash_point(self, doubler: CubeOwner, cube: int) -> Floats | None:
        if not self._doubling or 2 * cube > CUBE_CAP:
            return None
        sign = 1 if doubler == CubeOwner.ME else -1
        if self.pay(sign * cube) == self.pay(sign * 2 * cube):
            return None  # one game already wins him the match: a double is always taken
        if doubler == CubeOwner.ME:
            point = _last_at_most(*self.curve(CubeOwner.OPPONENT, 2 * cube), self.pay(cube))
        else:
            point = _first_at_least(*self.curve(CubeOwner.ME, 2 * cube), self.pay(-cube))
        return np.where((point > 0.0) & (point < 1.0), point, np.nan)


def _at(xs: list[Floats], ys: list[Floats], p: Floats) -> Floats:
    """Each position's curve at its own ``p``; segments of no width are skipped."""
    value = ys[0].copy()
    for i in range(len(xs) - 1):
        width = xs[i + 1] - xs[i]
        inside = (p > xs[i]) & (p <= xs[i + 1]) & (width > 0)
        share = np.divide(p - xs[i], width, out=np.zeros_like(p), where=width > 0)
        value = np.where(inside, ys[i] + (ys[i + 1] - ys[i]) * share, value)
    return value


def _last_at_most(xs: list[Floats], ys: list[Floats], target: float) -> Floats:
    """Per position the largest x where the nondecreasing curve is at most ``target``."""
    point = xs[0].copy()
    for i in range(len(xs) - 1):  # left to right: the rightmost segment that counts wins
        rise = ys[i + 1] - ys[i]
        share = np.divide(target - ys[i], rise, out=np.zeros_like(rise), where=rise > 0)
        crossing = np.where(ys[i + 1] <= target, xs[i + 1], xs[i] + share * (xs[i + 1] - xs[i]))
        point = np.where(ys[i] <= target, crossing, point)
    return point


def _first_at_least(xs: list[Floats], ys: list[Floats], target: float) -> Floats:
    """Per position the smallest x where the nondecreasing curve is at least ``target``."""
    point = xs[-1].copy()
    for i in range(len(xs) - 2, -1, -1):  # right to left: the leftmost segment wins
        rise = ys[i + 1] - ys[i]
        share = np.divide(target - ys[i], rise, out=np.zeros_like(rise), where=rise > 0)
        crossing = np.where(ys[i] >= target, xs[i], xs[i] + share * (xs[i + 1] - xs[i]))
        point = np.where(ys[i + 1] >= target, crossing, point)
    return point
