"""Reference opponents for measuring the engine: a random player and "AB-Improved".

AB-Improved is the classic baseline of Isola-like games: iterative-deepening
alpha-beta within the same time per move, every empty square as a blocker
candidate, and the evaluation "my free neighbours minus the opponent's".
"""

from __future__ import annotations

import random
import time

from tavla.rules.abluka.board import BIT, FULL, NEIGHBOURS, squares_of

_WIN = 10_000


class _TimeUp(Exception):
    pass


def random_turn(mover: int, waiter: int, blockers: int, rng: random.Random) -> tuple[int, int]:
    """A uniformly random legal turn (the side to move must have a step)."""
    empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
    to = rng.choice(list(squares_of(NEIGHBOURS[mover] & empty)))
    block = rng.choice(list(squares_of((empty & ~BIT[to]) | BIT[mover])))
    return to, block


class AbImproved:
    """Iterative-deepening alpha-beta, all blockers, evaluation own moves minus opponent's."""

    def __init__(self) -> None:
        self.nodes = 0
        self._deadline = 0.0

    def choose(self, mover: int, waiter: int, blockers: int, movetime_ms: int) -> tuple[int, int, int]:
        """``(to, block, depth reached)``."""
        self._deadline = time.perf_counter() + movetime_ms / 1000.0
        best: tuple[int, int] | None = None
        reached = 0
        depth = 1
        while True:
            try:
                best = self._root(mover, waiter, blockers, depth)
            except _TimeUp:
                break
            reached = depth
            depth += 1
            if depth > 60:
                break
        if best is None:
            best = random_turn(mover, waiter, blockers, random.Random(0))
        return best[0], best[1], reached

    def _turns(self, mover: int, waiter: int, blockers: int) -> list[tuple[int, int]]:
        empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
        return [
            (to, block)
            for to in squares_of(NEIGHBOURS[mover] & empty)
            for block in squares_of((empty & ~BIT[to]) | BIT[mover])
        ]

    def _root(self, mover: int, waiter: int, blockers: int, depth: int) -> tuple[int, int]:
        alpha = -_WIN - 1
        best = (0, 0)
        for to, block in self._turns(mover, waiter, blockers):
            score = -self._search(waiter, to, blockers | BIT[block], depth - 1, -_WIN - 1, -alpha)
            if score > alpha or best == (0, 0):
                alpha = max(alpha, score)
                best = (to, block)
        return best

    def _search(self, mover: int, waiter: int, blockers: int, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 255 and time.perf_counter() >= self._deadline:
            raise _TimeUp
        empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
        mine = (NEIGHBOURS[mover] & empty).bit_count()
        if mine == 0:
            return -_WIN
        if depth == 0:
            return mine - (NEIGHBOURS[waiter] & empty).bit_count()
        for to, block in self._turns(mover, waiter, blockers):
            score = -self._search(waiter, to, blockers | BIT[block], depth - 1, -beta, -alpha)
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        return alpha
