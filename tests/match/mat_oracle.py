"""Running the GNU Backgammon oracle (``gnubg_oracle.py``) and making our side of
the .mat differential tests (RULES.md 9.4)."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

from tavla.core.dice import SeededDice
from tavla.match.mat import export_mat
from tavla.match.match import Match
from tavla.match.players import RandomPlayer, play_random_match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings

GNUBG = "/usr/games/gnubg"
HERE = Path(__file__).parent
DATA = HERE.parent / "data" / "match"


def our_random_match(seed: int) -> MatchRecord:
    """A tabla match between random players, with cube actions and resignations."""
    length = (3, 5, 7)[seed % 3]
    match = Match(
        MatchSettings("tabla", length, names=("Ayse", "Boris")), dice=SeededDice(seed), now=lambda: 0
    )
    players = tuple(
        RandomPlayer(random.Random(seed * 2 + side), double_rate=0.03, resign_rate=0.01) for side in (0, 1)
    )
    play_random_match(match, (players[0], players[1]))
    return MatchRecord.of(match)


def run_oracle(mode: str, folder: Path, games: int = 0) -> dict[str, list[str]]:
    """Run gnubg on ``folder``; returns gnubg's WARNING lines per .mat file and stores
    them in each ``.gnubg.json`` under ``warnings``."""
    environment = dict(os.environ, ORACLE_MODE=mode, ORACLE_DIR=str(folder), ORACLE_GAMES=str(games))
    completed = subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(HERE / "gnubg_oracle.py")],
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    warnings: dict[str, list[str]] = {}
    current = ""
    for line in (completed.stdout + completed.stderr).splitlines():
        if line.startswith("### FILE "):
            current = line.removeprefix("### FILE ").strip()
            warnings[current] = []
        elif "WARNING" in line.upper() and current:
            warnings[current].append(line.strip())
    for summary in folder.glob("*.gnubg.json"):
        name = summary.name.removesuffix(".gnubg.json") + ".mat"
        data = json.loads(summary.read_text())
        data["warnings"] = warnings.get(name, [])
        summary.write_text(json.dumps(data, separators=(",", ":")))
    return warnings


def write_our_matches(folder: Path, seeds: range) -> None:
    for seed in seeds:
        (folder / f"ours_{seed}.mat").write_text(export_mat(our_random_match(seed)))
