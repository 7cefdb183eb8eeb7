"""Exact Abluka endgames once the two kings are in separate regions.

When no chain of empty squares joins the kings, each king lives on in its own
region, but the game is still contested: every turn each player puts a blocker, and
the best place for it is inside the *other* region. Blocking there never hurts the
blocker (a king with fewer squares is never better off), so the game splits into two
independent survival games:

* ``mover_first(p, cells)``: how many steps the king on ``p`` makes among ``cells``
  when it steps first and an adversary then blocks one square after each step;
* ``blocker_first(p, cells)``: the same when the adversary blocks first.

With the side to move surviving ``a = mover_first`` turns and the other side
``b = blocker_first``, the side to move makes steps 1, 2, ... before the other side
makes the step of the same number, so it wins exactly when ``a > b``. Neither "the
bigger region wins" nor "the longest path wins" is right: a corridor of 4 squares
loses to a compact group of 3 (see the tests), because each blocker next to the king
in a corridor cuts it.

Answers are memoised by (king square, the region's squares within reach, steps asked)
and carry over between calls; the tests check the solver against brute force.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from tavla.rules.abluka.board import BIT, FULL, NEIGHBOURS, grow, reachable, squares_of


def _grow_times(mask: int, times: int) -> int:
    for _ in range(times):
        mask = grow(mask)
    return mask


class OutOfBudget(Exception):
    """The exact solution needs more nodes than allowed."""


@dataclass(frozen=True, slots=True)
class Regions:
    """The empty squares each king can still reach (its own square excluded)."""

    mover: int
    waiter: int


def separated_regions(mover: int, waiter: int, blockers: int) -> Regions | None:
    """Both kings' regions when no path of empty squares joins them, else None."""
    free = FULL & ~(blockers | BIT[mover] | BIT[waiter])
    mine = reachable(BIT[mover], free | BIT[waiter])
    if mine & BIT[waiter]:
        return None
    return Regions(mine, reachable(BIT[waiter], free))


#: BALLS[n][s]: squares within n king steps of ``s`` (``n`` = 0..7).
BALLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_grow_times(BIT[square], n) for square in range(49)) for n in range(8)
)


