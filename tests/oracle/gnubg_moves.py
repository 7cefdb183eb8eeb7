"""Runs inside GNU Backgammon: every legal play of given boards for all 21 rolls.

    GNUBG_ORACLE_IN=in.json GNUBG_ORACLE_OUT=out.json gnubg -t -q -r -p gnubg_moves.py

``in.json`` is ``{"boards": [[not_on_roll, on_roll], ...]}``, each half 25 counts in that
player's own numbering (index 24 the bar), the order of ``gnubg.board()``. For each
board and roll, gnubg lists its plays (``hint``); each play is parsed into (from, to)
steps (25 bar, 0 off) and applied here, and the board after it is written as gnubg's
own Position ID with the opponent on roll. ``out.json`` is ``{"results": [{"position_id":
ID, "rolls": {"61": [ID, ...], ...}}, ...]}``; a roll with no legal play maps to [].

This file imports nothing from the library: gnubg's Python has no access to it.
"""

import json
import os
from typing import Any

import gnubg

Board = tuple[tuple[int, ...], tuple[int, ...]]
"""(not on roll, on roll): each half 25 counts, index 24 the bar."""

ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]


def apply_play(board: Board, steps: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The board after ``steps``: (mover, opponent), the mover now not on roll."""
    opponent = list(board[0])
    mover = list(board[1])
    for start, end in steps:
        if mover[start - 1] <= 0:
            raise ValueError(f"no checker on {start} in {board}")
        mover[start - 1] -= 1
        if end > 0:
            across = 24 - end  # the mover's point n is the opponent's 25 - n
            if opponent[across] > 1:
                raise ValueError(f"point {end} is blocked in {board}")
            if opponent[across] == 1:
                opponent[across] = 0
                opponent[24] += 1
            mover[end - 1] += 1
    return mover, opponent


def legal_results(board: Board) -> dict[str, list[str]]:
    results = {}
    for high, low in ROLLS:
        gnubg.command(f"set dice {high} {low}")
        ids: set[str] = set()
        for entry in gnubg.hint(100000)["hint"]:
            steps = gnubg.parsemove(entry["move"])
            ids.add(gnubg.positionid(apply_play(board, steps)))
        results[f"{high}{low}"] = sorted(ids)
    return results


def main() -> None:
    with open(os.environ["GNUBG_ORACLE_IN"]) as handle:
        boards: list[Any] = json.load(handle)["boards"]
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("new game")
    out = []
    for board in boards:
        board = (tuple(board[0]), tuple(board[1]))
        position_id = gnubg.positionid(board)
        gnubg.command("set board " + position_id)
        if tuple(tuple(half) for half in gnubg.board()) != board:
            raise RuntimeError(f"gnubg did not take the board {board}")
        out.append({"position_id": position_id, "rolls": legal_results(board)})
    with open(os.environ["GNUBG_ORACLE_OUT"], "w") as handle:
        json.dump({"results": out}, handle)


main()
