"""Whether the mover's checkers can still walk the dice left to where a turn ends.

The search for a turn's first playing order (:meth:`DiceGame.find_turn`) walks the
dice one by one, highest point first, and must prove every earlier branch dead before
it takes a later one. On a low progressive double (chelebi's 1-1 plays 24 dice) a
weak test lets it wander through millions of states that can no longer end as
wanted; this one cuts most of them early. It serves the games whose checkers move
down a line of points 25 (the bar) to 1 and off (0), and in which the points closed
to the mover stay closed for the rest of the turn: tabla's family, where only a
single checker is ever hit, and gulbara, where nothing is.

Any way of playing the dice left can be read as a set of walks, one per *leaving*
checker (a point holds more of the mover's checkers now than at the end: that many
leave it), each ending on its own *arriving* slot (a point, or off, that holds more
at the end than now): where one checker ends on a point another leaves, join their
walks into one. A joined walk lands where its two parts landed, so in some order of
its dice it lands only on open points, and only its last die can bear off from
below. Hence:

- every leaving checker has a walk over open points to an arriving slot, and the
  fewest dice those walks need, added up, fit in the dice left;
- the leaving checkers and the arriving slots pair off, each checker with a slot it
  can walk to;
- each blot the turn must hit is landed on by one of the pairs' walks: its checker
  can walk to the blot's point and on from there to its slot.

In a turn that bears off, the order of the dice counts too. Nothing is borne off
before every checker is home, and each die moves its full number except one that
bears off from below, which takes the highest checker; so:

- the checkers outside home get there with the dice before the first bear-off, which
  leaves at least one die for each checker to bear off;
- a walk off ends with a die played after that, and wastes (bearing off from below)
  at most what the dice have beyond the pips the checkers move, all the walks off
  together no more than that;
- no checker ends the turn above a point that a die bears off from below.

What the test leaves out (which dice each walk takes, the order of the dice between
checkers, the bar's checkers entering first) only makes it weaker: it never refuses a
state the real turn can finish from. A test checks that against an exact search
(``tests/rules/test_walks.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import NamedTuple

Dice = tuple[tuple[int, int], ...]
"""Dice as ``(value, count)`` pairs, lowest value first."""
Walks = tuple[int, ...]
"""For each point 0 (off) to 24, the fewest dice a walk there takes, or 0 for none."""


class Reach(NamedTuple):
    """Where one checker can walk with some dice."""

    fewest: Walks
    least_waste: tuple[int, ...]
    """For each die 1-6 (at its number), the fewest pips a walk off that this die ends
    wastes bearing off from below (0 for an exact bear-off; BAR where it ends none)."""


BAR = 25
HOME = 6
MOST_HIT_CHOICES = 256
"""Beyond this many ways of choosing which pair hits each blot, the blots are left out
of the pairing (it is then checked without them)."""


def walks_fit(
    now: Sequence[int], then: Sequence[int], dice: Sequence[int], closed: int, hits: int = 0
) -> bool:
    """False when the mover's checkers ``now`` cannot walk ``dice`` to ``then``.

    ``now`` and ``then`` count the mover's checkers on points 0 (off) to 25 (the bar)
    and ``dice`` are in the order they are played; bit p of ``closed`` is set for each
    point 1-24 closed to him until the turn ends, and of ``hits`` for each point some
    checker must land on (a blot to hit).
    """
    checkers = [point for point in range(BAR, 0, -1) for _ in range(now[point] - then[point])]
    slots = [point for point in range(BAR - 1, -1, -1) for _ in range(then[point] - now[point])]
    if not checkers and dice:
        return False
    counted = tuple(sorted(Counter(dice).items()))
    reaches = [_walks(start, counted, closed) for start in checkers]
    walks = [reach.fewest for reach in reaches]
    if then[0] > now[0]:
        bearing_off = _bearing_off(now, then, dice, closed, reaches, slots)
        if bearing_off is None:
            return False
        walks = bearing_off
    # A checker with no walk to any slot counts for more dice than there are.
    fewest = sum(min((walk[end] for end in slots if walk[end]), default=len(dice) + 1) for walk in walks)
    if fewest > len(dice):
        return False
    hitters = [_hitters(point, checkers, slots, walks, counted, closed) for point in _bits(hits)]
    choices = 1
    for pairs in hitters:
        choices *= len(pairs)
    if choices > MOST_HIT_CHOICES:
        hitters = []
    for chosen in product(*hitters):
        fixed = dict(chosen)
        # One pair may hit several blots; a checker or a slot in two pairs may not.
        if len(fixed) == len(set(chosen)) == len(set(fixed.values())) and _pair_off(walks, slots, fixed):
            return True
    return False


def _bits(mask: int) -> list[int]:
    return [point for point in range(1, BAR) if mask >> point & 1]


def _hitters(
    point: int, checkers: list[int], slots: list[int], walks: list[Walks], dice: Dice, closed: int
) -> list[tuple[int, int]]:
    """The pairs (checker, slot), by index, whose walk can land on ``point`` on the way."""
    onwards = _walks(point, dice, closed).fewest
    return [
        (checker, slot)
        for checker, start in enumerate(checkers)
        if start > point and walks[checker][point]
        for slot, end in enumerate(slots)
        if end == point or (end < point and onwards[end])
    ]


def _pair_off(walks: list[Walks], slots: list[int], fixed: dict[int, int]) -> bool:
    """Whether the checkers pair off with the slots, each with one it can walk to, the
    ``fixed`` pairs (checker to slot) given (augmenting paths: a bipartite matching)."""
    owner = [-1] * len(slots)
    taken = set(fixed.values())

    def place(checker: int, seen: set[int]) -> bool:
        for slot, end in enumerate(slots):
            if walks[checker][end] and slot not in seen and slot not in taken:
                seen.add(slot)
                if owner[slot] < 0 or place(owner[slot], seen):
                    owner[slot] = checker
                    return True
        return False

    return all(place(checker, set()) for checker in range(len(walks)) if checker not in fixed)


@lru_cache(maxsize=1 << 12)
def _first_bear_off(
    outside: tuple[int, ...], dice: tuple[int, ...], closed: int, borne_off: int
) -> int | None:
    """The fewest dice that can be played before the turn's first bear-off (the
    checkers ``outside`` home have got there), or None when too few are left to bear
    off ``borne_off`` checkers after that."""
    # Before the first bear-off every die moves its full number, and the checkers
    # outside home go there with those dice alone.
    pips = sum(point - HOME for point in outside)
    for first in range(len(outside), len(dice) - borne_off + 1):
        if sum(dice[:first]) >= pips and _home_in(outside, dice[:first], closed):
            return first
    return None


def _home_in(outside: tuple[int, ...], dice: Sequence[int], closed: int) -> bool:
    """Whether checkers ``outside`` home can each get there with their own of ``dice``."""
    counted = tuple(sorted(Counter(dice).items()))
    needed = 0
    for start in outside:
        fewest = _walks(start, counted, closed).fewest
        homes = [fewest[point] for point in range(1, HOME + 1) if fewest[point]]
        if not homes:
            return False
        needed += min(homes)
    return needed <= len(dice)


def _bearing_off(
    now: Sequence[int],
    then: Sequence[int],
    dice: Sequence[int],
    closed: int,
    reaches: list[Reach],
    slots: list[int],
) -> list[Walks] | None:
    """The checkers' walks in a turn that bears off, less the walks off that the order
    of the dice rules out; None when it rules out the turn."""
    outside = tuple(point for point in range(HOME + 1, BAR + 1) for _ in range(now[point]))
    borne_off = then[0] - now[0]
    first = _first_bear_off(outside, tuple(dice), closed, borne_off) if outside else 0
    if first is None:
        return None
    # Each die moves its checker its full number, except one bearing off from below,
    # which wastes the pips it has beyond the point it leaves: together they waste
    # what the dice have beyond the pips the checkers move.
    spare = sum(dice) - sum(point * (now[point] - then[point]) for point in range(1, BAR + 1))
    last_dice = set(dice[first:])
    # A die bears off from below the highest checker only, and none ends higher.
    top = max((point for point in range(1, BAR + 1) if then[point]), default=0)
    wastes = [min((_waste(reach, die, top) for die in last_dice), default=BAR) for reach in reaches]
    walks = [
        (0, *reach.fewest[1:]) if reach.fewest[0] and waste > spare else reach.fewest
        for reach, waste in zip(reaches, wastes, strict=True)
    ]
    # The checkers that can go nowhere else go off, and others fill the other places
    # off: all of them waste at least their least.
    landings = {end for end in slots if end}
    forced: list[int] = []
    free: list[int] = []
    for walk, waste in zip(walks, wastes, strict=True):
        if walk[0]:
            (free if any(walk[end] for end in landings) else forced).append(waste)
    if sum(forced) + sum(sorted(free)[: max(0, borne_off - len(forced))]) > spare:
        return None
    return walks


def _waste(reach: Reach, die: int, top: int) -> int:
    """The fewest pips ``die`` wastes ending a walk off when ``top`` is the highest
    point a checker ends the turn on: bearing off from below, it leaves no lower point."""
    waste = reach.least_waste[die]
    # The least waste is that of the highest point the die bears off from.
    return waste if waste == 0 or die - waste >= top else BAR


@lru_cache(maxsize=1 << 14)
def _walks(start: int, dice: Dice, closed: int) -> Reach:
    """For each point 0 (off) to 24, the fewest of ``dice`` that take one checker from
    ``start`` there in some order over open points, or 0 where none do; and the pips
    each die wastes ending a walk off. Only the last die may bear off from below (land
    past 0)."""
    values = tuple(value for value, _ in dice)
    limits = tuple(count for _, count in dice)
    fewest = [0] * BAR
    least_waste = [BAR] * 7
    # Breadth-first over the shares of the dice played (a count of each value): a
    # share fixes the point reached, whatever the order, and is met first with the
    # fewest dice.
    level = [tuple(0 for _ in dice)]
    seen = set(level)
    used = 0
    while level:
        used += 1
        following = []
        for share in level:
            point = start - sum(value * count for value, count in zip(values, share, strict=True))
            for index, value in enumerate(values):
                if share[index] == limits[index]:
                    continue
                landing = point - value
                if landing <= 0:
                    fewest[0] = fewest[0] or used  # borne off: this checker plays no more
                    least_waste[value] = min(least_waste[value], -landing)
                    continue
                longer = (*share[:index], share[index] + 1, *share[index + 1 :])
                if longer in seen:
                    continue
                seen.add(longer)
                if not closed >> landing & 1:
                    fewest[landing] = fewest[landing] or used
                    following.append(longer)
        level = following
    return Reach(tuple(fewest), tuple(least_waste))
