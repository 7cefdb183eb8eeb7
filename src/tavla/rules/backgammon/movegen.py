"""Tabla movement from the mover's side (RULES.md 1.3 and 2): steps and the two layouts.

Two representations serve two needs.

*State* (the step-level interface, :func:`tabla_steps`): a 52-tuple, ``s[0..25]`` the
mover's checkers by his numbering (0 off, 1-24 the points, 25 the bar), ``s[26..51]``
the opponent's by *his* numbering, so the mover's point p is the opponent's ``25 - p``
at index ``51 - p``. This is the layout gnubg's evaluator uses.

*Board* (the whole-turn generator): a 27-tuple in the mover's numbering, ``b[0]`` the
mover's checkers off, ``b[1..24]`` signed point counts (the mover's checkers positive,
the opponent's negative), ``b[25]`` the mover's bar and ``b[26]`` the opponent's bar.
One signed cell per point makes a step three list operations: a point is open when its
count is at least -1, and -1 is a blot to hit.

Whole turns are generated on Boards by :mod:`tavla.rules.backgammon.turngen`.
"""

from __future__ import annotations

from tavla.rules.movetext import Step

State = tuple[int, ...]
OPP = 26  # offset of the opponent's half in a State

Board = tuple[int, ...]
"""A 27-tuple in the mover's numbering; see the module docstring."""
BAR = 25
OPP_BAR = 26


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


# ---------------------------------------------------------------------- whole turns
def state_to_board(state: State) -> Board:
    """The Board for a 52-tuple State (both in the mover's numbering)."""
    points = [state[p] - state[51 - p] for p in range(1, 25)]
    return (state[0], *points, state[25], state[51])


def board_to_state(board: Board, opponent_off: int) -> State:
    """The 52-tuple State for a Board; the opponent's off count is not in a Board."""
    mine = [board[0], *(n if n > 0 else 0 for n in board[1:25]), board[BAR]]
    theirs = [opponent_off, *(-board[p] if board[p] < 0 else 0 for p in range(24, 0, -1)), board[OPP_BAR]]
    return (*mine, *theirs)
