"""Reading a whole-turn text on a roll whose turns are too many to list (RULES.md 4).

Chelebi's 1-1 plays 24 dice and can have over a million legal turns, so the turn a
text names is searched for instead of picked from a list. The text fixes the mover's
checkers after the turn and, since canonical text names every point where a checker
hits, the opponent's too: the *wanted* state. Two depth-first searches look for one
legal turn ending exactly there, using the game's own step function for every step:

1. along the text's paths: each path is one checker's journey, and each die goes to a
   checker that is not finished, landing no further than the next point the path
   names; a path that the dice left can no longer walk cuts the branch at once;
2. over whole boards (for texts whose paths no checker can walk as written, such as
   ``13/5`` where the checker really went 13/7 and another 7/5).

Both cut states that cannot end as wanted: a checker past where the target needs it,
pips that do not fit the dice left (a bear-off is the only move that leaves pips
unused), a point still short of checkers or a blot still to hit at no exact distance
of the dice left. A text that leaves out a point where a checker hit on the way is
tried with each set of such blots hit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations, pairwise

from tavla.rules.backgammon.movegen import State
from tavla.rules.movetext import Step
from tavla.rules.turns import StepFunction

Path = tuple[int, ...]
Found = tuple[tuple[Step, ...], State]


class TextSearch:
    """The legal turns that ``paths`` (a parsed move text) can mean from ``start``.

    ``sequences`` are the dice orders of the roll, each cut to the ``dice_played``
    dice a legal turn plays; ``target`` is the mover's half of the state the text
    leads to (``start[:26]`` with the paths applied).
    """

    def __init__(
        self,
        start: State,
        sequences: Sequence[Sequence[int]],
        step_function: StepFunction[State, Step],
        paths: Sequence[Path],
        target: tuple[int, ...],
    ) -> None:
        self.start = start
        self.sequences = [tuple(dice) for dice in sequences]
        self.step_function = step_function
        self.paths = tuple(paths)
        self.target = target

    def turns(self) -> list[Found]:
        """``(steps, final state)`` of each legal turn the text can mean."""
        if not self._fits_some_dice():
            return []
        wanted = self._landing_hits()
        found = self._reaching(wanted)
        if found is not None:
            return [found]
        results: list[Found] = []
        skipped = self._skipped_blots()
        for size in range(1, len(skipped) + 1):
            for hit in combinations(skipped, size):
                state = list(wanted)
                for point in hit:
                    state[51 - point] = 0
                state[51] += len(hit)
                found = self._reaching(tuple(state))
                if found is not None:
                    results.append(found)
        return results

    # ----------------------------------------------------------- quick refusals
    def _fits_some_dice(self) -> bool:
        """Pips that some dice order can move, and paths that dice order can walk."""
        start, target = self.start, self.target
        moved = sum(p * n for p, n in enumerate(start[:26])) - sum(p * n for p, n in enumerate(target))
        waste = waste_per_bear_off(target)
        for dice in self.sequences:
            spare = sum(dice) - moved
            if 0 <= spare <= (target[0] - start[0]) * waste(max(dice, default=0)) and all(
                walkable(path, dice, start) for path in self.paths
            ):
                return True
        return False

    def _landing_hits(self) -> State:
        """The whole state after the text if every blot on a point it lands on (a path's
        end or a written intermediate point) is hit, and no other."""
        state = list(self.start)
        state[:26] = self.target
        for point in {p for path in self.paths for p in path[1:] if 0 < p < 25}:
            if state[51 - point] == 1:
                state[51 - point] = 0
                state[51] += 1
        return tuple(state)

    def _skipped_blots(self) -> list[int]:
        """Blots strictly between two points a path names: hit, maybe, unwritten."""
        landed = {point for path in self.paths for point in path[1:]}
        return sorted(
            point
            for point in range(1, 25)
            if self.start[51 - point] == 1 and point not in landed
            and any(low < point < high for path in self.paths for high, low in pairwise(path))
        )  # fmt: skip

    # ---------------------------------------------------------------- searches
    def _reaching(self, wanted: State) -> Found | None:
        for dice in self.sequences:
            cuts = Cuts(wanted, dice)
            steps = PathWalk(self, wanted, dice, cuts).run()
            if steps is None:
                steps = BoardWalk(self, wanted, dice, cuts).run()
            if steps is not None:
                return steps, wanted
        return None


class Cuts:
    """Tests that a state after ``index`` dice can still end as ``wanted``."""

    def __init__(self, wanted: State, dice: Sequence[int]) -> None:
        self.wanted = wanted
        self.reachable = keeps_reachable(wanted[:26])
        self.wanted_pips = sum(point * wanted[point] for point in range(1, 26))
        self.waste = waste_per_bear_off(wanted[:26])
        count = len(dice)
        # sums[i]: bit n set when some of the dice from the i-th on add up to n;
        # left[i], top[i]: the total and the largest of those dice.
        self.sums = [1] * (count + 1)
        self.left = [0] * (count + 1)
        self.top = [1] * (count + 1)
        for index in range(count - 1, -1, -1):
            self.sums[index] = self.sums[index + 1] | (self.sums[index + 1] << dice[index])
            self.left[index] = self.left[index + 1] + dice[index]
            self.top[index] = max(self.top[index + 1], dice[index])

    def allow(self, step: Step, after: State, index: int) -> bool:
        """Whether ``step`` (the one leading to ``after``, with ``index`` dice left to
        start from) keeps the wanted state reachable."""
        wanted = self.wanted
        if step[2] and wanted[51 - step[1]]:
            return False  # a hit where the text leaves the blot standing
        if not self.reachable(after):
            return False
        need = sum(point * after[point] for point in range(1, 26)) - self.wanted_pips
        spare = self.left[index] - need
        if spare < 0 or spare > (wanted[0] - after[0]) * self.waste(self.top[index]):
            return False
        sums = self.sums[index]
        occupied = 0
        for point in range(25, 0, -1):
            occupied = (occupied << 1) | (after[point] > 0)
        occupied <<= 1  # bit p: a checker on point p
        for point in range(1, 25):
            short = after[point] < wanted[point] or (after[51 - point] == 1 and not wanted[51 - point])
            if short and not ((occupied >> point) & sums) >> 1:
                return False
        return True


class BoardWalk:
    """Depth-first over whole boards; within a run of equal dice the steps go from
    non-increasing points (any order of such steps reaches the same position)."""

    def __init__(self, search: TextSearch, wanted: State, dice: Sequence[int], cuts: Cuts) -> None:
        self.step_function = search.step_function
        self.start = search.start
        self.wanted = wanted
        self.dice = dice
        self.cuts = cuts
        self.failed: set[tuple[int, int, State]] = set()

    def run(self) -> tuple[Step, ...] | None:
        return self._search(0, self.start, ())

    def _search(self, index: int, state: State, path: tuple[Step, ...]) -> tuple[Step, ...] | None:
        dice = self.dice
        if index == len(dice):
            return path if state == self.wanted else None
        last_source = path[-1][0] if index > 0 and dice[index] == dice[index - 1] else 25
        for step, after in self.step_function(state, dice[index]):
            if step[0] > last_source or not self.cuts.allow(step, after, index + 1):
                continue
            key = (index, step[0], after)
            if key in self.failed:
                continue
            found = self._search(index + 1, after, (*path, step))
            if found is not None:
                return found
            self.failed.add(key)
        return None


class PathWalk:
    """Depth-first over the text's paths: each die moves the checker of one path that
    is not finished, landing no further than its next named point."""

    def __init__(self, search: TextSearch, wanted: State, dice: Sequence[int], cuts: Cuts) -> None:
        self.step_function = search.step_function
        self.start = search.start
        self.paths = search.paths
        self.wanted = wanted
        self.dice = dice
        self.cuts = cuts
        self.failed: set[tuple[int, int, tuple[tuple[int, int], ...]]] = set()
        start = search.start

        @cache
        def can_walk(rest: Path, index: int) -> bool:
            return walkable(rest, dice[index:], start)

        self.can_walk = can_walk

    def run(self) -> tuple[Step, ...] | None:
        progress = tuple((path[0], 1) for path in self.paths)
        return self._search(0, self.start, progress, ())

    def _search(
        self, index: int, state: State, progress: tuple[tuple[int, int], ...], path: tuple[Step, ...]
    ) -> tuple[Step, ...] | None:
        dice = self.dice
        if index == len(dice):
            return path if state == self.wanted else None
        die = dice[index]
        same_run = index > 0 and die == dice[index - 1]
        last_source = path[-1][0] if same_run else 25
        key = (index, last_source, progress)
        if key in self.failed:
            return None
        options = {(step[0], step[1]): (step, after) for step, after in self.step_function(state, die)}
        tried: set[tuple[Path, int, int]] = set()
        for number, (point, goal_index) in enumerate(progress):
            route = self.paths[number]
            if goal_index == len(route) or point > last_source:
                continue
            kind = (route, point, goal_index)
            if kind in tried:  # the same journey at the same stage: one try is enough
                continue
            tried.add(kind)
            goal, landing = route[goal_index], point - die
            if goal == 0 and landing < 0:
                landing = 0
            if landing < goal or (point, landing) not in options:
                continue
            step, after = options[(point, landing)]
            reached = goal_index + 1 if landing == goal else goal_index
            if not self.cuts.allow(step, after, index + 1):
                continue
            moved = (*progress[:number], (landing, reached), *progress[number + 1 :])
            if not all(
                self.can_walk((spot, *self.paths[other][next_index:]), index + 1)
                for other, (spot, next_index) in enumerate(moved)
                if next_index < len(self.paths[other])
            ):
                continue
            found = self._search(index + 1, after, moved, (*path, step))
            if found is not None:
                return found
        self.failed.add(key)
        return None


def waste_per_bear_off(target: tuple[int, ...]) -> Callable[[int], int]:
    """The most pips a bear-off with a die up to ``die`` can leave unused on the way to
    ``target``: a die bears off from a lower point only from the highest occupied one,
    and the checkers that end on ``target``'s highest point are on it or above until then."""
    highest = max((point for point in range(1, 26) if target[point]), default=1)
    return lambda die: max(0, die - highest)


