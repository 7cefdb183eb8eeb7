"""Iterative-deepening principal-variation search for Abluka.

A node is (mover square, waiter square, blockers); a child is a whole turn, a king
step then a blocker. Features:

* a transposition table keyed by the position as one integer (the bitboards);
* move ordering: the table's move first, then killer turns, then steps by the room
  they leave and blockers by how much they take from the opponent's king, with a
  history bonus for blockers that caused cut-offs;
* blocker candidates: squares no king can reach are all alike, so one stands for all
  of them (exact); at the root, and wherever the kings can reach at most
  ``exact_width`` empty squares, every other square is tried, so small endgames are
  searched exactly; elsewhere the squares around the opponent's king (radius 2 on
  the last turn before the horizon, radius 1 and the squares between the kings
  above it), plus one far square standing for "a blocker that touches nothing";
* an immediate-win test at every node: a step after which the opponent's king has at
  most one free neighbour wins at once (the blocker takes that square);
* the exact endgame solver as soon as the kings are in separate regions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from tavla.bots.abluka.endgame import Regions, SurvivalSolver, endgame_turn
from tavla.bots.abluka.evaluation import WIN, WIN_THRESHOLD, evaluate, separated_score
from tavla.rules.abluka.board import BIT, FULL, NEIGHBOURS, grow, reachable

EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 64
#: Turns after this many in a node's order are first searched one ply shallower.
LMR_AFTER = 4
#: The same at the root, where every blocker is a candidate.
ROOT_LMR_AFTER = 12
_ORDER_OFFSET = 1 << 12  # keeps ordering values positive inside the packed sort keys

RADIUS1: tuple[int, ...] = NEIGHBOURS
RADIUS2: tuple[int, ...] = tuple(grow(grow(BIT[s])) & ~BIT[s] for s in range(49))


class TimeUp(Exception):
    """The time budget ran out in the middle of an iteration."""


@dataclass(frozen=True)
class SearchSettings:
    """What a level may do: depth, blocker width, endgame budget and noise."""

    max_depth: int = 64
    wide_blockers: bool = False
    solver_budget: int = 1_500
    exact_width: int = 14
    root_solver_budget: int = 200_000
    noise: int = 0
    seed: int | None = None


@dataclass
class SearchResult:
    """The chosen turn (squares), its score for the mover, the depth completed and the effort."""

    to: int
    block: int
    score: int
    depth: int
    nodes: int
    elapsed_ms: int


def _first_square(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class Searcher:
    """Chooses turns; keeps its transposition table and endgame memo between calls."""

    def __init__(self, settings: SearchSettings | None = None) -> None:
        self.settings = settings or SearchSettings()
        self.solver = SurvivalSolver(self.settings.solver_budget)
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.history: dict[int, int] = {}
        self.killers: list[list[int]] = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.nodes = 0
        self._deadline = 0.0
        self._iteration_best: tuple[int, int, int] | None = None
        self._rng = random.Random(self.settings.seed)

    # ------------------------------------------------------------------ driver
    def choose(self, mover: int, waiter: int, blockers: int, movetime_ms: int) -> SearchResult:
        """The best turn found within ``movetime_ms`` (the side to move must have a step)."""
        started = time.perf_counter()
        self._deadline = started + movetime_ms / 1000.0
        self.nodes = 0
        if len(self.table) > 2_000_000:
            self.table.clear()
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.solver.forget_failures()
        self.solver.deadline = started + movetime_ms / 2000.0  # at most half the time
        solved = self._solve_root(mover, waiter, blockers)
        self.solver.deadline = self._deadline
        if solved is not None:
            elapsed = int((time.perf_counter() - started) * 1000)
            return SearchResult(solved[0], solved[1], solved[2], 0, self.nodes, elapsed)
        best: tuple[int, int, int] | None = None
        reached = 0
        for depth in range(1, self.settings.max_depth + 1):
            try:
                found = self._root(mover, waiter, blockers, depth, best)
            except TimeUp:
                # The unfinished iteration searched the previous best turn first: a turn
                # that has already beaten it at the new depth is the better choice.
                if self._iteration_best is not None:
                    best = self._iteration_best
                break
            best = found
            reached = depth
            if abs(found[2]) >= WIN_THRESHOLD:
                break
            if time.perf_counter() >= self._deadline:
                break
        if best is None:  # no ply searched (max_depth 0, or the time gone within the
            # first turn of the first ply): take any sensible turn
            best = self._fallback(mover, waiter, blockers)
        elapsed = int((time.perf_counter() - started) * 1000)
        return SearchResult(best[0], best[1], best[2], reached, self.nodes, elapsed)

    def _solve_root(self, mover: int, waiter: int, blockers: int) -> tuple[int, int, int] | None:
        """The exact turn when the kings are already in separate regions and the solver manages."""
        self.solver.budget = self.settings.root_solver_budget
        try:
            found = endgame_turn(mover, waiter, blockers, self.solver)
        finally:
            self.solver.budget = self.settings.solver_budget
        if found is None:
            return None
        to, block, wins = found
        return to, block, WIN_THRESHOLD if wins else -WIN_THRESHOLD

    def _fallback(self, mover: int, waiter: int, blockers: int) -> tuple[int, int, int]:
        empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
        steps = NEIGHBOURS[mover] & empty
        to = max(
            (s for s in range(49) if steps & BIT[s]),
            key=lambda s: (NEIGHBOURS[s] & empty).bit_count(),
        )
        around = NEIGHBOURS[waiter] & empty & ~BIT[to]
        block = _first_square(around) if around else mover
        return to, block, 0

    # -------------------------------------------------------------------- root
    def _root(
        self, mover: int, waiter: int, blockers: int, depth: int, previous: tuple[int, int, int] | None
    ) -> tuple[int, int, int]:
        self._iteration_best = None
        empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
        turns: list[tuple[int, int, int]] = []
        reach = reachable(BIT[mover], empty | BIT[waiter]) & empty
        for code in self._ordered_turns(mover, waiter, empty, reach, depth, 0, 0, root=True):
            turns.append((code & 63, code >> 6, 0))
        if previous is not None:
            turns.sort(key=lambda t: (t[0], t[1]) != (previous[0], previous[1]))
        alpha, beta = -WIN - 1, WIN + 1
        best = turns[0]
        noise = self.settings.noise
        for index, (to, block, _) in enumerate(turns):
            child = blockers | BIT[block]
            if index == 0:
                score = -self._search(waiter, to, child, depth - 1, -beta, -alpha, 1)
            else:
                if depth >= 3 and index >= ROOT_LMR_AFTER and not noise:
                    # Every blocker is tried at the root; most of them, ordered late,
                    # are first looked at one ply shallower (as inside the tree).
                    score = -self._search(waiter, to, child, depth - 2, -alpha - 1, -alpha, 1)
                    if score <= alpha:
                        continue
                score = -self._search(waiter, to, child, depth - 1, -alpha - 1, -alpha, 1)
                if alpha < score < beta:
                    score = -self._search(waiter, to, child, depth - 1, -beta, -score, 1)
            if noise and abs(score) < WIN_THRESHOLD:
                score += self._rng.randint(-noise, noise)
            if score > alpha:
                alpha = score
                best = self._iteration_best = (to, block, score)
        return best

    # ------------------------------------------------------------------ search
    def _search(
        self, mover: int, waiter: int, blockers: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        self.nodes += 1
        if not self.nodes & 255 and time.perf_counter() >= self._deadline:
            raise TimeUp
        empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
        steps = NEIGHBOURS[mover] & empty
        if not steps:
            return -WIN + ply
        waiter_bit = BIT[waiter]
        # A step after which the opponent keeps at most one free square wins at once.
        their_free = NEIGHBOURS[waiter] & empty
        vacated = BIT[mover] if NEIGHBOURS[waiter] & BIT[mover] else 0
        rest = steps
        while rest:
            low = rest & -rest
            rest ^= low
            left = (their_free & ~low) | vacated
            if left & (left - 1) == 0:
                return WIN - ply - 1
        if depth <= 0 or ply >= MAX_PLY:
            return evaluate(mover, waiter, blockers, self.solver, ply)
        joint = reachable(BIT[mover], empty | waiter_bit)
        if not joint & waiter_bit:
            regions = Regions(joint, reachable(waiter_bit, empty))
            return separated_score(mover, waiter, regions, self.solver, ply)

        key = blockers | (mover << 49) | (waiter << 55)
        entry = self.table.get(key)
        hint = 0
        if entry is not None:
            entry_depth, flag, value, hint = entry
            if entry_depth >= depth:
                if flag == EXACT:
                    return value
                if flag == LOWER and value >= beta:
                    return value
                if flag == UPPER and value <= alpha:
                    return value
        original_alpha = alpha
        best_score = -WIN - 1
        best_turn = 0
        first = True
        index = 0
        for code in self._staged_turns(mover, waiter, empty, joint & empty, depth, ply, hint):
            to = code & 63
            block = code >> 6
            child = blockers | BIT[block]
            index += 1
            if first:
                score = -self._search(waiter, to, child, depth - 1, -beta, -alpha, ply + 1)
                first = False
            else:
                if depth >= 2 and index > LMR_AFTER:
                    # Late move reduction: a turn ordered this late rarely matters; look
                    # one ply shallower and search it properly only if it surprises.
                    score = -self._search(waiter, to, child, depth - 2, -alpha - 1, -alpha, ply + 1)
                    if score <= alpha:
                        continue
                score = -self._search(waiter, to, child, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self._search(waiter, to, child, depth - 1, -beta, -score, ply + 1)
            if score > best_score:
                best_score = score
                best_turn = to | (block << 6)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._remember_cutoff(best_turn, block, depth, ply)
                        break
        flag = UPPER if best_score <= original_alpha else LOWER if best_score >= beta else EXACT
        self.table[key] = (depth, flag, best_score, best_turn)
        return best_score

    def _staged_turns(
        self, mover: int, waiter: int, empty: int, reach: int, depth: int, ply: int, hint: int
    ) -> Iterator[int]:
        """The table's turn and the killers first, the rest only if none of them cut off.

        Most nodes are cut off by their first or second turn, so listing and scoring
        every candidate up front (the costliest part of a node) is usually wasted.
        """
        steps = NEIGHBOURS[mover] & empty
        tried: list[int] = []
        for code in (hint, *self.killers[ply]):
            if code in tried or not code:
                continue
            to = code & 63
            block = code >> 6
            # A killer comes from another position at this ply: it must be legal here.
            if steps & BIT[to] and to != block and (empty | BIT[mover]) & BIT[block]:
                tried.append(code)
                yield code
        for code in self._ordered_turns(mover, waiter, empty, reach, depth, ply, 0, root=False):
            if code not in tried:
                yield code

    def _remember_cutoff(self, turn: int, block: int, depth: int, ply: int) -> None:
        killers = self.killers[ply]
        if killers[0] != turn:
            killers[1] = killers[0]
            killers[0] = turn
        self.history[block] = self.history.get(block, 0) + depth * depth

    # ---------------------------------------------------------------- ordering
    def _ordered_turns(
        self,
        mover: int,
        waiter: int,
        empty: int,
        reach: int,
        depth: int,
        ply: int,
        hint: int,
        *,
        root: bool,
    ) -> list[int]:
        """Candidate turns ``to | block << 6``, most promising first.

        ``reach`` is the empty squares either king can reach. Blockers outside it are
        all alike (nobody can ever use those squares), so one of them stands for all.
        Within a small ``reach``, or at the root, every square is tried: exact. Else
        the squares near the opponent's king and between the kings are tried.
        """
        steps = NEIGHBOURS[mover] & empty
        history = self.history
        waiter_ring = NEIGHBOURS[waiter]
        unreachable = empty & ~reach
        spare = unreachable & -unreachable
        playable = reach | BIT[mover]
        if (
            root
            or reach.bit_count() <= self.settings.exact_width
            or (self.settings.wide_blockers and depth >= 2)
        ):
            zone = playable
        elif depth <= 1:
            zone = RADIUS2[waiter] & playable
        else:
            zone = (RADIUS1[waiter] | (RADIUS2[waiter] & RADIUS2[mover])) & playable
        killers = self.killers[ply]
        first_killer, second_killer = killers[0], killers[1]
        scored: list[int] = []
        rest = steps
        while rest:
            low = rest & -rest
            rest ^= low
            to = low.bit_length() - 1
            after_empty = (empty ^ low) | BIT[mover]
            room = (NEIGHBOURS[to] & after_empty).bit_count()
            candidates = (after_empty & zone) | spare
            if not spare and zone != playable:
                far = after_empty & ~(RADIUS2[waiter] | RADIUS2[to])
                candidates |= far & -far
            their_free = waiter_ring & after_empty
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                block = bit.bit_length() - 1
                value = room * 16
                if bit & their_free:
                    value += 200 + 8 * (NEIGHBOURS[block] & RADIUS2[waiter] & after_empty).bit_count()
                if bit & NEIGHBOURS[to]:
                    value -= 60
                value += history.get(block, 0) >> 4
                code = to | (block << 6)
                if code == hint:
                    value += 1 << 30
                elif code == first_killer:
                    value += 1 << 20
                elif code == second_killer:
                    value += 1 << 19
                scored.append(((value + _ORDER_OFFSET) << 12) | code)
        scored.sort(reverse=True)
        return [code & 4095 for code in scored]
