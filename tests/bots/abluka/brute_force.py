"""An independent referee for Abluka: plain minimax over the rules' legal turns.

It knows nothing of regions, survival counts or evaluation: a position is won for
the side to move when some legal turn leads to a position lost for the opponent
(RULES.md 8.1), and a side with no legal turn has lost. (The random positions below
use the engine's regions only to choose which positions to make.)
"""

from __future__ import annotations

import random

from tavla.bots.abluka.endgame import separated_regions
from tavla.rules.abluka import AblukaPosition


def mover_wins(position: AblukaPosition, memo: dict[str, bool] | None = None) -> bool:
    memo = {} if memo is None else memo
    key = position.notation()
    known = memo.get(key)
    if known is not None:
        return known
    answer = any(not mover_wins(turn.after, memo) for turn in position.legal_turns())
    memo[key] = answer
    return answer


def distance_score(position: AblukaPosition, win: int, memo: dict[str, int] | None = None) -> int:
    """The side to move's score by plain minimax, a result scored by how soon it comes:
    ``-win + d`` when the side to move is left with no turn ``d`` plies from now (its own
    turn: d even) and ``win - d`` when the other side is (d odd). The winner hastens the
    end and the loser puts it off."""
    memo = {} if memo is None else memo
    key = position.notation()
    known = memo.get(key)
    if known is not None:
        return known
    best = -win
    for turn in position.legal_turns():
        theirs = distance_score(turn.after, win, memo)
        # The same end one ply further from this position, seen from the other side.
        best = max(best, -theirs + 1 if theirs > 0 else -theirs - 1)
    memo[key] = best
    return best


def carve(
    rng: random.Random, start: tuple[int, int], size: int, box: int, taken: set[tuple[int, int]]
) -> set[tuple[int, int]]:
    """A random connected set of ``size`` squares grown from ``start`` inside a ``box`` x ``box`` window."""
    file0 = min(max(start[0] - rng.randrange(box), 0), 7 - box)
    rank0 = min(max(start[1] - rng.randrange(box), 0), 7 - box)
    blob = {start}
    for _ in range(200):
        if len(blob) >= size:
            break
        f, r = rng.choice(sorted(blob))
        f2, r2 = f + rng.choice((-1, 0, 1)), r + rng.choice((-1, 0, 1))
        inside = file0 <= f2 < file0 + box and rank0 <= r2 < rank0 + box
        if inside and (f2, r2) not in taken:
            blob.add((f2, r2))
    return blob


def touches(a: set[tuple[int, int]], b: set[tuple[int, int]]) -> bool:
    return any(abs(f1 - f2) <= 1 and abs(r1 - r2) <= 1 for f1, r1 in a for f2, r2 in b)


def random_separated_position(rng: random.Random, box: int, max_empty: int) -> AblukaPosition:
    """Two kings in two random regions (each inside a ``box`` x ``box`` window) that never touch.

    All other squares are blocked except, sometimes, a lone empty square that neither
    king can reach. At most ``max_empty`` empty squares in all.
    """
    while True:
        first = (rng.randrange(7), rng.randrange(7))
        second = (rng.randrange(7), rng.randrange(7))
        if max(abs(first[0] - second[0]), abs(first[1] - second[1])) < 3:
            continue
        mine = carve(rng, first, rng.randint(2, max_empty // 2 + 1), box, set())
        theirs = carve(rng, second, rng.randint(2, max_empty // 2 + 1), box, mine)
        if touches(mine, theirs) or len(mine) + len(theirs) - 2 > max_empty:
            continue
        empty = (mine | theirs) - {first, second}
        if rng.random() < 0.3:
            lone = (rng.randrange(7), rng.randrange(7))
            if not touches({lone}, mine | theirs) and len(empty) < max_empty:
                empty.add(lone)
        blockers = 0
        for square in range(49):
            spot = (square % 7, square // 7)
            if spot not in empty and spot not in (first, second):
                blockers |= 1 << square
        first_square = first[1] * 7 + first[0]
        second_square = second[1] * 7 + second[0]
        side = rng.randint(0, 1)
        white, black = (first_square, second_square) if side == 0 else (second_square, first_square)
        return AblukaPosition(white, black, blockers, side)


def random_open_position(rng: random.Random, max_empty: int) -> AblukaPosition:
    """Both kings in one small region (not separated), everything else blocked."""
    while True:
        start = (rng.randrange(7), rng.randrange(7))
        blob = carve(rng, start, max_empty + 2, 4, set())
        if len(blob) < 5:
            continue
        first, second = rng.sample(sorted(blob), 2)
        blockers = sum(1 << (r * 7 + f) for f in range(7) for r in range(7) if (f, r) not in blob)
        side = rng.randint(0, 1)
        a, b = first[1] * 7 + first[0], second[1] * 7 + second[0]
        position = AblukaPosition(a, b, blockers, side) if side == 0 else AblukaPosition(b, a, blockers, side)
        if (
            position.outcome() is None
            and separated_regions(position.mover, position.waiter, blockers) is None
        ):
            return position
