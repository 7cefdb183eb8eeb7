"""The engine's static evaluation (docs/abluka-engine.md, "How it searches"), recomputed here
square by square from its definition: territory, mobility, reach in two steps and the
bottleneck of a king whose free neighbours fall apart."""

from __future__ import annotations

import random
from collections import deque

import pytest

from tavla.bots.abluka.evaluation import (
    BOTTLENECK_WEIGHT,
    MOBILITY_WEIGHT,
    REACH2_WEIGHT,
    TERRITORY_WEIGHT,
    evaluate,
)
from tavla.rules.abluka.board import BIT

pytestmark = pytest.mark.timeout(60)

Square = tuple[int, int]


def around(square: Square) -> set[Square]:
    f, r = square
    return {
        (f + df, r + dr)
        for df in (-1, 0, 1)
        for dr in (-1, 0, 1)
        if (df or dr) and 0 <= f + df < 7 and 0 <= r + dr < 7
    }


def first_reached(mover: Square, waiter: Square, empty: set[Square]) -> tuple[set[Square], set[Square]]:
    """Squares each king reaches first, one step at a time, the mover first on a tie."""
    owner = {mover: 0, waiter: 1}
    fronts = [{mover}, {waiter}]
    while fronts[0] or fronts[1]:
        for side in (0, 1):
            fronts[side] = {n for s in fronts[side] for n in around(s) if n in empty and n not in owner}
            owner.update(dict.fromkeys(fronts[side], side))
    return {s for s, v in owner.items() if v == 0}, {s for s, v in owner.items() if v == 1}


def groups(square: Square, empty: set[Square]) -> int:
    free, count = around(square) & empty, 0
    while free:
        count += 1
        queue = deque([free.pop()])
        while queue:
            for n in around(queue.popleft()) & free:
                free.discard(n)
                queue.append(n)
    return count


def expected(mover: Square, waiter: Square, empty: set[Square]) -> int:
    mine, theirs = map(len, first_reached(mover, waiter, empty))
    my_steps, their_steps = around(mover) & empty, around(waiter) & empty
    reach = [len({n for s in steps for n in around(s) | {s}} & empty) for steps in (my_steps, their_steps)]
    score = TERRITORY_WEIGHT * (mine - theirs) + MOBILITY_WEIGHT * (len(my_steps) - len(their_steps))
    score += REACH2_WEIGHT * (reach[0] - reach[1])
    score -= BOTTLENECK_WEIGHT * (groups(mover, empty) > 1)
    score += BOTTLENECK_WEIGHT * (groups(waiter, empty) > 1)
    return score


def index(square: Square) -> int:
    return square[1] * 7 + square[0]


def test_the_evaluation_is_the_sum_of_its_terms() -> None:
    rng = random.Random(7)
    squares = [(f, r) for f in range(7) for r in range(7)]
    checked = bottlenecks = 0
    while checked < 150:
        mover, waiter, *blocked = rng.sample(squares, 2 + rng.randint(8, 30))
        empty = set(squares) - {mover, waiter, *blocked}
        mine, theirs = first_reached(mover, waiter, empty)
        if not around(mover) & empty or not any(around(s) & theirs for s in mine):
            continue  # no step (lost), or territories apart: scored as separated kings instead
        blockers = sum(BIT[index(s)] for s in blocked)
        found = evaluate(index(mover), index(waiter), blockers, None, 0)
        assert found == expected(mover, waiter, empty), (mover, waiter, sorted(blocked))
        bottlenecks += groups(mover, empty) > 1 or groups(waiter, empty) > 1
        checked += 1
    assert bottlenecks >= 10
