"""A static evaluation of Abluka positions, from the side to move's point of view.

Terms, all from bitboards:

* mobility at several distances: free neighbours (distance 1) and squares reachable
  within two steps, mine minus the opponent's;
* territory: a breadth-first search from both kings at once over the empty squares;
  a square belongs to the king that reaches it first (the side to move on ties,
  since it steps first);
* articulation: a king whose free neighbours fall apart into several groups around
  it stands on a cut square of its territory (a bottleneck), which is penalised;
* separation: when the territories never touch, the kings are in separate regions
  and the exact endgame solver (``endgame``) decides the game if it is small enough.
"""

from __future__ import annotations

from tavla.bots.abluka.endgame import Regions, SurvivalSolver
from tavla.rules.abluka.board import BIT, FULL, NEIGHBOURS, NOT_FILE_A, NOT_FILE_G, grow

WIN = 1_000_000
#: Scores beyond this are wins or losses (with the distance to the end).
WIN_THRESHOLD = WIN - 1000

TERRITORY_WEIGHT = 10
MOBILITY_WEIGHT = 12
REACH2_WEIGHT = 3
BOTTLENECK_WEIGHT = 8
SEPARATED_WEIGHT = 400


_GROUPS: dict[int, int] = {}


def neighbour_groups(king: int, empty: int) -> int:
    """How many separate groups the free neighbours of ``king`` form around it."""
    free = NEIGHBOURS[king] & empty
    known = _GROUPS.get(free)
    if known is not None:
        return known
    _GROUPS[free] = groups = _count_groups(free)
    return groups


def _count_groups(free: int) -> int:
    groups = 0
    while free:
        seed = free & -free
        group = seed
        while True:
            wider = (grow(group) & free) | group
            if wider == group:
                break
            group = wider
        free &= ~group
        groups += 1
    return groups


def territories(mover: int, waiter: int, empty: int) -> tuple[int, int]:
    """The squares each king reaches first (its own square included); ties go to the mover."""
    mine = BIT[mover]
    theirs = BIT[waiter]
    open_ = empty
    my_front = mine
    their_front = theirs
    not_a, not_g, full = NOT_FILE_A, NOT_FILE_G, FULL
    while my_front or their_front:
        # grow() inlined: this loop is the hottest code of the engine.
        row = my_front | ((my_front << 1) & not_a) | ((my_front >> 1) & not_g)
        my_front = (row | (row << 7) | (row >> 7)) & full & open_
        open_ ^= my_front
        mine |= my_front
        row = their_front | ((their_front << 1) & not_a) | ((their_front >> 1) & not_g)
        their_front = (row | (row << 7) | (row >> 7)) & full & open_
        open_ ^= their_front
        theirs |= their_front
    return mine, theirs


def separated_score(mover: int, waiter: int, regions: Regions, solver: SurvivalSolver, ply: int) -> int:
    """The score of a separated position: exact when the solver manages, else by region size."""
    counts = solver.counts(mover, waiter, regions)
    if counts is None:
        difference = regions.mover.bit_count() - regions.waiter.bit_count()
        return SEPARATED_WEIGHT * (difference if difference != 0 else 1)
    mine, theirs = counts
    # A side is lost on the turn it has no step, scored by that turn's ply as in the
    # search: the other side's (theirs + 1)-th turn, or the mover's (mine + 1)-th.
    if mine > theirs:
        return WIN - (ply + 2 * theirs + 1)
    return -WIN + (ply + 2 * mine)


def evaluate(mover: int, waiter: int, blockers: int, solver: SurvivalSolver | None, ply: int) -> int:
    """The value of the position for the side to move (who has at least one step)."""
    empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
    mine, theirs = territories(mover, waiter, empty)
    if not grow(mine) & theirs:
        regions = Regions(mine & empty, theirs & empty)
        if solver is not None:
            return separated_score(mover, waiter, regions, solver, ply)
        difference = regions.mover.bit_count() - regions.waiter.bit_count()
        return SEPARATED_WEIGHT * (difference if difference != 0 else 1)
    my_steps = NEIGHBOURS[mover] & empty
    their_steps = NEIGHBOURS[waiter] & empty
    score = TERRITORY_WEIGHT * (mine.bit_count() - theirs.bit_count())
    score += MOBILITY_WEIGHT * (my_steps.bit_count() - their_steps.bit_count())
    score += REACH2_WEIGHT * ((grow(my_steps) & empty).bit_count() - (grow(their_steps) & empty).bit_count())
    if neighbour_groups(mover, empty) > 1:
        score -= BOTTLENECK_WEIGHT
    if neighbour_groups(waiter, empty) > 1:
        score += BOTTLENECK_WEIGHT
    return score