def keeps_reachable(target: tuple[int, ...]) -> Callable[[State], bool]:
    """A test that a search state can still end as the mover's ``target`` checkers:
    checkers only move towards point 0, so each point k must keep at least as many
    checkers at k or above as ``target`` has."""
    needed = [0] * 27
    for point in range(25, -1, -1):
        needed[point] = needed[point + 1] + target[point]

    def reachable(state: State) -> bool:
        above = 0
        for point in range(25, 0, -1):
            above += state[point]
            if above < needed[point]:
                return False
        return True

    return reachable


def walkable(path: Path, dice: Sequence[int], start: State) -> bool:
    """Whether one checker alone could walk ``path`` with some of ``dice``, in order.

    A necessary condition for a turn to contain the path, cheap to test: every
    landing is on a point the opponent does not hold with two or more (hits only
    open points during a turn), no named point is passed over, and a die may bear
    the checker off where the path ends off the board.
    """
    here = {(path[0], 1)}  # (point reached, index of the next named point)
    for die in dice:
        moved = set()
        for point, goal_index in here:
            if goal_index == len(path):
                continue
            goal, landing = path[goal_index], point - die
            if goal == 0 and landing <= 0:
                moved.add((0, goal_index + 1))
            elif landing >= goal and landing > 0 and start[51 - landing] < 2:
                moved.add((landing, goal_index + 1 if landing == goal else goal_index))
        here |= moved
    return any(goal_index == len(path) for _, goal_index in here)
