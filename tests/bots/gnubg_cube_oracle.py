"""GNU Backgammon's 0-ply cube decisions as an oracle for tavla.bots.cube.

    python -m tests.bots.gnubg_cube_oracle      # rewrites tests/data/gnubg_cube.json

For sampled tabla positions of the contact and crashed classes (where gnubg's cube-life
index is 0.68, our default) and a set of cube contexts, gnubg's cubeless chances at
0-ply and its cubeful equities of no double, double/take and double/pass (in a match
as match winning chances). tests/bots/test_cube_gnubg.py feeds the same chances to
tavla.bots.cube and compares.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.oracle.boards import gnubg_board
from tests.oracle.positions import sample_positions
from tests.oracle.run_gnubg import gnubg_version, run_batches

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "gnubg_cube.json"
CONTACT_CLASSES = (9, 10)
"""gnubg 1.07's position classes crashed and contact: cube-life index 0.68."""

# gnubg.cubeinfo's arguments: cube value, owner (-1 centred, 0 the player on roll, 1 the
# other), the player on roll (0), match length (0 money), score (on roll first), Crawford.
CONTEXTS: dict[str, list[Any]] = {
    "money centred": [1, -1, 0, 0, [0, 0], 0],
    "money mine at 2": [2, 0, 0, 0, [0, 0], 0],
    "money theirs at 2": [2, 1, 0, 0, [0, 0], 0],
    "money mine at 32": [32, 0, 0, 0, [0, 0], 0],
    "7 points, 5-away 3-away": [1, -1, 0, 7, [2, 4], 0],
    "9 points, 3-away 5-away, mine at 2": [2, 0, 0, 9, [6, 4], 0],
    "2-away 2-away": [1, -1, 0, 5, [3, 3], 0],
    "Crawford, 1-away 4-away": [1, -1, 0, 7, [6, 3], 1],
    "post-Crawford, 4-away 1-away": [1, -1, 0, 7, [3, 6], 0],
    "post-Crawford, 1-away 3-away, theirs at 2": [2, 1, 0, 5, [4, 2], 0],
    "11 points, 9-away 6-away, theirs at 4": [4, 1, 0, 11, [2, 5], 0],
}


def make(count: int = 60, seed: int = 9) -> dict[str, Any]:
    positions = [position for position, _ in sample_positions(count, seed)]
    cases = [{"board": gnubg_board(p), "cube": cube} for p in positions for cube in CONTEXTS.values()]
    names = [name for _ in positions for name in CONTEXTS]
    tpns = [p.notation() for p in positions for _ in CONTEXTS]
    results = run_batches("gnubg_cube.py", "cases", cases, batch=len(CONTEXTS) * 20)
    kept = [
        {"tpn": tpn, "context": name, "cube": case["cube"], **_rounded(result)}
        for tpn, name, case, result in zip(tpns, names, cases, results, strict=True)
        if result["class"] in CONTACT_CLASSES
    ]
    return {
        "about": "gnubg 0-ply: cubeless chances of the player on roll, cubeful equities "
        "[optimal, no double, double/take, double/pass] (normalised), their match winning "
        "chances in a match, the recommendation; contact and crashed positions only",
        "made_by": "python -m tests.bots.gnubg_cube_oracle",
        "gnubg": gnubg_version(),
        "cases": kept,
    }


def _rounded(result: dict[str, Any]) -> dict[str, Any]:
    """gnubg computes in single precision: 8 significant digits keep all it knows."""
    return {
        key: [float(f"{v:.8g}") for v in value] if isinstance(value, list) else value
        for key, value in result.items()
    }


def write(data: dict[str, Any], path: Path = FIXTURE) -> None:
    """One case a line, so that a regenerated file diffs case by case."""
    lines = ",\n".join(json.dumps(case, sort_keys=True) for case in data["cases"])
    head = {key: value for key, value in data.items() if key != "cases"}
    text = json.dumps(head, sort_keys=True)[:-1] + f', "cases": [\n{lines}\n]}}\n'
    path.write_text(text)
    print(f"wrote {path} ({path.stat().st_size} bytes, {len(data['cases'])} cases)")


if __name__ == "__main__":
    write(make())
    sys.exit(0)
