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

from tavla.bots.cube.context import CUBE_CAP, CubeContext, CubeOwner
from tavla.bots.cube.convention import WIN, Chances, single_only

Curve = tuple[list[float], list[float]]
"""A piecewise linear curve of ``p``: its break points and the values there."""


class CubefulModel:
    """The cubeful equity of one position's chances under one context, for any cube.

    Equities are for the player on roll: points (money, not divided by the cube) or
    the chance to win the match.
    """

    def __init__(self, values: Chances, context: CubeContext) -> None:
        self.p = float(values[WIN])
        # Jacoby (RULES.md 9.2): while the cube is centred and unturned, gammons count 1.
        centred = single_only(values) if context.jacoby else values
        self._rates = {False: _floats(values), True: _floats(centred)}
        self._payoff: Callable[[int], float] = context.payoff()
        self._life = context.cube_life
        self._doubling = context.doubling_allowed
        # A decision asks for the same values and points many times over: keep them.
        self._paid: dict[int, float] = {}
        self._worth: dict[tuple[int, bool], tuple[float, float]] = {}
        self._cash: dict[tuple[CubeOwner, int], float | None] = {}

    # ------------------------------------------------------------ game values
    def pay(self, points: int) -> float:
        """The worth of scoring ``points`` in this game (negative: conceding them)."""
        paid = self._paid.get(points)
        if paid is None:
            paid = self._paid[points] = self._payoff(points)
        return paid

    def win_value(self, cube: int, *, centred: bool = False) -> float:
        """The average worth of a win with the cube at ``cube``."""
        return self._values(cube, centred)[0]

    def loss_value(self, cube: int, *, centred: bool = False) -> float:
        """The average worth of a loss with the cube at ``cube``."""
        return self._values(cube, centred)[1]

    def _values(self, cube: int, centred: bool) -> tuple[float, float]:
        known = self._worth.get((cube, centred))
        if known is not None:
            return known
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = self._rates[centred]
        pay, lose = self.pay, 1.0 - win
        # A side that never wins (or loses) gets any value: it is weighted by 0.
        wins = pay(cube)
        if win > 0.0:
            gammons = (win_gammon - win_backgammon) * pay(2 * cube) + win_backgammon * pay(3 * cube)
            wins = ((win - win_gammon) * wins + gammons) / win
        losses = pay(-cube)
        if lose > 0.0:
            gammons = (lose_gammon - lose_backgammon) * pay(-2 * cube) + lose_backgammon * pay(-3 * cube)
            losses = ((lose - lose_gammon) * losses + gammons) / lose
        self._worth[cube, centred] = (wins, losses)
        return wins, losses

    # ------------------------------------------------------------ equities
    def equity(self, holder: CubeOwner, cube: int) -> float:
        """The cubeful equity with the cube at ``cube`` held by ``holder`` (seen from
        the player on roll), before any cube action: Janowski's mix of live and dead."""
        wins, losses = self._values(cube, holder == CubeOwner.CENTRED)
        dead = self.p * wins + (1 - self.p) * losses
        live = _at(*self.curve(holder, cube), self.p)
        return self._life * live + (1 - self._life) * dead

    def curve(self, holder: CubeOwner, cube: int) -> Curve:
        """The fully live equity as a function of ``p`` (break points, values)."""
        wins, losses = self._values(cube, holder == CubeOwner.CENTRED)
        xs = [0.0]
        ys = [losses]
        theirs = self.cash_point(CubeOwner.OPPONENT, cube) if holder != CubeOwner.ME else None
        mine = self.cash_point(CubeOwner.ME, cube) if holder != CubeOwner.OPPONENT else None
        if theirs is not None and mine is not None and theirs >= mine:
            # Each side would cash before the other's point: never with a sensible
            # table; meet half way rather than draw a curve that turns back.
            xs.append((theirs + mine) / 2)
            ys.append((self.pay(-cube) + self.pay(cube)) / 2)
        else:
            if theirs is not None:
                xs.append(theirs)
                ys.append(self.pay(-cube))
            if mine is not None:
                xs.append(mine)
                ys.append(self.pay(cube))
        xs.append(1.0)
        ys.append(wins)
        return xs, ys

    def cash_point(self, doubler: CubeOwner, cube: int) -> float | None:
        """The ``p`` at which ``doubler``'s double from ``cube`` is a cash: his opponent
        is just indifferent between taking and passing. None when he cannot double
        from ``cube`` or his double is never passed (a dead cube)."""
        key = (doubler, cube)
        if key not in self._cash:
            self._cash[key] = self._cash_point(doubler, cube)
        return self._cash[key]

    def _cash_point(self, doubler: CubeOwner, cube: int) -> float | None:
        if not self._doubling or 2 * cube > CUBE_CAP:
            return None
        sign = 1 if doubler == CubeOwner.ME else -1
        if self.pay(sign * cube) == self.pay(sign * 2 * cube):
            return None  # one game already wins him the match: a double is always taken
        if doubler == CubeOwner.ME:
            # The opponent takes while his holding the cube at 2v leaves me no more
            # than my cash: the largest such p.
            xs, ys = self.curve(CubeOwner.OPPONENT, 2 * cube)
            point = _last_at_most(xs, ys, self.pay(cube))
        else:
            xs, ys = self.curve(CubeOwner.ME, 2 * cube)
            point = _first_at_least(xs, ys, self.pay(-cube))
        return point if 0.0 < point < 1.0 else None


def _floats(values: Chances) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def _at(xs: list[float], ys: list[float], p: float) -> float:
    """The piecewise linear curve's value at ``p`` (0 <= p <= 1)."""
    for i in range(1, len(xs)):
        if p <= xs[i]:
            return ys[i - 1] + (ys[i] - ys[i - 1]) * (p - xs[i - 1]) / (xs[i] - xs[i - 1])
    return ys[-1]


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
