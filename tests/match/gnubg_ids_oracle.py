"""Run inside GNU Backgammon (``gnubg -t -q -r -p gnubg_ids_oracle.py``): gnubg's Position
ID and Match ID at every step of imported .mat matches (RULES.md 9.4).

Environment: ``ORACLE_DIR``, a folder of ``*.mat`` files. For each file gnubg imports
the match, swaps the players (a .mat import makes the left-hand player gnubg's player 0;
tavla's White, seat 0, is gnubg's player 1) and steps through every game: at each of the
game's records (the board before it, with its dice) and at the end of the game it reads
``gnubg.positionid()`` and ``gnubg.matchid()``. Next to each ``.mat`` it writes
``<name>.ids.json``: ``{"games": [{"records": [action, ...], "ids": [[pid, mid], ...]}]}``,
one more ID pair than records (the last is the end of the game).
"""

import json
import os
from typing import Any

import gnubg


def read_ids() -> list[str]:
    return [gnubg.positionid(), gnubg.matchid()]


def walk(path: str) -> list[dict[str, Any]]:
    gnubg.command(f"import mat {path}")
    gnubg.command("swap players")
    games = gnubg.match(0, 0, 0, 0)["games"]
    gnubg.navigate(game=-len(games))  # the first record of the first game
    out = []
    for index, game in enumerate(games):
        if index:
            gnubg.navigate(game=1)
        records = [record["action"] for record in game["game"]]
        ids = [read_ids()]
        for _ in records:
            gnubg.navigate(next=1)
            ids.append(read_ids())
        out.append({"records": records, "ids": ids})
    return out


def main() -> None:
    folder = os.environ["ORACLE_DIR"]
    gnubg.command("set display off")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".mat"):
            path = os.path.join(folder, name)
            with open(path[: -len(".mat")] + ".ids.json", "w") as handle:
                json.dump({"games": walk(path)}, handle, separators=(",", ":"))


main()
