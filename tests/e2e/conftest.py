"""What every browser walk-through shares: Debian's Chromium and where screenshots go."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser import ARGS, CHROMIUM
from tests.server.served import Served, serve_sqlite


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # Module-scoped: Playwright's sync API runs one at a time, and tests/web starts its own.
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TAVLA_SCREENSHOTS names a folder to keep them in, to look at; else a temporary one."""
    wanted = os.environ.get("TAVLA_SCREENSHOTS")
    path = Path(wanted) if wanted else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A real ``tavla serve`` process on a SQLite file of its own (tests/server/served.py);
    the walk-throughs that need a server shared by a module's tests define their own."""
    yield from serve_sqlite(tmp_path)
