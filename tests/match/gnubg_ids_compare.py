"""Line up GNU Backgammon's IDs of an imported .mat with our states of the same match
(RULES.md 9.4).

gnubg steps through a game record by record (``gnubg_ids_oracle.py``); at each record
it shows the board before it. The moments line up with our states thus:

- a ``move`` record: after the roll, before the move (our state before the move);
- a ``double`` record: before the roll, the doubler to act (our state before the double);
- a ``take`` or ``drop`` record: the double offered (our state before the answer);
- a ``resign`` record: before the resignation (our state before it);
- a ``set`` record: a roll followed by an accepted resignation, which a .mat keeps as a
  roll with no move (our state before the roll);
- after the last record: the end of the game (our state after the game's last action),
  not compared after a roll and a resignation: gnubg's final Match ID keeps the dice
  that were never played, ours shows the game over without them.

Resignations that were declined leave no trace in a .mat, and our moments before a roll
that was not followed by a double have no gnubg record: those are not compared.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavla.match.gnubg_ids import match_ids
from tavla.match.record import MatchRecord, replay_states
from tavla.match.state import MatchState

GNUBG = "/usr/games/gnubg"
ORACLE = Path(__file__).with_name("gnubg_ids_oracle.py")
FIXTURE = Path(__file__).parents[1] / "data" / "match" / "ids"
GNUBG_RECORD = {"move": "move", "double": "double", "take": "take", "drop": "drop", "accept": "resign"}


@dataclass(frozen=True)
class Moment:
    """One gnubg record (or a game's end) and our state at the same moment (None: not compared)."""

    game: int
    record: str
    state: MatchState | None


def our_moments(record: MatchRecord) -> list[list[Moment]]:
    """Per game, one moment per gnubg record and one for the end of the game."""
    states = list(replay_states(record))
    games: list[list[Moment]] = []
    resign_before: MatchState | None = None
    roll_before: MatchState | None = None  # before the roll not yet followed by a move
    for index, action in enumerate(record.actions):
        before, after = states[index], states[index + 1]
        if action.kind == "start":
            games.append([])
            continue
        if action.kind == "resign":
            resign_before = before
        if action.kind == "roll" and action.seat is not None:
            roll_before = before
        elif action.kind in ("move", "start"):
            roll_before = None
        kind = GNUBG_RECORD.get(action.kind)
        if kind == "resign":
            assert resign_before is not None
            if roll_before is not None:
                games[-1].append(Moment(len(games) - 1, "set", roll_before))
            games[-1].append(Moment(len(games) - 1, kind, resign_before))
        elif kind is not None:
            games[-1].append(Moment(len(games) - 1, kind, before))
        if after.result is not None and before.result is None:
            unplayed_roll = kind == "resign" and roll_before is not None
            games[-1].append(Moment(len(games) - 1, "end", None if unplayed_roll else after))
    return games


def differences(record: MatchRecord, reading: dict[str, Any]) -> tuple[list[str], dict[str, int]]:
    """Where our IDs differ from gnubg's, and how many moments of each kind were compared
    (by record, and those in the Crawford game and after it)."""
    problems: list[str] = []
    compared: dict[str, int] = {}
    ours = our_moments(record)
    theirs = reading["games"]
    if len(ours) != len(theirs):
        return [f"{len(ours)} games here, {len(theirs)} in gnubg"], compared
    for number, (moments, game) in enumerate(zip(ours, theirs, strict=True)):
        kinds = [moment.record for moment in moments]
        if kinds != [*game["records"], "end"]:
            problems.append(f"game {number + 1}: records {kinds} here, {game['records']} in gnubg")
            continue
        for step, (moment, ids) in enumerate(zip(moments, game["ids"], strict=True)):
            state = moment.state
            if state is None:
                continue
            labels = [moment.record]
            if state.crawford:
                labels.append("crawford")
            if state.post_crawford:
                labels.append("post-crawford")
            for label in labels:
                compared[label] = compared.get(label, 0) + 1
            mine = match_ids(state)
            if mine != tuple(ids):
                problems.append(
                    f"game {number + 1} record {step} ({moment.record}, {state.phase}): "
                    f"{mine[0]}:{mine[1]} here, {ids[0]}:{ids[1]} in gnubg"
                )
    return problems, compared


def run_ids_oracle(folder: Path) -> dict[str, dict[str, Any]]:
    """gnubg's reading (``<name>.ids.json``) of every ``.mat`` in ``folder``, by file name."""
    subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(ORACLE)],
        env=dict(os.environ, ORACLE_DIR=str(folder)),
        capture_output=True,
        timeout=300,
        check=True,
    )
    return {
        path.name: json.loads(path.with_suffix(".ids.json").read_text())
        for path in sorted(folder.glob("*.mat"))
    }
