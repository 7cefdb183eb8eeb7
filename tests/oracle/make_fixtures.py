"""Regenerate the gnubg oracle fixtures (needs /usr/games/gnubg).

    python -m tests.oracle.make_fixtures moves   # tests/data/gnubg_moves.json.xz
    python -m tests.oracle.make_fixtures ids     # tests/data/gnubg_ids.json

``moves``: for each sampled tabla position and each of the 21 rolls, the set of
positions gnubg's legal plays lead to, as gnubg's own Position IDs (opponent on roll);
``[]`` where no play is legal. ``ids``: Position IDs and Match IDs that gnubg wrote for
boards, for cube/position dictionaries, and after command sequences (real match
states). Run from the repository root; ``--positions`` and ``--seed`` choose a sample,
``--out`` writes elsewhere (the live tests write a small sample to a temporary file).
"""

from __future__ import annotations

import argparse
import json
import lzma
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from tavla.core.protocol import BLACK, WHITE
from tavla.rules.backgammon import BackgammonPosition

from .boards import gnubg_board
from .positions import extreme_positions, is_bearing_off, is_on_bar, sample_positions
from .run_gnubg import gnubg_version, run_batches, run_script

DATA = Path(__file__).resolve().parents[1] / "data"
MOVES_FIXTURE = DATA / "gnubg_moves.json.xz"
IDS_FIXTURE = DATA / "gnubg_ids.json"
GNUBG_PLAYER = {WHITE: 1, BLACK: 0}  # the mapping gnubg_id documents: White is gnubg's player 1


def with_both_sides(cases: list[tuple[BackgammonPosition, str]]) -> list[tuple[BackgammonPosition, str]]:
    out: list[tuple[BackgammonPosition, str]] = []
    for position, tag in cases:
        out.append((position, tag))
        out.append((position.with_side(1 - position.side), f"{tag} (other side to act)"))
    return out


def make_moves(count: int, seed: int, extremes: bool) -> dict[str, Any]:
    cases = sample_positions(count, seed)
    if extremes:
        cases += with_both_sides(extreme_positions())
    started = time.monotonic()
    results = run_batches("gnubg_moves.py", "boards", [gnubg_board(position) for position, _ in cases])
    print(f"gnubg listed plays for {len(cases)} positions x 21 rolls in {time.monotonic() - started:.0f} s")
    return {
        "about": "tabla positions; per roll the Position IDs (gnubg's, opponent on roll) of every "
        "legal play's result as listed by gnubg's hint; [] = no legal play",
        "made_by": "python -m tests.oracle.make_fixtures moves",
        "gnubg": gnubg_version(),
        "positions": [
            {
                "tpn": position.notation(),
                "tag": tag,
                "position_id": result["position_id"],
                "rolls": result["rolls"],
            }
            for (position, tag), result in zip(cases, results, strict=True)
        ],
    }


# ------------------------------------------------------------------------ IDs
def random_match_keys(choose: random.Random, count: int) -> list[list[list[Any]]]:
    """Argument lists for gnubg.cubeinfo and gnubg.posinfo, varied field by field."""
    keys: list[list[list[Any]]] = [[[1, -1, 1, 0, [0, 0]], [1, 0, 0, 0, [0, 0]]]]  # before the opening roll
    for _ in range(count):
        # gnubg's cubeinfo crashes past its match equity table (matches over 64
        # points, big cubes in a match), so those fields are varied in money play only.
        length = choose.choice([0, 0, 0, 1, 3, 5, 7, 11, 25, 64])
        score = [choose.randrange(length), choose.randrange(length)] if length else [0, 0]
        crawford = int(length > 1 and length - 1 in score and choose.random() < 0.5)
        cube_log = choose.randrange(0, 16) if length == 0 else choose.randrange(0, 4)
        cube = [1 << cube_log, choose.choice([-1, 0, 1]), choose.randrange(2), length, score, crawford]
        dice = [choose.randint(1, 6), choose.randint(1, 6)] if choose.random() < 0.6 else [0, 0]
        position = [choose.randrange(2), choose.randrange(4), choose.randrange(2), choose.randrange(5), dice]
        keys.append([cube, position])
    return keys


