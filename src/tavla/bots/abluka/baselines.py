"""Reference opponents for measuring the engine: a random player and "AB-Improved".

AB-Improved is the classic baseline of Isola-like games: alpha-beta over every turn
(every step, then every empty square as the blocker) with the evaluation "my free
neighbours minus the opponent's". It is given here in its full published form, not a
bare alpha-beta, so that it measures the engine fairly:

* iterative deepening within the same time per move as the engine, the previous
  iteration's best turn searched first at the root;
* a transposition table keyed by the position (reused between iterations and moves);
* move ordering: the table's turn first, then two killer turns per ply, then the
  history heuristic (how often, and how deep, a turn caused a cut-off);
* wins and losses scored by their distance, so that it takes the quickest win.

Without the table and the ordering it reaches a ply less in the middle game, which is
what made it look weaker than it is.
"""

from __future__ import annotations

import random
import time

from tavla.rules.abluka import AblukaPosition
from tavla.rules.abluka.board import BIT, FULL, NEIGHBOURS, squares_of

_WIN = 10_000
_EXACT, _LOWER, _UPPER = 0, 1, 2
_MAX_PLY = 64
_TABLE_LIMIT = 2_000_000


class _TimeUp(Exception):
    pass


def random_turn(mover: int, waiter: int, blockers: int, rng: random.Random) -> tuple[int, int]:
    """A uniformly random legal turn (the side to move must have a step)."""
    empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
    to = rng.choice(list(squares_of(NEIGHBOURS[mover] & empty)))
    block = rng.choice(list(squares_of((empty & ~BIT[to]) | BIT[mover])))
    return to, block


def random_opening(seed: int, turns: int = 2) -> AblukaPosition:
    """Abluka's start after ``turns`` random turns from ``seed``: the openings that
    matches between engines start from, so that two deterministic engines do not play
    one game over and over."""
    rng = random.Random(seed)
    position = AblukaPosition.start()
    for _ in range(turns):
        to, block = random_turn(position.mover, position.waiter, position.blockers, rng)
        position = position.after_turn(to, block)
    return position


def _turn_codes(mover: int, waiter: int, blockers: int) -> list[int]:
    """Every legal turn as ``to | block << 6``, in square order."""
    empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
    codes = []
    for to in squares_of(NEIGHBOURS[mover] & empty):
        for block in squares_of((empty & ~BIT[to]) | BIT[mover]):
            codes.append(to | (block << 6))
    return codes


class AbImproved:
    """AB-Improved with iterative deepening, a transposition table, killers and history."""

    def __init__(self) -> None:
        self.nodes = 0
        self._deadline = 0.0
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.history: dict[int, int] = {}
        self.killers: list[list[int]] = [[0, 0] for _ in range(_MAX_PLY + 2)]

    def choose(self, mover: int, waiter: int, blockers: int, movetime_ms: int) -> tuple[int, int, int]:
        """``(to, block, depth reached)`` within ``movetime_ms``."""
        self._deadline = time.perf_counter() + movetime_ms / 1000.0
        if len(self.table) > _TABLE_LIMIT:
            self.table.clear()
        self.killers = [[0, 0] for _ in range(_MAX_PLY + 2)]
        best: tuple[int, int] | None = None
        reached = 0
        for depth in range(1, _MAX_PLY + 1):
            try:
                found, score = self._root(mover, waiter, blockers, depth, best)
            except _TimeUp:
                break
            best, reached = found, depth
            if abs(score) >= _WIN - _MAX_PLY:  # a forced result: deeper search changes nothing
                break
        if best is None:
            best = random_turn(mover, waiter, blockers, random.Random(0))
        return best[0], best[1], reached

    def search_depth(self, mover: int, waiter: int, blockers: int, depth: int) -> tuple[int, int, int]:
        """``(to, block, score)`` of a search to exactly ``depth`` plies, without a time limit."""
        self._deadline = float("inf")
        (to, block), score = self._root(mover, waiter, blockers, depth, None)
        return to, block, score

    def _root(
        self, mover: int, waiter: int, blockers: int, depth: int, previous: tuple[int, int] | None
    ) -> tuple[tuple[int, int], int]:
        codes = self._ordered(_turn_codes(mover, waiter, blockers), 0, 0)
        if previous is not None:
            first = previous[0] | (previous[1] << 6)
            codes.sort(key=lambda code: code != first)
        alpha = -_WIN - 1
        best = codes[0]
        for code in codes:
            to, block = code & 63, code >> 6
            score = -self._search(waiter, to, blockers | BIT[block], depth - 1, -_WIN - 1, -alpha, 1)
            if score > alpha:
                alpha, best = score, code
        return (best & 63, best >> 6), alpha

    def _search(
        self, mover: int, waiter: int, blockers: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        self.nodes += 1
        if not self.nodes & 255 and time.perf_counter() >= self._deadline:
            raise _TimeUp
        empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
        mine = (NEIGHBOURS[mover] & empty).bit_count()
        if mine == 0:
            return -_WIN + ply
        if depth == 0:
            return mine - (NEIGHBOURS[waiter] & empty).bit_count()
        key = blockers | (mover << 49) | (waiter << 55)
        entry = self.table.get(key)
        hint = 0
        if entry is not None:
            entry_depth, flag, value, hint = entry
            if entry_depth >= depth and (
                flag == _EXACT or (flag == _LOWER and value >= beta) or (flag == _UPPER and value <= alpha)
            ):
                return value
        original_alpha = alpha
        best_score = -_WIN - 1
        best_code = 0
        for code in self._ordered(_turn_codes(mover, waiter, blockers), hint, ply):
            score = -self._search(
                waiter, code & 63, blockers | BIT[code >> 6], depth - 1, -beta, -alpha, ply + 1
            )
            if score > best_score:
                best_score, best_code = score, code
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._remember_cutoff(code, depth, ply)
                        break
        if best_score <= original_alpha:
            flag = _UPPER
        elif best_score >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        self.table[key] = (depth, flag, best_score, best_code)
        return best_score

    def _ordered(self, codes: list[int], hint: int, ply: int) -> list[int]:
        first_killer, second_killer = self.killers[ply]
        history = self.history

        def priority(code: int) -> int:
            if code == hint:
                return 1 << 40
            if code == first_killer:
                return 1 << 39
            if code == second_killer:
                return 1 << 38
            return history.get(code, 0)

        return sorted(codes, key=priority, reverse=True)

    def _remember_cutoff(self, code: int, depth: int, ply: int) -> None:
        killers = self.killers[ply]
        if killers[0] != code:
            killers[1] = killers[0]
            killers[0] = code
        self.history[code] = self.history.get(code, 0) + depth * depth
