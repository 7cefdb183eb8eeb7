"""The .mat differential tests against GNU Backgammon itself (RULES.md 9.4).

Both directions: our random matches exported as .mat are imported by gnubg with
no WARNING and read as the same match; matches gnubg plays against itself (0-ply)
and exports import here and replay to gnubg's moves, results and final boards.
With ``TAVLA_UPDATE_FIXTURES=1`` the results replace the stored fixtures.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from tests.conftest import needs_gnubg
from tests.match.mat_compare import differences
from tests.match.mat_oracle import DATA, run_oracle, write_our_matches

from tavla.match.mat import import_mat

pytestmark = [pytest.mark.gnubg, needs_gnubg]
OUR_SEEDS = range(10)
GNUBG_GAMES = 6


def _keep(folder: Path, target: Path) -> None:
    if os.environ.get("TAVLA_UPDATE_FIXTURES") == "1":
        target.mkdir(parents=True, exist_ok=True)
        for path in folder.iterdir():
            shutil.copy(path, target / path.name)


def test_our_matches_import_into_gnubg(tmp_path: Path) -> None:
    write_our_matches(tmp_path, OUR_SEEDS)
    warnings = run_oracle("read", tmp_path)
    assert sorted(warnings) == sorted(f"ours_{seed}.mat" for seed in OUR_SEEDS)
    assert all(lines == [] for lines in warnings.values()), warnings
    for seed in OUR_SEEDS:
        path = tmp_path / f"ours_{seed}.mat"
        reading = json.loads((tmp_path / f"ours_{seed}.gnubg.json").read_text())
        assert differences(import_mat(path.read_text()), reading) == [], path.name
    _keep(tmp_path, DATA / "ours")


def test_gnubg_matches_import_into_ours(tmp_path: Path) -> None:
    run_oracle("play", tmp_path, GNUBG_GAMES)
    paths = sorted(tmp_path.glob("*.mat"))
    assert len(paths) == GNUBG_GAMES
    for path in paths:
        reading = json.loads(path.with_name(path.stem + ".gnubg.json").read_text())
        assert differences(import_mat(path.read_text()), reading) == [], path.name
    _keep(tmp_path, DATA / "gnubg")
