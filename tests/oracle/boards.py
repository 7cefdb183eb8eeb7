"""Our positions as gnubg boards, written here without the library's gnubg_id module.

A gnubg board is ``(player not on roll, player on roll)``, each 25 counts in that
player's own numbering with index 24 the bar (what ``gnubg.board()`` returns).
"""

from __future__ import annotations

from tavla.core.protocol import WHITE
from tavla.rules.backgammon import BackgammonPosition

Board = tuple[list[int], list[int]]


def gnubg_board(position: BackgammonPosition) -> Board:
    """The board gnubg sees with ``position``'s side to act on roll."""
    white = [0] * 25
    black = [0] * 25
    for index, count in enumerate(position.points):
        if count > 0:
            white[index] = count  # White's point index + 1, in his own numbering
        elif count < 0:
            black[23 - index] = -count  # White's point i + 1 is Black's point 24 - i
    white[24], black[24] = position.bar
    return (black, white) if position.side == WHITE else (white, black)
