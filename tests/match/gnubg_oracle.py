"""Run inside GNU Backgammon (``gnubg -t -q -r -p gnubg_oracle.py``): the oracle of the
.mat differential tests (RULES.md 9.4).

Environment: ``ORACLE_MODE`` is ``read`` (import every ``*.mat`` in ``ORACLE_DIR``),
``play`` (gnubg plays ``ORACLE_GAMES`` matches against itself at 0-ply and exports
them there as ``gnubg_<n>.mat``) or ``endings`` (matches made of games that end each
way a game can end, exported there as ``<ending>.mat``: see ``play_endings``). In
every mode, next to each ``.mat`` it writes ``<name>.gnubg.json``: gnubg's reading of
the match (every action, each game's result and final board). Lines ``### FILE
<name>`` on standard output mark which file gnubg's messages (``WARNING ...``) belong to.
"""

import json
import os
import sys
from typing import Any

import gnubg


def summary() -> dict[str, Any]:
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


OPENING = ["set dice 6 2", "move 13/7 24/22"]
"""A first turn; whoever the opening roll chose plays it (legal for either side)."""

SCRIPTED = {
    "resign_before_roll": [
        [*OPENING, "resign single", "accept"],
        [*OPENING, "resign gammon", "accept"],
        [*OPENING, "resign backgammon", "accept"],
        [*OPENING, "double", "take", "resign gammon", "accept"],
    ],
    "resign_after_roll": [
        [*OPENING, "set dice 5 1", "resign single", "accept"],
        [*OPENING, "set dice 5 1", "resign gammon", "accept"],
        [*OPENING, "set dice 5 1", "resign backgammon", "accept"],
        [*OPENING, "double", "take", "set dice 5 1", "resign gammon", "accept"],
    ],
    "drop": [
        [*OPENING, "double", "drop"],
        [*OPENING, "double", "take", "set dice 5 1", "move 13/8 24/23", "double", "drop"],
    ],
}
"""Games typed by two human players, as gnubg records them."""


def _game_info() -> dict[str, Any]:
    info: dict[str, Any] = gnubg.match(0, 0, 0, 0)["games"][-1]["info"]
    return info


def _play_out(weakness: float) -> None:
    """Play the game to its end: gnubg's best move for player 0, for player 1 the move
    ``weakness`` of the way down gnubg's list (1: the worst), so that games end with
    single wins, gammons and backgammons. Humans never resign: the board decides."""
    first = True
    while _game_info().get("winner") is None:
        if not first:
            gnubg.command("roll")  # no legal move: gnubg passes the turn by itself
        first = False
        if _game_info().get("winner") is not None:
            break
        try:
            hints = gnubg.hint(1000)["hint"]
        except Exception:
            hints = []
        if not hints:
            continue
        on_roll = gnubg.cubeinfo()["move"]
        pick = 0 if on_roll == 0 else round(weakness * (len(hints) - 1))
        gnubg.command("move " + hints[pick]["move"])


def play_endings(folder: str) -> None:
    """The matches of ``SCRIPTED``, and ``bearoff``: games played to the last checker
    until one ended in each of a single win, a gammon and a backgammon."""
    gnubg.command("set automatic game off")
    gnubg.command("set automatic roll off")
    gnubg.command("set evaluation chequerplay evaluation plies 0")
    for player in (0, 1):
        gnubg.command(f"set player {player} human")
    gnubg.command("set seed 7")
    for name, games in SCRIPTED.items():
        gnubg.command("new match 15")
        for index, commands in enumerate(games):
            if index:
                gnubg.command("new game")
            for command in commands:
                gnubg.command(command)
        path = os.path.join(folder, f"{name}.mat")
        gnubg.command(f"export match mat {path}")
        write_summary(path)
    gnubg.command("set cube use off")
    gnubg.command("new match 59")
    seen = set()
    weaknesses = (0.0, 0.3, 0.5, 0.7, 1.0)
    for index in range(40):
        if index:
            gnubg.command("new game")
        _play_out(weaknesses[index % len(weaknesses)])
        seen.add(_game_info()["points-won"])
        if seen >= {1, 2, 3}:
            break
    path = os.path.join(folder, "bearoff.mat")
    gnubg.command(f"export match mat {path}")
    write_summary(path)


MODE = os.environ.get("ORACLE_MODE", "read")
FOLDER = os.environ["ORACLE_DIR"]
if MODE == "play":
    play_all(FOLDER, int(os.environ.get("ORACLE_GAMES", "6")))
elif MODE == "endings":
    play_endings(FOLDER)
else:
    read_all(FOLDER)
