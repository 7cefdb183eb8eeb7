"""A seeded uniform sample of the mutants mutmut generated, for an estimate of the
kill ratio in a fraction of a full run's time (``make mutate SAMPLE=1000``).

Usage: ``python tests/mutation_sample.py [--pending] N SEED [GLOB ...]`` prints N
mutant names, one per line, drawn without replacement from every mutant under
``mutants/`` (or those matching the globs). The same N, SEED and mutants give the
same sample, so a second run after new tests re-checks exactly the same mutants.
``--pending`` prints only those of the sample that have no result yet: a run that
was stopped goes on where it stopped.
"""

from __future__ import annotations

import fnmatch
import json
import random
import sys
from pathlib import Path


def all_mutants(root: Path = Path("mutants")) -> dict[str, int | None]:
    """Every mutant's name and result (None: not run yet)."""
    results: dict[str, int | None] = {}
    for meta in sorted(root.rglob("*.py.meta")):
        results.update(json.loads(meta.read_text())["exit_code_by_key"])
    return results


def sample(names: list[str], size: int, seed: int, globs: list[str]) -> list[str]:
    pool = [name for name in names if not globs or any(fnmatch.fnmatch(name, g) for g in globs)]
    return sorted(random.Random(seed).sample(pool, min(size, len(pool))))


def main(argv: list[str]) -> int:
    pending = argv[:1] == ["--pending"]
    argv = argv[1:] if pending else argv
    if len(argv) < 2 or not argv[0].isdecimal() or not argv[1].isdecimal():
        print(__doc__, file=sys.stderr)
        return 2
    results = all_mutants()
    if not results:
        print("no mutants under mutants/: run `make mutate` once to generate them", file=sys.stderr)
        return 1
    globs = argv[2:]
    chosen = sample(sorted(results), int(argv[0]), int(argv[1]), globs)
    if not chosen:
        # Mutants are generated only when mutants/ is empty: a path added to only_mutate
        # since then has none, and an empty sample would make `mutmut run` run them all.
        print(
            f"no mutants of {' '.join(globs)} under mutants/: delete mutants/ to generate them "
            "(a path added to [tool.mutmut] only_mutate since they were made)",
            file=sys.stderr,
        )
        return 1
    if pending:
        chosen = [name for name in chosen if results[name] is None]
    if chosen:
        print("\n".join(chosen))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
