"""Abluka played step by step (RULES.md 8): each refusal names the step, the position
and what would have been allowed, and changes nothing."""

from __future__ import annotations

import pytest

import tavla
from tavla.core.errors import IllegalMoveError
from tavla.core.protocol import StepBuilder, Turn

START = "3W3/7/7/7/7/7/3B3 b"


def builder() -> StepBuilder[Turn]:
    return tavla.from_notation(START).steps()


def test_a_king_step_not_allowed_lists_the_allowed_ones() -> None:
    steps = builder()
    with pytest.raises(IllegalMoveError) as refused:
        steps.step("d4")
    assert (refused.value.move, refused.value.position) == ("d4", START)
    assert refused.value.reason == "king step not allowed (allowed: c1, e1, c2, d2, e2)"
    assert steps.played == []


def test_a_blocker_on_a_taken_square_is_refused_after_the_king_step() -> None:
    steps = builder()
    steps.step("d2")
    with pytest.raises(IllegalMoveError) as refused:
        steps.step("d7")  # White's king stands there
    assert refused.value.reason.startswith("blocker square not allowed (allowed: ")
    assert "d1" in refused.value.reason and "d2," not in refused.value.reason
    assert steps.played == ["d2"]


def test_an_unreadable_step_says_so() -> None:
    with pytest.raises(IllegalMoveError) as refused:
        builder().step("z9")
    assert (refused.value.move, refused.value.position) == ("z9", START)
    assert refused.value.reason.startswith("unreadable step (step 'z9': ")


def test_undo_with_nothing_played_and_commit_half_way_are_refused() -> None:
    steps = builder()
    with pytest.raises(IllegalMoveError) as refused:
        steps.undo()
    assert (refused.value.move, refused.value.position, refused.value.reason) == (
        "undo",
        START,
        "no step to take back",
    )
    steps.step("d2")
    with pytest.raises(IllegalMoveError, match=r"^the turn is not complete: 'd2' in "):
        steps.commit()
    steps.step("d1")
    assert steps.commit().text == "d2/d1"
    assert steps.legal_steps() == []
    with pytest.raises(IllegalMoveError) as full:
        steps.step("a1")
    assert full.value.reason == "blocker square not allowed (allowed: none)"
