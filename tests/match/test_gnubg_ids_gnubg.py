"""Our Position IDs and Match IDs against GNU Backgammon's (RULES.md 9.4).

gnubg imports the .mat of a match and steps through it record by record; at every
record (a move after its roll, a double before the roll, a take or drop with the double
offered, a resignation made before the roll) and at the end of every game (over,
resigned, dropped, score counted) its IDs must be ours for the same moment: see
``gnubg_ids_compare.py`` for how the moments line up. Moments before a roll with no
double after it, declined resignations and resignations after a roll have no gnubg
record and are not compared.

The stored readings in ``tests/data/match/ids`` (``python -m tests.match.make_ids_fixture``)
are checked without gnubg; with gnubg the check runs live on fresh matches, and the
stored readings are confirmed to be what gnubg writes now.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from tests.conftest import needs_gnubg
from tests.match.gnubg_ids_compare import FIXTURE, differences, run_ids_oracle
from tests.match.mat_oracle import our_random_match

from tavla.match.mat import export_mat, import_mat

LIVE_SEEDS = range(16)
EVERY_KIND = {"move", "double", "take", "drop", "resign", "end", "crawford", "post-crawford"}


def test_stored_gnubg_ids_are_ours() -> None:
    """RULES.md 9.4: gnubg's stored IDs of five matches (three of ours, two gnubg played)."""
    compared: Counter[str] = Counter()
    paths = sorted(FIXTURE.glob("*.mat"))
    assert len(paths) == 5
    for path in paths:
        reading = json.loads(path.with_suffix(".ids.json").read_text())
        problems, counts = differences(import_mat(path.read_text()), reading)
        assert problems == [], path.name
        compared.update(counts)
    assert set(compared) == EVERY_KIND
    assert compared["move"] > 500 and compared["end"] >= 15


@pytest.mark.gnubg
@needs_gnubg
def test_live_matches_agree_with_gnubg(tmp_path: Path) -> None:
    """RULES.md 9.4: fresh random matches of ours, each moment gnubg can show."""
    records = {f"ours_{seed}.mat": our_random_match(seed) for seed in LIVE_SEEDS}
    for name, record in records.items():
        (tmp_path / name).write_text(export_mat(record))
    readings = run_ids_oracle(tmp_path)
    compared: Counter[str] = Counter()
    for name, record in records.items():
        problems, counts = differences(record, readings[name])
        assert problems == [], name
        compared.update(counts)
    # "set": a roll then a resignation, which the .mat now keeps as gnubg writes it
    assert set(compared) == EVERY_KIND | {"set"}, compared


@pytest.mark.gnubg
@needs_gnubg
def test_stored_readings_are_what_gnubg_writes(tmp_path: Path) -> None:
    """RULES.md 9.4: the stored readings are still what gnubg writes for those .mat files."""
    for path in FIXTURE.glob("*.mat"):
        shutil.copy(path, tmp_path / path.name)
    for name, reading in run_ids_oracle(tmp_path).items():
        stored = json.loads((FIXTURE / name).with_suffix(".ids.json").read_text())
        assert reading == stored, name
