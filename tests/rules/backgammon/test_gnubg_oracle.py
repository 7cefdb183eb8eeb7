"""Legal turns of tabla compared with GNU Backgammon's (RULES.md 1.3 and 2).

The fixture ``tests/data/gnubg_moves.json.xz`` holds, for a few hundred positions and
each of the 21 rolls, the positions that gnubg's legal plays lead to (gnubg's own
Position IDs, made by ``python -m tests.oracle.make_fixtures moves``). Turns are
compared as sets of resulting positions (RULES.md 1.3: two sequences that end in
the same position are one turn), and a roll gnubg cannot play must be our pass.
"""

from __future__ import annotations

import json
import lzma
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.backgammon.gnubg_id import decode_position_id, encode_position_id

REPO = Path(__file__).resolve().parents[3]
FIXTURE = REPO / "tests" / "data" / "gnubg_moves.json.xz"
GNUBG = "/usr/games/gnubg"


def load(path: Path) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads(lzma.decompress(path.read_bytes()))["positions"]
    return entries


def mismatches(entries: list[dict[str, Any]]) -> tuple[int, list[str]]:
    """(position x roll pairs compared, a description of each disagreement)."""
    compared = 0
    found: list[str] = []
    for entry in entries:
        position = BackgammonPosition.from_notation(entry["tpn"])
        for roll, expected in entry["rolls"].items():
            compared += 1
            turns = position.with_roll((int(roll[0]), int(roll[1]))).legal_turns()
            if not expected:
                passed = position.with_side(1 - position.side)
                if len(turns) != 1 or turns[0].text != "-" or turns[0].after != passed:
                    found.append(f"{entry['tpn']} roll {roll}: gnubg has no play, we have {turns}")
                continue
            ours = Counter(encode_position_id(turn.after) for turn in turns)
            if ours != Counter(expected):
                missing = sorted(set(expected) - set(ours))
                extra = sorted(set(ours) - set(expected))
                doubled = sorted(key for key, count in ours.items() if count > 1)
                found.append(
                    f"{entry['tpn']} roll {roll}: missing {missing}, extra {extra}, repeated {doubled}"
                )
    return compared, found


@pytest.fixture(scope="module")
def entries() -> list[dict[str, Any]]:
    return load(FIXTURE)


def test_fixture_covers_bar_bear_off_hits_and_passes(entries: list[dict[str, Any]]) -> None:
    tags = Counter(entry["tag"].split(" (")[0] for entry in entries)
    assert len(entries) >= 300
    assert all(len(entry["rolls"]) == 21 for entry in entries)
    assert tags["bar"] >= 60 and tags["bear-off"] >= 60 and tags["hit"] >= 60
    sides = Counter(entry["tpn"].split(" ")[4] for entry in entries)
    assert sides["w"] >= 100 and sides["b"] >= 100
    passes = sum(1 for entry in entries for plays in entry["rolls"].values() if not plays)
    assert passes >= 20


GROUPS = ("bar", "bear-off", "hit", "other", "hand-made")


def group_of(entry: dict[str, Any]) -> str:
    tag: str = entry["tag"]
    return tag if tag in GROUPS else "hand-made"


@pytest.mark.parametrize("group", GROUPS)
def test_legal_turns_agree_with_gnubg(entries: list[dict[str, Any]], group: str) -> None:
    chosen = [entry for entry in entries if group_of(entry) == group]
    compared, found = mismatches(chosen)
    assert compared == 21 * len(chosen) > 0
    assert not found, f"{len(found)} of {compared} disagree; first: " + "\n".join(found[:5])


def test_the_comparison_notices_a_missing_play_and_a_false_pass(entries: list[dict[str, Any]]) -> None:
    entry = next(e for e in entries if len(e["rolls"]["21"]) >= 2)
    short = {**entry, "rolls": {"21": entry["rolls"]["21"][1:]}}
    assert len(mismatches([short])[1]) == 1
    blocked = next(e for e in entries for plays in e["rolls"].values() if not plays)
    roll = next(key for key, plays in blocked["rolls"].items() if not plays)
    false_pass = {**blocked, "rolls": {roll: [blocked["position_id"]]}}
    assert len(mismatches([false_pass])[1]) == 1


def test_position_ids_of_the_sample_agree_with_gnubg(entries: list[dict[str, Any]]) -> None:
    for entry in entries:
        position = BackgammonPosition.from_notation(entry["tpn"])
        assert encode_position_id(position) == entry["position_id"], entry["tpn"]
        assert decode_position_id(entry["position_id"], side=position.side) == position


@pytest.mark.gnubg
@pytest.mark.skipif(shutil.which(GNUBG) is None, reason="GNU Backgammon is not installed")
def test_live_sample_agrees_with_gnubg(tmp_path: Path) -> None:
    """A fresh sample (another seed than the fixture's), asked of gnubg now."""
    out = tmp_path / "moves.json.xz"
    command = [sys.executable, "-m", "tests.oracle.make_fixtures", "moves", "--positions", "5"]
    command += ["--seed", "20261122", "--no-extremes", "--out", str(out)]
    subprocess.run(command, cwd=REPO, check=True, capture_output=True, timeout=300)
    fresh = load(out)
    assert len(fresh) == 5
    compared, found = mismatches(fresh)
    assert compared == 5 * 21
    assert not found, "\n".join(found[:5])
