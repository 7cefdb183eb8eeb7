"""Kill ratio per module of the last mutmut run (``make mutate``), read from mutants/.

Usage: ``python tests/mutation_summary.py ["tavla.rules.tapa.*" ...]``: the mutant
name globs of the run (none: every mutant). mutmut itself reports only totals;
this groups its per-file results by module and lists the survivors to look at.
"""

from __future__ import annotations

import fnmatch
import json
import sys
from collections import Counter
from pathlib import Path

# mutmut's exit codes per mutant (mutmut/stats.py); anything else is "suspicious".
STATUS = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    34: "skipped",
    36: "timeout",
    24: "timeout",
    -24: "timeout",
    152: "timeout",
    255: "timeout",
    37: "type check",
    None: "not checked",
}


def status_of(code: int | None) -> str:
    return STATUS.get(code, "suspicious")


def module_of(mutant: str) -> str:
    """``tavla.rules.tpn.x_parse_stack__mutmut_3`` -> ``tavla.rules.tpn`` (the mangled
    function name after the last dot holds no dot: classes are joined with ``ǁ``)."""
    return mutant.rsplit(".", 1)[0]


def main(globs: list[str], root: Path = Path("mutants")) -> int:
    per_module: dict[str, Counter[str]] = {}
    survivors: list[str] = []
    for meta in sorted(root.rglob("*.py.meta")):
        codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
        for mutant, code in codes.items():
            if globs and not any(fnmatch.fnmatch(mutant, pattern) for pattern in globs):
                continue
            status = status_of(code)
            per_module.setdefault(module_of(mutant), Counter())[status] += 1
            if status == "survived":
                survivors.append(mutant)
    if not per_module:
        print("no mutants found: run `make mutate` first")
        return 1
    print(f"{'module':<36} {'killed':>7} {'total':>6} {'ratio':>6}  other")
    for module, counts in sorted(per_module.items()):
        total = sum(counts.values())
        # A mutant that makes the tests time out is caught as surely as a failing one.
        killed = counts["killed"] + counts["timeout"]
        other = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()) if status != "killed")
        print(f"{module:<36} {killed:>7} {total:>6} {killed / total:>6.0%}  {other}")
    if survivors:
        print("\nsurvivors (`mutmut show NAME` prints the change):")
        for mutant in survivors:
            print(f"  {mutant}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
