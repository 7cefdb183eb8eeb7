"""The examples in the package's docstring run as written."""

from __future__ import annotations

import doctest

import tavla


def test_package_docstring_examples() -> None:
    failures, attempted = doctest.testmod(tavla)
    assert attempted > 0
    assert failures == 0
