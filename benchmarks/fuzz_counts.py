"""Fuzzing counts: the hostile-client property tests run with many more examples.

    PYTHONPATH=src .venv/bin/python benchmarks/fuzz_counts.py [--ws 2000] [--http 5000] [--seed N]
        [--database sqlite|postgresql]

Runs tests/server/test_fuzz_ws.py and test_fuzz_http.py (the suite draws 200 frames
and 600 requests) with the numbers given, and prints what each tried and how the
server answered: the frames sent to the game websocket by kind, the requests by
method over how many routes, the answers by error code or status. A found bug fails
the run with Hypothesis's smallest example. ``--database postgresql`` runs them on the
PostgreSQL that ``TAVLA_TEST_POSTGRES`` names (``scripts/with-postgres.sh`` starts one).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = {
    "ws": (
        "tests/server/test_fuzz_ws.py::test_hostile_frames_get_documented_errors_and_change_nothing",
        "FUZZ_WS_EXAMPLES",
    ),
    "http": (
        "tests/server/test_fuzz_http.py::test_hostile_requests_never_fail_the_server_and_a_refusal_changes_nothing",
        "FUZZ_HTTP_EXAMPLES",
    ),
}


def run(name: str, examples: int, seed: int | None, database: str) -> bool:
    test, variable = TESTS[name]
    command = [
        sys.executable,
        "-m",
        "pytest",
        test,
        "-q",
        "-s",
        "-p",
        "no:cacheprovider",
        "--timeout",
        "3600",
        "-k",
        database,
    ]
    if seed is not None:
        command += ["--hypothesis-seed", str(seed), "--hypothesis-profile", "explore"]
    env = {**os.environ, variable: str(examples), "PYTHONPATH": str(ROOT / "src")}
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    # pytest's progress dots may come first on a line.
    lines = (line.lstrip(".") for line in done.stdout.splitlines())
    counts = [line for line in lines if line.startswith(("game websocket", "HTTP:"))]
    took = time.monotonic() - started
    print(
        f"{name}: {examples} examples asked, {took:.0f} s, {'passed' if done.returncode == 0 else 'FAILED'}"
    )
    for line in counts:
        print("  " + line)
    if done.returncode != 0:
        print(done.stdout[-6000:])
    return done.returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ws", type=int, default=2000, help="frames sent to the game websocket")
    parser.add_argument("--http", type=int, default=5000, help="requests sent to the HTTP routes")
    parser.add_argument("--seed", type=int, default=None, help="a random search from this seed")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    arguments = parser.parse_args()
    if arguments.database == "postgresql" and not os.environ.get("TAVLA_TEST_POSTGRES"):
        parser.error("--database postgresql needs TAVLA_TEST_POSTGRES (scripts/with-postgres.sh)")
    passed = [
        run(name, examples, arguments.seed, arguments.database)
        for name, examples in (("ws", arguments.ws), ("http", arguments.http))
    ]
    sys.exit(0 if all(passed) else 1)


if __name__ == "__main__":
    main()
