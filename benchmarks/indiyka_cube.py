"""How good is Janowski's cube for indiyka? Against the exact cube of late races.

    .venv/bin/python benchmarks/indiyka_cube.py [--left 4] [--lives 0,0.2,0.4,0.6,0.68,0.8,1]

Late in an indiyka game both players are removing and few checkers are left: there the
cubeful money game can be solved exactly. For every pair of sides with at most
``--left`` checkers each (all entered), value iteration finds the equity of the player
on roll, per unit of cube, with the cube centred, his or his opponent's, and the right
actions (a cube with no cap: the levels repeat, money play is the same at every
value). The script then asks tavla.bots.indiyka_exact's exact chances and
tavla.bots.cube (Janowski's model) for each cube-life index ``x`` and prints, over the
positions with the cube centred: how often the double and the take agree with the
exact ones, and the mean and largest error of the no-double equity.
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
from numpy.typing import NDArray
from rich.console import Console
from rich.table import Table

from tavla.bots.cube import Answer, CubeAction, CubeContext, chances, double_decision
from tavla.bots.indiyka_exact import Side, races, side_after
from tavla.core.dice import ROLLS

CENTRED, MINE, THEIRS = range(3)
FLIP = (CENTRED, THEIRS, MINE)
"""Ownership seen by the next player on roll."""
DOUBLING = (CENTRED, MINE)


def late_sides(left: int) -> list[Side]:
    """Every side with all fifteen entered and 1 to ``left`` checkers still on points 1-6."""
    sides = [(*board, 0) for board in itertools.product(range(left + 1), repeat=6) if 0 < sum(board) <= left]
    return sorted(sides, key=sum)


def exact_cube(sides: list[Side]) -> tuple[NDArray[np.float64], int]:
    """Value iteration. ``value[o, a, b]`` is the equity per unit of cube of the player on
    roll with side ``a`` against ``b``, the cube owned as ``o``, before any cube action;
    the answer, ``no_double[o, a, b]``, is the same if he keeps the cube where it is
    (returned with the number of sweeps it took)."""
    index = {side: i for i, side in enumerate(sides)}
    n = len(sides)
    chance = np.array([float(c) for _, c in ROLLS])
    after = np.array([[index.get(side_after(side, roll), -1) for roll, _ in ROLLS] for side in sides])
    finished = after < 0  # the roll removes his last checker: he wins the cube
    safe = np.where(finished, 0, after)
    value = np.zeros((3, n, n))
    sweeps = 0
    while sweeps < 2000:
        sweeps += 1
        no_double = np.empty_like(value)
        for owner in (CENTRED, MINE, THEIRS):
            # theirs[a, b, r]: the next roller's value with side b against my side after roll r
            theirs = value[FLIP[owner]][:, safe].transpose(1, 0, 2)
            outcome = np.where(finished[:, None, :], 1.0, -theirs)
            no_double[owner] = outcome @ chance
        doubled = np.minimum(2 * no_double[THEIRS], 1.0)  # the taker then holds the cube at 2
        new = no_double.copy()
        for owner in DOUBLING:
            new[owner] = np.maximum(no_double[owner], doubled)
        change = float(np.abs(new - value).max())
        value = new
        if change < 1e-12:
            break
    return no_double, sweeps


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--left", type=int, default=4, help="most checkers each side has left")
    parser.add_argument("--lives", default="0,0.2,0.4,0.5,0.6,0.68,0.8,1", help="cube-life indices to try")
    args = parser.parse_args()
    console = Console(width=120)
    started = time.perf_counter()
    sides = late_sides(args.left)
    no_double, sweeps = exact_cube(sides)
    solved = time.perf_counter() - started
    table = races()
    pairs = [(a, b) for a in range(len(sides)) for b in range(len(sides))]
    win = np.array([table.win_chance(sides[a], sides[b]) for a, b in pairs])
    exact_nd = np.array([no_double[CENTRED, a, b] for a, b in pairs])
    doubled = np.array([2 * no_double[THEIRS, a, b] for a, b in pairs])
    exact_double = np.minimum(doubled, 1.0) > exact_nd
    exact_take = doubled <= 1.0
    console.print(
        f"{len(sides)} sides with 1 to {args.left} checkers left, {len(pairs):,} positions: "
        f"solved exactly in {sweeps} sweeps, {solved:.1f} s"
    )
    result = Table(title="Janowski's cube against the exact cube, centred cube, money")
    for column in ("x", "double agrees", "take agrees", "mean |error| no double", "largest error"):
        result.add_column(column, justify="right")
    for life in (float(text) for text in args.lives.split(",")):
        context = CubeContext(cube_life=life)
        decisions = [double_decision(chances([p, 0, 0, 0, 0]), context) for p in win]
        doubles = np.array([d.action in (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS) for d in decisions])
        takes = np.array([d.answer == Answer.TAKE for d in decisions])
        error = np.abs(np.array([d.no_double for d in decisions]) - exact_nd)
        result.add_row(
            f"{life:g}",
            f"{np.mean(doubles == exact_double):.1%}",
            f"{np.mean(takes == exact_take):.1%}",
            f"{error.mean():.4f}",
            f"{error.max():.4f}",
        )
    console.print(result)


if __name__ == "__main__":
    main()
