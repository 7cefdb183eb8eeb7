"""Shared test helpers and the run-wide Hypothesis profiles."""

from __future__ import annotations

import os
import shutil

import pytest
from hypothesis import HealthCheck, settings

# One BLAS thread in every test process, as the `tavla` command sets for its own
# (src/tavla/cli/__init__.py): the bots' matrices are small, and OpenBLAS's threads in
# two workers, spinning against each other and against the servers and browsers the
# tests start, made the bots' tests two to seven times slower. Set before numpy is
# imported (neither pytest, its plugins nor hypothesis import it); a setting in the
# environment wins.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

GNUBG = "/usr/games/gnubg"

# Property tests must reproduce: the same commit gives the same examples on every
# machine, so a failure seen in CI is seen again locally.  Deadlines are off
# because the machines running the suite are shared and timing is noisy (the
# per-test pytest timeout guards against real hangs).  A developer hunting bugs
# picks a wider search with `--hypothesis-profile explore` (or `fuzz`).
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=100,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("explore", deadline=None, max_examples=500)
# Under mutation testing every mutant reruns the property tests that cover it: a
# smaller derandomized sample keeps a full run over rules/ and match/ to hours, and
# the example-based tests still pin the behaviour down.
settings.register_profile(
    "mutation",
    derandomize=True,
    deadline=None,
    max_examples=15,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "fuzz",
    deadline=None,
    max_examples=10_000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
# Loaded here by default; the Hypothesis pytest plugin applies
# `--hypothesis-profile NAME` after conftest import, so the option still wins.
settings.load_profile("ci")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the bots' numba kernels (or load them from numba's cache) before the
    first test starts its timeout: the first run after an install compiles for about
    a minute, later runs load them in under a second."""
    from tavla.bots import fast

    fast.warm_up()


def gnubg_available() -> bool:
    return shutil.which(GNUBG) is not None


needs_gnubg = pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed")
