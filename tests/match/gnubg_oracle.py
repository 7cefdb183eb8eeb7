"""Run inside GNU Backgammon (``gnubg -t -q -r -p gnubg_oracle.py``): the oracle of the
.mat differential tests (RULES.md 9.4).

Environment: ``ORACLE_MODE`` is ``read`` (import every ``*.mat`` in ``ORACLE_DIR``)
or ``play`` (gnubg plays ``ORACLE_GAMES`` matches against itself at 0-ply and exports
them there as ``gnubg_<n>.mat``). Either way, next to each ``.mat`` it writes
``<name>.gnubg.json``: gnubg's reading of the match (every action, each game's
result and final board). Lines ``### FILE <name>`` on standard output mark which
file gnubg's messages (``WARNING ...``) belong to.
"""

import json
import os
import sys

import gnubg  # type: ignore[import-not-found]


def summary() -> dict:
    match = gnubg.match(0, 0, 0, 0)
    games = []
    gnubg.command("first game")
    for index, game in enumerate(match["games"]):
        if index:
            gnubg.command("next game")
        gnubg.navigate(next=len(game["game"]))
        actions = []
        for action in game["game"]:
            entry = {"player": action["player"], "action": action["action"]}
            if "dice" in action:
                entry["dice"] = list(action["dice"])
            if "move" in action:
                entry["move"] = [list(step) for step in action["move"]]
            actions.append(entry)
        games.append(
            {"info": game["info"], "actions": actions, "final_board": [list(b) for b in gnubg.board()]}
        )
    last = match["games"][-1]["info"]
    score = {"X": last["score-X"], "O": last["score-O"]}
    if last.get("winner") in score:
        score[last["winner"]] += last["points-won"]
    return {
        "length": match["match-info"]["match-length"],
        "names": [match["match-info"]["X"]["name"], match["match-info"]["O"]["name"]],
        "final_score": [score["X"], score["O"]],
        "games": games,
    }


def write_summary(path: str) -> None:
    with open(path[: -len(".mat")] + ".gnubg.json", "w") as out:
        json.dump(summary(), out, separators=(",", ":"))


def read_all(folder: str) -> None:
    for name in sorted(os.listdir(folder)):
        if name.endswith(".mat"):
            print(f"### FILE {name}")
            sys.stdout.flush()
            gnubg.command(f"import mat {os.path.join(folder, name)}")
            write_summary(os.path.join(folder, name))


def play_all(folder: str, count: int) -> None:
    for player in (0, 1):
        gnubg.command(f"set player {player} gnubg")
        gnubg.command(f"set player {player} chequerplay evaluation plies 0")
        gnubg.command(f"set player {player} cubedecision evaluation plies 0")
    for number in range(count):
        gnubg.command(f"set seed {number + 1}")
        gnubg.command(f"new match {3 + 2 * (number % 3)}")
        path = os.path.join(folder, f"gnubg_{number}.mat")
        gnubg.command(f"export match mat {path}")
        write_summary(path)


MODE = os.environ.get("ORACLE_MODE", "read")
FOLDER = os.environ["ORACLE_DIR"]
if MODE == "play":
    play_all(FOLDER, int(os.environ.get("ORACLE_GAMES", "6")))
else:
    read_all(FOLDER)
