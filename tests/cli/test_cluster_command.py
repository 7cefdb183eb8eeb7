"""``tavla cluster`` refusing what it cannot start from, before anything runs (docs/deploy.md).
The running cluster is tested in tests/cluster, where PostgreSQL, Redis and nginx exist."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.cli.cli_helpers import run_subcommand

from tavla.cli import cluster

pytest.importorskip("fastapi")


def test_a_state_folder_that_is_a_file_is_refused_on_standard_error(tmp_path: Path) -> None:
    taken = tmp_path / "state"
    taken.write_text("not a folder\n")
    result = run_subcommand(cluster, "cluster", "--state-dir", str(taken))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"tavla cluster: {taken} is a file, not a folder for the cluster's state\n"
    assert taken.read_text() == "not a folder\n"
