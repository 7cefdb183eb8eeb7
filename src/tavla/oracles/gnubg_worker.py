"""Runs inside GNU Backgammon and answers :class:`tavla.oracles.gnubg.GnubgOracle`.

    TAVLA_GNUBG_SOCKET=/tmp/x/sock gnubg -t -q -r -p gnubg_worker.py

gnubg's embedded Python cannot import the library, so this file uses the standard
library and the ``gnubg`` module only. It connects to the Unix socket the host
listens on and answers one JSON line per request line:

- ``{"op": "evaluate", "ids": [POSITION_ID, ...], "plies": N}``: gnubg's cubeless
  estimate of each position for its player on roll, ``{"p": [[win, win_gammon,
  win_backgammon, lose_gammon, lose_backgammon], ...]}``;
- ``{"op": "best", "id": POSITION_ID, "dice": [A, B], "plies": N}``: gnubg's play at
  N plies, as the Position ID after it with the opponent on roll, ``{"after": ID}``
  (``null`` when no checker can move);
- ``{"op": "quit"}``: ends the process.

An error in a request is answered ``{"error": TEXT}`` and the worker goes on.
"""

from __future__ import annotations

import json
import os
import socket
from typing import Any

import gnubg  # the module of gnubg's embedded Python (see pyproject.toml's mypy overrides)

BAR = 25


def context(plies: int) -> Any:
    # cubeless, deterministic, with gnubg's move-filter pruning at the deeper plies
    return gnubg.evalcontext(0, int(plies), 1, 1, 0.0)


def after_play(board: Any, steps: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The board after ``steps`` (gnubg's (from, to) pairs, 25 the bar, 0 off) as
    (mover, opponent): the mover no longer on roll."""
    opponent = list(board[0])
    mover = list(board[1])
    for start, end in steps:
        mover[start - 1] -= 1
        if end > 0:
            across = 24 - end  # the mover's point n is the opponent's point 25 - n
            if opponent[across] == 1:
                opponent[across] = 0
                opponent[BAR - 1] += 1
            mover[end - 1] += 1
    return mover, opponent


def answer(request: dict[str, Any], cube: Any) -> dict[str, Any]:
    op = request["op"]
    if op == "evaluate":
        ec = context(request.get("plies", 0))
        out: list[list[float]] = []
        for pid in request["ids"]:
            estimate = gnubg.evaluate(gnubg.positionfromid(pid), cube, ec)
            out.append([round(value, 7) for value in estimate[:5]])
        return {"p": out}
    if op == "best":
        board = gnubg.positionfromid(request["id"])
        high, low = request["dice"]
        gnubg.command(f"set dice {high} {low}")
        flat = gnubg.findbestmove(board, cube, context(request.get("plies", 0)))
        steps = [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2) if flat[i] > 0]
        if not steps:
            return {"after": None}
        return {"after": gnubg.positionid(after_play(board, steps))}
    raise ValueError(f"unknown op {op!r}")


def main() -> None:
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("new game")
    cube = gnubg.cubeinfo()
    link = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    link.connect(os.environ["TAVLA_GNUBG_SOCKET"])
    reader = link.makefile("r", encoding="utf-8")
    writer = link.makefile("w", encoding="utf-8")
    for line in reader:
        request = json.loads(line)
        if request.get("op") == "quit":
            break
        try:
            reply = answer(request, cube)
        except Exception as error:  # the host gets every failure as a reply, never silence
            reply = {"error": f"{type(error).__name__}: {error}"}
        writer.write(json.dumps(reply) + "\n")
        writer.flush()
    link.close()


main()
