"""The step-level interface agrees with the whole-turn list (RULES.md 1.3).

Every sequence of allowed steps ends in a legal turn (no dead end, nothing illegal),
and every legal turn can be reached step by step: the two interfaces are built on
different code (``StepPlanner`` with ``tabla_steps`` against ``turngen``).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.rules.backgammon.positions import tpn
from tests.rules.backgammon.test_movegen import ROLLS, positions, view_of

import tavla
from tavla.core.errors import IllegalMoveError
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.dicesteps import DiceSteps


def committed_positions(builder: DiceSteps[Any, Any]) -> set[str]:
    """Every position a complete step sequence commits to, exploring with undo.

    Partial turns reaching the same intermediate position are explored once."""
    seen: set[object] = set()
    ends: set[str] = set()

    def explore() -> None:
        if builder.complete:
            assert builder.legal_steps() == []
            ends.add(builder.commit().after.notation())
            return
        key = (len(builder.played), builder._planner.state)  # the partial turn's position
        if key in seen:
            return
        seen.add(key)
        allowed = builder.legal_steps()
        assert allowed, f"dead end after {builder.played}"
        for text in allowed:
            before = list(builder.played)
            builder.step(text)
            explore()
            builder.undo()
            assert builder.played == before

    explore()
    return ends


def check_steps(position: BackgammonPosition, roll: tuple[int, int]) -> None:
    rolled = position.with_roll(roll)
    expected = {turn.after.notation() for turn in rolled.legal_turns()}
    assert committed_positions(rolled.steps()) == expected


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("tabla"), st.sampled_from(ROLLS))
def test_tabla_steps_reach_exactly_the_legal_turns(
    position: BackgammonPosition, roll: tuple[int, int]
) -> None:
    check_steps(position, roll)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("chelebi"), st.data())
def test_chelebi_steps_reach_exactly_the_legal_turns(
    position: BackgammonPosition, data: st.DataObject
) -> None:
    """RULES.md 4; low doubles only near home, where their turns stay few."""
    spread = max((p for p in range(1, 26) if view_of(position).mine[p]), default=0) > 8
    rolls = [roll for roll in ROLLS if not spread or roll[0] != roll[1] or roll[0] >= 5]
    check_steps(position, data.draw(st.sampled_from(rolls)))


def test_steps_follow_the_only_order_that_plays_both_dice() -> None:
    """RULES.md 1.3: 6-5 on a lone checker whose 6 is blocked: 20/15 first, then 15/9."""
    position = tavla.from_notation(tpn({20: 1}, {11: 2, 1: 13}, dice="65"))  # White's 14 closed
    builder = position.steps()
    assert builder.legal_steps() == ["20/15"]
    with pytest.raises(IllegalMoveError):
        builder.step("20/14")
    builder.step("20/15")
    assert builder.legal_steps() == ["15/9"]
    builder.undo()
    assert builder.played == []
    assert builder.legal_steps() == ["20/15"]
