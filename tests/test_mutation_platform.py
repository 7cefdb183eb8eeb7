"""The copy in which mutmut mutates the platform (tests/mutation_platform.py)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from tests import mutation_platform

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def test_the_copys_mutmut_table_is_the_platforms_and_the_rest_is_kept() -> None:
    original = tomllib.loads(PYPROJECT.read_text())
    copied = tomllib.loads(mutation_platform.platform_pyproject(PYPROJECT.read_text()))
    assert copied["tool"]["mutmut"] == original["tool"]["mutmut-platform"]
    assert copied["tool"]["mutmut"] != original["tool"]["mutmut"]
    assert copied["project"] == original["project"]
    assert copied["tool"]["pytest"] == original["tool"]["pytest"]


def test_a_table_at_the_end_of_the_file_is_replaced_too() -> None:
    text = '[tool.mutmut-platform]\nonly_mutate = ["src/a/*"]\nflag = true\n\n[tool.mutmut]\nold = 1\n'
    table = tomllib.loads(mutation_platform.platform_pyproject(text))["tool"]["mutmut"]
    assert table == {"only_mutate": ["src/a/*"], "flag": True}


def test_a_file_is_copied_again_only_when_it_changed(tmp_path: Path) -> None:
    source, target = tmp_path / "a.py", tmp_path / "b.py"
    source.write_text("one")
    mutation_platform.copy_if_changed(str(source), str(target))
    assert target.read_text() == "one"
    target.write_text("own")  # same size: an unchanged source leaves it alone
    os.utime(target, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns))
    mutation_platform.copy_if_changed(str(source), str(target))
    assert target.read_text() == "own"
    source.write_text("two!")
    mutation_platform.copy_if_changed(str(source), str(target))
    assert target.read_text() == "two!"
