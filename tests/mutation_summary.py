"""Kill ratio per module of the last mutmut run (``make mutate``), read from mutants/.

Usage: ``python tests/mutation_summary.py ["tavla.rules.tapa.*" ...]``: the mutant
name globs of the run (none: every mutant), or ``--names FILE`` with the names of a
sampled run (``tests/mutation_sample.py``), which adds the 95% interval of the whole
population's kill ratio. mutmut itself reports only totals; this groups its per-file
results by module and lists the survivors to look at.
"""

from __future__ import annotations

import fnmatch
import json
import math
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


def wilson_interval(killed: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion: unlike the normal approximation it
    stays inside [0, 1] near a ratio of 100%, where a good suite's ratio lies."""
    ratio = killed / total
    centre = (ratio + z * z / (2 * total)) / (1 + z * z / total)
    spread = z * math.sqrt(ratio * (1 - ratio) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - spread, centre + spread


def main(argv: list[str], root: Path = Path("mutants")) -> int:
    chosen: set[str] | None = None
    globs = argv
    if argv[:1] == ["--names"]:
        chosen = set(Path(argv[1]).read_text().split())
        globs = argv[2:]
    per_module: dict[str, Counter[str]] = {}
    survivors: list[str] = []
    for meta in sorted(root.rglob("*.py.meta")):
        codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
        for mutant, code in codes.items():
            if chosen is not None and mutant not in chosen:
                continue
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
    totals: Counter[str] = sum(per_module.values(), Counter())
    checked = sum(n for status, n in totals.items() if status != "not checked")
    caught = totals["killed"] + totals["timeout"]
    if checked:
        line = f"{'all':<36} {caught:>7} {checked:>6} {caught / checked:>6.1%}"
        if chosen is not None:
            low, high = wilson_interval(caught, checked)
            line += f"  (sample; 95% interval for all mutants {low:.1%} to {high:.1%})"
        print(line)
    if survivors:
        print("\nsurvivors (`mutmut show NAME` prints the change):")
        for mutant in survivors:
            print(f"  {mutant}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
