"""Compare our gnubg IDs with gnubg's over many fresh random matches (needs gnubg).

    python -m tests.match.ids_survey [--matches N] [--first-seed S]

Prints the moments compared by kind and the number of mismatches; the test suite runs
the same comparison on fewer matches (``test_gnubg_ids_gnubg.py``).
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

from tavla.match.mat import export_mat

from .gnubg_ids_compare import differences, run_ids_oracle
from .mat_oracle import our_random_match


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=100)
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.matches)
    records = {f"ours_{seed}.mat": our_random_match(seed) for seed in seeds}
    with tempfile.TemporaryDirectory() as folder:
        for name, record in records.items():
            (Path(folder) / name).write_text(export_mat(record))
        readings = run_ids_oracle(Path(folder))
    compared: Counter[str] = Counter()
    mismatches = 0
    for name, record in records.items():
        problems, counts = differences(record, readings[name])
        mismatches += len(problems)
        compared.update(counts)
        for problem in problems:
            print(f"{name}: {problem}")
    print(f"{len(records)} matches; moments compared: {dict(compared)}; mismatches: {mismatches}")


if __name__ == "__main__":
    main()
