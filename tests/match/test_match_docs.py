"""The example in ``tavla.match``'s docstring runs as written."""

from __future__ import annotations

import doctest

import tavla.match


def test_match_package_docstring_examples() -> None:
    failures, attempted = doctest.testmod(tavla.match)
    assert attempted > 0
    assert failures == 0
