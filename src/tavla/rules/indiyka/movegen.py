"""One die in indiyka, from the mover's side (RULES.md 7).

The search state is ``(off, p1, ..., p6, waiting, entering)``: the mover's checkers
removed, on his points 1-6, not yet entered, and whether this roll belongs to the
entering phase (1) or the removing phase (0). **Decision** (RULES.md 7): a roll is
used for one phase only, so a roll that began while entering never removes.
"""

from __future__ import annotations

from tavla.rules.movetext import Step

State = tuple[int, ...]
CHECKERS = 15
WAITING = 7
ENTERING = 8
IN = 25  # "in" is written where tabla writes the bar
FULL_POINT = 2
POINTS = 6

MoveList = list[tuple[Step | None, State]]


def indiyka_steps(state: State, die: int) -> MoveList:
    if state[0] == CHECKERS:
        return [(None, state)]  # all removed: the game is over
    after = list(state)
    if state[ENTERING]:
        if not state[WAITING]:
            return []  # the last checker is in: the rest of this roll is lost
        limited = sum(state[1 : POINTS + 1]) < FULL_POINT * POINTS
        if limited and state[die] >= FULL_POINT:
            return []  # a die naming a full point does nothing
        after[WAITING] -= 1
        after[die] += 1
        return [((IN, die, False), tuple(after))]
    if not state[die]:
        return []  # a die naming an empty point does nothing
    after[die] -= 1
    after[0] += 1
    return [((die, 0, False), tuple(after))]
