"""Runs inside GNU Backgammon: Position IDs and Match IDs as gnubg writes them.

    GNUBG_ORACLE_IN=in.json GNUBG_ORACLE_OUT=out.json gnubg -t -q -r -p gnubg_ids.py

``in.json`` holds three lists:
- ``boards``: gnubg boards ``[not_on_roll, on_roll]``; answered with gnubg's Position ID.
- ``match_keys``: ``[cubeinfo_args, posinfo_args]`` for ``gnubg.cubeinfo`` and
  ``gnubg.posinfo``; answered with ``gnubg.matchid`` of the pair and the dictionaries.
- ``scenarios``: ``{"commands": [...], "board": board or null}``: gnubg commands run in
  a fresh session (``BOARD`` in a command stands for the board's Position ID); answered
  with gnubg's board, Position ID, Match ID, posinfo and cubeinfo afterwards.
``out.json`` is ``{"results": {"boards": [...], "match_keys": [...], "scenarios": [...]}}``.
"""

import json
import os
from typing import Any

import gnubg

CUBE_KEYS = ("cube", "cubeowner", "move", "matchto", "score", "crawford", "jacoby")


def cube_fields(info: dict[str, Any]) -> dict[str, Any]:
    return {key: info[key] for key in CUBE_KEYS}


def board_ids(boards: list[Any]) -> list[dict[str, Any]]:
    out = []
    for board in boards:
        board = (tuple(board[0]), tuple(board[1]))
        position_id = gnubg.positionid(board)
        back = gnubg.positionfromid(position_id)
        if tuple(tuple(half) for half in back) != board:
            raise RuntimeError(f"gnubg does not read back {position_id}")
        out.append({"board": [list(half) for half in board], "position_id": position_id})
    return out


def match_keys(keys: list[Any]) -> list[dict[str, Any]]:
    out = []
    for cube_args, pos_args in keys:
        cube = gnubg.cubeinfo(*[tuple(a) if isinstance(a, list) else a for a in cube_args])
        pos = gnubg.posinfo(*[tuple(a) if isinstance(a, list) else a for a in pos_args])
        out.append({"cubeinfo": cube_fields(cube), "posinfo": pos, "match_id": gnubg.matchid(cube, pos)})
    return out


def scenario(commands: list[str], board: list[list[int]] | None) -> dict[str, Any]:
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    for command in commands:
        if board is not None:
            command = command.replace("BOARD", gnubg.positionid((tuple(board[0]), tuple(board[1]))))
        gnubg.command(command)
    return {
        "commands": commands,
        "board": [list(half) for half in gnubg.board()],
        "position_id": gnubg.positionid(),
        "match_id": gnubg.matchid(),
        "posinfo": gnubg.posinfo(),
        "cubeinfo": cube_fields(gnubg.cubeinfo()),
    }


def main() -> None:
    with open(os.environ["GNUBG_ORACLE_IN"]) as handle:
        data = json.load(handle)
    gnubg.command("set confirm new off")
    results = {
        "boards": board_ids(data.get("boards", [])),
        "match_keys": match_keys(data.get("match_keys", [])),
        "scenarios": [scenario(item["commands"], item.get("board")) for item in data.get("scenarios", [])],
    }
    with open(os.environ["GNUBG_ORACLE_OUT"], "w") as handle:
        json.dump({"results": results}, handle)


main()
