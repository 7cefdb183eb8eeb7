"""Chances made to nest and gammons the rules rule out (tavla.bots.outcomes; RULES.md
1.5, 2 and 5: a side that has borne off a checker loses no gammon in tabla)."""

from __future__ import annotations

import numpy as np
import pytest

import tavla
from tavla.bots.network import Network
from tavla.bots.outcomes import consistent, ruled_out


def test_chances_are_made_to_nest() -> None:
    raw = np.array([[0.9, 0.95, 0.97, 2e-7, 8e-5], [0.2, 0.1, 0.01, 0.9, 0.5]])
    fixed = consistent(raw)
    assert fixed[0].tolist() == [0.9, 0.9, 0.9, 2e-7, 2e-7]
    assert fixed[1].tolist() == [0.2, 0.1, 0.01, pytest.approx(0.8), 0.5]
    assert consistent(fixed).tolist() == fixed.tolist()


def test_gammons_are_ruled_out_once_the_loser_bore_off() -> None:
    row = np.array([0.7, 0.2, 0.05, 0.1, 0.02])
    assert ruled_out(row, "tabla", (0, 3), 0).tolist() == [0.7, 0.0, 0.0, 0.1, 0.02]
    assert ruled_out(row, "tabla", (2, 0), 0).tolist() == [0.7, 0.2, 0.05, 0.0, 0.0]
    assert ruled_out(row, "tapa", (2, 3), 0).tolist() == row.tolist()  # a pinned mother wins 2


def test_the_networks_chances_respect_both() -> None:
    position = tavla.from_notation("tabla 1w/1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/3b/3b/3b/-/-/- 0,0 13,6 w -")
    values = Network.shipped("tabla").chances(position, 0)
    assert values[1] == values[2] == values[3] == values[4] == 0.0
    assert values[0] > 0.9
