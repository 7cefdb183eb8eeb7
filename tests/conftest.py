"""Shared test helpers."""

from __future__ import annotations

import shutil

import pytest

GNUBG = "/usr/games/gnubg"


def gnubg_available() -> bool:
    return shutil.which(GNUBG) is not None


needs_gnubg = pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed")
