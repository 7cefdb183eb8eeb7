"""One die of movement in tapa, from the mover's side (RULES.md 5).

The search state is a 49-tuple in the mover's numbering: ``s[0]`` his checkers
borne off; ``s[p]`` for p in 1-24 the free checkers on point p, the mover's
positive and the opponent's negative (a pinned checker is not counted there);
``s[24 + p]`` the pin on point p: +1 the mover's checker is pinned there, -1 an
opponent's checker is, 0 none. A pin always lies under a stack of the other
colour, so ``s[24 + p]`` and ``s[p]`` never have the same sign.

The mover's point 24 is his start, the opponent's point 1 in the mover's numbering.
"""

from __future__ import annotations

from tavla.rules.movetext import Step

State = tuple[int, ...]
PIN = 24  # offset of the pin fields
CHECKERS = 15

MoveList = list[tuple[Step | None, State]]


def all_borne_off(state: State) -> bool:
    """True when the mover has borne off his last checker (RULES.md 5).

    This is the only way a tapa game ends in the middle of a turn. Pinned mothers
    (a void game, or a win under ``mother_pin_wins``) are judged on the position
    the committed turn leaves (``TapaPosition.outcome``): a pin seen after one die
    must neither end the turn early nor make a line of play count as using every
    die, or the mover could be forced into a void game (RULES.md 5, decision).
    """
    return state[0] == CHECKERS


def _moves(state: State, die: int) -> MoveList:
    out: MoveList = []
    highest = 24
    while highest and state[highest] <= 0:
        highest -= 1
    # Bearing off needs every remaining checker home and none of them pinned.
    bearing_off = highest <= 6 and 1 not in state[PIN + 1 :]
    for point in range(highest, 0, -1):
        if state[point] <= 0:
            continue
        target = point - die
        if target <= 0 and not (bearing_off and (target == 0 or point == highest)):
            continue
        after = list(state)
        after[point] -= 1
        if after[point] == 0 and after[PIN + point]:
            # The last pinner left: the pinned opponent's checker is free again.
            after[point] = after[PIN + point]
            after[PIN + point] = 0
        if target <= 0:
            after[0] += 1
            out.append(((point, 0, False), tuple(after)))
            continue
        occupant = state[target]
        pins = False
        if occupant < 0:
            if occupant != -1 or state[PIN + target]:
                continue  # an enemy stack, or a lone pinner which cannot be pinned
            pins = True
            after[target] = 0
            after[PIN + target] = -1
        after[target] += 1
        out.append(((point, target, pins), tuple(after)))
    return out


def tapa_steps(state: State, die: int) -> MoveList:
    """The steps one die allows; a pass once every checker is off (the dice left count as played)."""
    if all_borne_off(state):
        return [(None, state)]
    return _moves(state, die)
