"""One die of movement in gulbara, from the mover's side (RULES.md 6.1).

The search state is a 25-tuple in the mover's numbering: ``s[0]`` his checkers
borne off, ``s[p]`` the checkers on his point p, his positive and the opponent's
negative (a point never holds both colours: a single checker holds it).
"""

from __future__ import annotations

from tavla.rules.movetext import Step

State = tuple[int, ...]
CHECKERS = 15

MoveList = list[tuple[Step | None, State]]


def to_opponent_point(point: int) -> int:
    """My point n is the opponent's ((n + 11) mod 24) + 1 (RULES.md 1.1); it is its own inverse."""
    return (point + 11) % 24 + 1


def gulbara_steps(state: State, die: int) -> MoveList:
    if state[0] == CHECKERS:
        return [(None, state)]  # the game ended during this turn
    out: MoveList = []
    highest = 24
    while highest and state[highest] <= 0:
        highest -= 1
    bearing_off = highest <= 6
    for point in range(highest, 0, -1):
        if state[point] <= 0:
            continue
        target = point - die
        if target > 0:
            if state[target] < 0:
                continue  # held by the opponent, even by a single checker
            after = list(state)
            after[point] -= 1
            after[target] += 1
            out.append(((point, target, False), tuple(after)))
        elif bearing_off and (target == 0 or point == highest):
            after = list(state)
            after[point] -= 1
            after[0] += 1
            out.append(((point, 0, False), tuple(after)))
    return out