class SurvivalSolver:
    """Exact survival counts with memos; ``budget`` bounds new nodes per top-level call.

    The searches answer threshold questions, "can the king make ``n`` more steps?",
    which lets the blocker consider only squares within ``n`` steps of the king: a
    blocker farther away cannot touch the next ``n`` steps, so it is no better for
    the blocker than a square next to the king (fewer squares never help a king).
    """

    def __init__(self, budget: int = 200_000) -> None:
        self.budget = budget
        self._left = budget
        self._steps: dict[int, bool] = {}
        self._blocked: dict[int, bool] = {}
        self._too_big: set[tuple[int, int, int, int]] = set()
        #: ``time.perf_counter()`` after which every search gives up as if out of budget.
        self.deadline = float("inf")

    # ------------------------------------------------------------------ public
    def counts(self, mover: int, waiter: int, regions: Regions) -> tuple[int, int] | None:
        """``(a, b)``: the side to move's count (stepping first), the other's (blocked first).

        ``b`` is exact; ``a`` is exact when ``a <= b`` and otherwise ``b + 1`` (enough to
        know that the side to move wins). None when the budget runs out.
        """
        key = (mover, waiter, regions.mover, regions.waiter)
        if key in self._too_big:
            return None
        self._left = self.budget
        try:
            theirs = self._count(waiter, regions.waiter, self.blocked_survives)
            mine = self._count(mover, regions.mover, self.survives, theirs + 1)
        except OutOfBudget:
            self._too_big.add(key)
            return None
        return mine, theirs

    def mover_wins(self, mover: int, waiter: int, blockers: int) -> bool | None:
        """Whether the side to move wins a separated position; None if not separated or too big."""
        regions = separated_regions(mover, waiter, blockers)
        if regions is None:
            return None
        found = self.counts(mover, waiter, regions)
        return None if found is None else found[0] > found[1]

    def mover_first(self, king: int, cells: int) -> int:
        """Steps the king on ``king`` makes in ``cells`` stepping first (exact)."""
        self._left = self.budget
        return self._count(king, cells, self.survives)

    def blocker_first(self, king: int, cells: int) -> int:
        """Steps the king on ``king`` makes in ``cells`` when the adversary blocks first."""
        self._left = self.budget
        return self._count(king, cells, self.blocked_survives)

    @staticmethod
    def _count(king: int, cells: int, test: Callable[[int, int, int], bool], cap: int = 64) -> int:
        steps = 0
        while steps < cap and test(king, cells, steps + 1):
            steps += 1
        return steps

    # ---------------------------------------------------------------- the games
    def survives(self, king: int, cells: int, steps: int) -> bool:
        """Can the king on ``king`` make ``steps`` steps in ``cells``, stepping first?"""
        if steps <= 0:
            return True
        moves = NEIGHBOURS[king] & cells
        if not moves:
            return False
        if steps == 1:
            return True
        if steps > cells.bit_count():
            return False
        key = ((cells & BALLS[steps if steps < 7 else 7][king]) << 12) | (steps << 6) | king
        known = self._steps.get(key)
        if known is not None:
            return known
        self._spend()
        answer = False
        left = BIT[king]
        while moves:
            low = moves & -moves
            moves ^= low
            if self.blocked_survives(low.bit_length() - 1, (cells ^ low) | left, steps - 1):
                answer = True
                break
        self._steps[key] = answer
        return answer

    def blocked_survives(self, king: int, cells: int, steps: int) -> bool:
        """Can the king make ``steps`` steps in ``cells`` when the adversary blocks first?"""
        if steps <= 0:
            return True
        near = NEIGHBOURS[king] & cells
        if near & (near - 1) == 0:  # at most one free neighbour: block it
            return False
        key = ((cells & BALLS[steps if steps < 7 else 7][king]) << 12) | (steps << 6) | king
        known = self._blocked.get(key)
        if known is not None:
            return known
        self._spend()
        answer = True
        # Squares next to the king first: they usually refute soonest.
        for group in (near, cells & BALLS[steps if steps < 7 else 7][king] & ~near):
            while group:
                low = group & -group
                group ^= low
                if not self.survives(king, cells ^ low, steps):
                    answer = False
                    break
            if not answer:
                break
        self._blocked[key] = answer
        return answer

    def _spend(self) -> None:
        self._left -= 1
        if self._left < 0 or (not self._left & 127 and time.perf_counter() > self.deadline):
            raise OutOfBudget

    def forget_failures(self) -> None:
        """Let regions that ran out of budget (or time) be tried again."""
        self._too_big.clear()


def endgame_turn(
    mover: int, waiter: int, blockers: int, solver: SurvivalSolver
) -> tuple[int, int, bool] | None:
    """The best turn ``(to, block, wins)`` in a separated position, or None.

    The step that leaves the most turns (the opponent blocking first from now on)
    and the blocker that leaves the opponent the fewest (he steps first) are
    independent choices, because the two regions are independent games. None when
    the kings are not separated or the solver runs out of budget.
    """
    regions = separated_regions(mover, waiter, blockers)
    if regions is None:
        return None
    try:
        best_to, best_mine = -1, -1
        for to in squares_of(NEIGHBOURS[mover] & regions.mover):
            cells = reachable(BIT[to], (regions.mover ^ BIT[to]) | BIT[mover])
            mine = solver.blocker_first(to, cells)
            if mine > best_mine:
                best_to, best_mine = to, mine
        if best_to < 0:
            return None
        best_block, best_theirs = mover, 0
        if regions.waiter:
            best_theirs = 99
            for block in squares_of(regions.waiter):
                cells = reachable(BIT[waiter], regions.waiter ^ BIT[block])
                theirs = solver.mover_first(waiter, cells)
                if theirs < best_theirs:
                    best_block, best_theirs = block, theirs
    except OutOfBudget:
        return None
    return best_to, best_block, best_mine >= best_theirs
