"""Every way a game ends, as GNU Backgammon itself records it in .mat (RULES.md 9.4).

gnubg (``gnubg_oracle.py``, mode ``endings``) records matches between two typed
players: resignations of a single game, a gammon and a backgammon before the roll
and after it (gnubg writes the roll with no move, ``51:``), at cube 1 and 2; doubles
dropped at 2 and 4; and games played to the last checker until one ended in each of
a single win, a gammon and a backgammon. Each file must import here and replay to
gnubg's moves, game results and final score. With ``TAVLA_UPDATE_FIXTURES=1`` the
files replace ``tests/data/match/endings``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from tests.conftest import needs_gnubg
from tests.match.mat_compare import differences
from tests.match.mat_oracle import DATA, run_oracle

from tavla.match.mat import import_mat
from tavla.match.record import replay

pytestmark = [pytest.mark.gnubg, needs_gnubg]


def _endings(reading: dict[str, object]) -> list[tuple[str, int]]:
    """(how, points) of every game gnubg finished: how is move, drop or resign."""
    found = []
    for game in reading["games"]:  # type: ignore[attr-defined]
        info = game["info"]
        if info.get("winner") is not None:
            how = "resign" if info.get("resigned") else game["actions"][-1]["action"]
            found.append((how, info["points-won"]))
    return found


def test_every_ending_gnubg_records_imports_to_its_score(tmp_path: Path) -> None:
    run_oracle("endings", tmp_path)
    readings = {
        path.stem: json.loads(path.with_name(path.stem + ".gnubg.json").read_text())
        for path in tmp_path.glob("*.mat")
    }
    assert sorted(readings) == ["bearoff", "drop", "resign_after_roll", "resign_before_roll"]
    for name, reading in readings.items():
        assert reading["warnings"] == [], name
        record = import_mat((tmp_path / f"{name}.mat").read_text())
        assert differences(record, reading) == [], name
        assert list(replay(record).score) == reading["final_score"], name
    # gnubg recorded what was asked of it: every level of every ending
    for name in ("resign_before_roll", "resign_after_roll"):
        assert _endings(readings[name]) == [("resign", 1), ("resign", 2), ("resign", 3), ("resign", 4)]
    assert _endings(readings["drop"]) == [("drop", 1), ("drop", 2)]
    assert {points for how, points in _endings(readings["bearoff"]) if how == "move"} == {1, 2, 3}
    after_roll = (tmp_path / "resign_after_roll.mat").read_text()
    assert len(re.findall(r"\b51:\s+Wins", after_roll)) == 4  # the roll written with no move
    if os.environ.get("TAVLA_UPDATE_FIXTURES") == "1":
        target = DATA / "endings"
        target.mkdir(parents=True, exist_ok=True)
        for path in tmp_path.iterdir():
            shutil.copy(path, target / path.name)
