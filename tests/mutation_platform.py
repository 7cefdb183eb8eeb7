"""A copy of the project in which mutmut mutates the platform (``make mutate-platform``).

Usage: ``python tests/mutation_platform.py DIR``: brings DIR up to date with the
project's sources, tests and documents, and writes its ``pyproject.toml`` with the
project's ``[tool.mutmut-platform]`` table in place of ``[tool.mutmut]``.
``python tests/mutation_platform.py --data DIR``: brings the data files of DIR's
``mutants/src`` up to date with DIR's ``src`` (``make mutate`` does it before each run).

mutmut reads one configuration, from the ``pyproject.toml`` of the folder it runs
in, and keeps its mutants and its map of tests in that folder's ``mutants/``. The
library's parts are mutated against the library's tests; the server, its storage and
the realtime hub need the server's tests, which cover the rules too and would slow
every rules mutant down. A second folder with its own table keeps the two runs and
their maps apart. Files are copied only when they changed, with their times, so that
mutmut regenerates the mutants of changed modules alone.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("src", "tests", "docs", "benchmarks", "README.md", "Makefile")
SKIPPED = ("__pycache__", "*.pyc", "*.nbi", "*.nbc")


def table_text(text: str, header: str) -> tuple[int, int]:
    """Where the table ``header`` of a TOML text starts and ends (the next table's start)."""
    start = text.index(f"{header}\n")
    end = text.find("\n[", start + 1)
    return start, (len(text) if end < 0 else end + 1)


def platform_pyproject(text: str) -> str:
    """The project's pyproject.toml with the platform's table, as written, as mutmut's."""
    platform_start, platform_end = table_text(text, "[tool.mutmut-platform]")
    body = text[platform_start:platform_end].split("\n", 1)[1]
    start, end = table_text(text, "[tool.mutmut]")
    return text[:start] + "[tool.mutmut]\n" + body + text[end:]


def copy_if_changed(source: str, target: str) -> None:
    source_stat = Path(source).stat()
    target_path = Path(target)
    if target_path.exists():
        target_stat = target_path.stat()
        if (target_stat.st_size, target_stat.st_mtime_ns) == (source_stat.st_size, source_stat.st_mtime_ns):
            return
    shutil.copy2(source, target)


def sync(target: Path) -> None:
    target.mkdir(exist_ok=True)
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source,
                target / name,
                ignore=shutil.ignore_patterns(*SKIPPED),
                copy_function=copy_if_changed,
                dirs_exist_ok=True,
            )
        else:
            copy_if_changed(str(source), str(target / name))
    pyproject = platform_pyproject((ROOT / "pyproject.toml").read_text())
    destination = target / "pyproject.toml"
    if not destination.exists() or destination.read_text() != pyproject:
        destination.write_text(pyproject)


def refresh_data(project: Path) -> list[Path]:
    """Copies into ``project/mutants/src`` each file of ``project/src`` that is not Python
    and changed since (translations, page templates, static files, weights): mutmut
    copies them once, when it first makes its mutants, and regenerates only the Python
    modules after that, so a test reading a newer one would fail on every mutant. The
    files copied, as paths under ``src``."""
    source, mutants = project / "src", project / "mutants" / "src"
    copied = []
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if not path.is_file() or path.suffix == ".py" or any(relative.match(skip) for skip in SKIPPED):
            continue
        if "__pycache__" in relative.parts:
            continue
        target = mutants / relative
        before = target.stat().st_mtime_ns if target.exists() else None
        target.parent.mkdir(parents=True, exist_ok=True)
        copy_if_changed(str(path), str(target))
        if target.stat().st_mtime_ns != before:
            copied.append(relative)
    return copied


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--data":
        for relative in refresh_data(Path(argv[1]).resolve()):
            print(f"mutants/src/{relative.as_posix()}: refreshed")
        return 0
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    sync(Path(argv[0]).resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
