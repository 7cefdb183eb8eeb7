"""bgsage (Open Sage), a second outside backgammon engine: a reference opponent for tabla.

bgsage is a Python package around a C++ engine with its own trained networks
(``pip install bgsage``; the ``dev`` and ``bench`` extras install it). Our
benchmarks measure the tabla bot against it as they do against GNU Backgammon;
nothing in ``rules`` or ``bots`` depends on it, and the platform never plays it.

Plies are counted as in the rest of the library and in gnubg: 0 is the network
alone (bgsage, like eXtreme Gammon, calls that "1-ply").

>>> player = BgsagePlayer(plies=0)                                  # doctest: +SKIP
>>> player.choose(rolled_position).text
"""

from __future__ import annotations

import importlib.util
from typing import Any

from tavla.core.errors import TavlaError
from tavla.rules.backgammon.position import BackgammonPosition
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn

BgsageBoard = tuple[int, ...]
"""bgsage's 26 numbers, from the mover's side: the opponent's bar (as a count), the
points 1-24 (the mover's checkers positive, the opponent's negative), the mover's bar."""


class BgsageError(TavlaError):
    """bgsage is missing, or played to a position no legal turn reaches."""


def bgsage_available() -> bool:
    return importlib.util.find_spec("bgsage") is not None


def bgsage_board(position: BackgammonPosition) -> BgsageBoard:
    """``position`` in bgsage's layout, seen by the side to act."""
    board = position.mover_board()
    return (board[26], *board[1:25], board[25])


def board_after(turn: DiceTurn[BackgammonPosition]) -> BgsageBoard:
    """The position after ``turn``, still seen by the player who made it (as bgsage
    reports its candidates): the next mover's board turned round."""
    theirs = bgsage_board(turn.after)
    return (theirs[25], *(-count for count in reversed(theirs[1:25])), theirs[0])


class BgsagePlayer:
    """bgsage as a tabla player: the turn with the best cubeless equity at ``plies``."""

    def __init__(self, plies: int = 0, *, threads: int = 1) -> None:
        if not bgsage_available():
            raise BgsageError("bgsage is not installed: pip install bgsage (the dev or bench extra)")
        from bgsage import BgBotAnalyzer

        self.plies = plies
        self.name = f"bgsage {plies}-ply"
        self._analyzer: Any = BgBotAnalyzer(
            eval_level=f"{plies + 1}ply", cubeful=False, parallel_threads=threads
        )

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        if not isinstance(position, BackgammonPosition) or position.game != "tabla":
            raise BgsageError(f"bgsage plays tabla only, not {position.notation()}")
        if position.dice is None:
            raise BgsageError(f"the dice must be rolled first in {position.notation()}")
        turns = position.legal_turns()
        if len(turns) == 1:
            return turns[0]
        high, low = max(position.dice), min(position.dice)
        best = tuple(self._analyzer.checker_play(list(bgsage_board(position)), high, low).moves[0].board)
        for turn in turns:
            if board_after(turn) == best:
                return turn
        raise BgsageError(f"bgsage played to {best}, which no legal turn of {position.notation()} reaches")