def scenarios(positions: list[BackgammonPosition]) -> list[dict[str, Any]]:
    """gnubg command sequences: money and match states, doubles, resignations, boards."""
    plain: list[list[str]] = [
        ["new session", "set turn 1"],
        ["new session", "set turn 0", "set dice 3 1"],
        ["new session", "set turn 1", "set dice 1 3"],
        ["new session", "set turn 1", "double"],
        ["new session", "set turn 0", "double"],
        ["new session", "set turn 1", "resign single"],
        ["new session", "set turn 0", "resign gammon"],
        ["new session", "set turn 1", "resign backgammon"],
        ["new session", "set cube value 16", "set cube owner 1", "set turn 0", "set dice 2 1"],
        ["new session", "set cube value 2", "set cube owner 0", "set turn 0", "double"],
        ["set jacoby off", "new session", "set turn 1", "set dice 4 2", "set jacoby on"],
        [
            "new match 7",
            "set score 2 4",
            "set cube value 4",
            "set cube owner 0",
            "set turn 1",
            "set dice 5 2",
        ],
        ["new match 5", "set score 4 2", "set crawford on", "set turn 0", "set dice 6 5"],
        ["new match 5", "set score 3 4", "set crawford on", "set turn 1"],
        ["new match 9", "set score 8 7", "set crawford off", "set turn 1", "set dice 2 2"],
        [
            "new match 25",
            "set score 13 21",
            "set cube value 8",
            "set cube owner 1",
            "set turn 0",
            "set dice 4 4",
        ],
        ["new match 3", "set score 1 0", "set cube value 2", "set cube owner 1", "set turn 1", "double"],
        ["new match 1", "set turn 0", "set dice 6 1"],
    ]
    out: list[dict[str, Any]] = [{"commands": commands, "board": None, "tpn": None} for commands in plain]
    dice_cycle = [(3, 1), (6, 6), (5, 2), (1, 1), (4, 6), (2, 5)]
    for index, position in enumerate(positions):
        die1, die2 = dice_cycle[index % len(dice_cycle)]
        commands = [
            "new session" if index % 2 else "new match 7",
            f"set turn {GNUBG_PLAYER[position.side]}",
            "set board BOARD",
            f"set dice {die1} {die2}",
        ]
        rolled = position.with_roll((die1, die2))
        out.append({"commands": commands, "board": gnubg_board(position), "tpn": rolled.notation()})
    return out


def make_ids(seed: int) -> dict[str, Any]:
    choose = random.Random(seed)
    sample = [position for position, _ in sample_positions(40, seed)]
    board_cases = sample + [position for position, _ in with_both_sides(extreme_positions())]
    board_cases.append(BackgammonPosition.start())
    scenario_positions = [p for p in sample if is_on_bar(p)][:4] + [p for p in sample if is_bearing_off(p)][
        :4
    ]
    scenario_positions += [p for p in sample if not is_on_bar(p) and not is_bearing_off(p)][:4]
    scenario_list = scenarios(scenario_positions)
    payload = {
        "boards": [gnubg_board(position) for position in board_cases],
        "match_keys": random_match_keys(choose, 60),
        "scenarios": [{"commands": item["commands"], "board": item["board"]} for item in scenario_list],
    }
    results = run_script("gnubg_ids.py", payload)["results"]
    for item, answer in zip(scenario_list, results["scenarios"], strict=True):
        answer["tpn"] = item["tpn"]
    boards = [
        {"tpn": replace(position, dice=None).notation(), **answer}
        for position, answer in zip(board_cases, results["boards"], strict=True)
    ]
    return {
        "about": "Position IDs and Match IDs written by gnubg; boards are gnubg's "
        "[not on roll, on roll]; tpn is the same position in our notation",
        "made_by": "python -m tests.oracle.make_fixtures ids",
        "gnubg": gnubg_version(),
        "boards": boards,
        "match_keys": results["match_keys"],
        "scenarios": results["scenarios"],
    }


def write_json(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    if path.suffix == ".xz":  # some 130,000 IDs: xz keeps them about a third smaller than gzip
        path.write_bytes(lzma.compress(text.encode(), preset=9))
    else:  # one case a line, so that a regenerated file diffs case by case
        parts = []
        for key in sorted(data):
            value = data[key]
            if isinstance(value, list):
                lines = ",\n".join(json.dumps(item, sort_keys=True) for item in value)
                parts.append(f"{json.dumps(key)}: [\n{lines}\n]")
            else:
                parts.append(f"{json.dumps(key)}: {json.dumps(value)}")
        path.write_text("{\n" + ",\n".join(parts) + "\n}\n")
    print(f"wrote {path} ({path.stat().st_size} bytes)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.oracle.make_fixtures", description=__doc__)
    parser.add_argument("what", choices=["moves", "ids"])
    parser.add_argument("--positions", type=int, default=320, help="random positions for 'moves'")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-extremes", action="store_true", help="leave out the hand-made positions")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.what == "moves":
        write_json(make_moves(args.positions, args.seed, not args.no_extremes), args.out or MOVES_FIXTURE)
    else:
        write_json(make_ids(args.seed), args.out or IDS_FIXTURE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
