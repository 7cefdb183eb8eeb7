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


def test_the_mutants_data_files_follow_the_sources_and_their_python_is_left_alone(tmp_path: Path) -> None:
    """mutmut regenerates only Python modules: a translation, a page or a weights file
    changed since it made its mutants must reach its copy, and its mutated Python must not
    be overwritten."""
    source, mutants = tmp_path / "src" / "pkg", tmp_path / "mutants" / "src" / "pkg"
    (source / "locale").mkdir(parents=True)
    (source / "__pycache__").mkdir()
    mutants.mkdir(parents=True)
    (source / "game.py").write_text("original = 1\n")
    (mutants / "game.py").write_text("original = 1  # with every mutant\n")
    (source / "__pycache__" / "game.cpython-311.pyc").write_bytes(b"\x00")
    (source / "locale" / "messages.po").write_text('msgid "new"\n')
    (source / "page.html").write_text("<p>new</p>")
    (mutants / "page.html").write_text("<p>old</p>")
    copied = mutation_platform.refresh_data(tmp_path)
    assert copied == [Path("pkg/locale/messages.po"), Path("pkg/page.html")]
    assert (mutants / "locale" / "messages.po").read_text() == 'msgid "new"\n'
    assert (mutants / "page.html").read_text() == "<p>new</p>"
    assert (mutants / "game.py").read_text() == "original = 1  # with every mutant\n"
    assert not (mutants / "__pycache__").exists()
    assert mutation_platform.refresh_data(tmp_path) == []  # nothing changed since
