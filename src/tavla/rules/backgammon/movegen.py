"""One die of movement in tabla, from the mover's side (RULES.md 2).

The search state is a 52-tuple: ``s[0..25]`` the mover's checkers by his numbering
(0 off, 1-24 the points, 25 the bar), ``s[26..51]`` the opponent's by *his*
numbering, so the mover's point p is the opponent's ``25 - p`` at index ``51 - p``.
This is the layout gnubg's evaluator uses; it makes a step a few index operations.
"""

from __future__ import annotations

from tavla.rules.movetext import Step

State = tuple[int, ...]
OPP = 26  # offset of the opponent's half


def tabla_steps(state: State, die: int) -> list[tuple[Step, State]]:
    """Every single-die step the mover may make in ``state`` with ``die``."""
    out: list[tuple[Step, State]] = []
    if state[25]:
        target = 25 - die
        blockers = state[OPP + die]
        if blockers < 2:
            after = list(state)
            after[25] -= 1
            after[target] += 1
            if blockers:
                after[OPP + die] = 0
                after[51] += 1
            out.append(((25, target, blockers == 1), tuple(after)))
        return out
    highest = 24
    while highest and not state[highest]:
        highest -= 1
    bearing_off = highest <= 6
    for point in range(highest, 0, -1):
        if not state[point]:
            continue
        target = point - die
        if target > 0:
            blockers = state[51 - target]
            if blockers >= 2:
                continue
            after = list(state)
            after[point] -= 1
            after[target] += 1
            if blockers:
                after[51 - target] = 0
                after[51] += 1
            out.append(((point, target, blockers == 1), tuple(after)))
        elif bearing_off and (target == 0 or point == highest):
            after = list(state)
            after[point] -= 1
            after[0] += 1
            out.append(((point, 0, False), tuple(after)))
    return out
