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


def test_commit_with_nothing_played_names_no_step() -> None:
    """A turn committed before any step is written '-' in the refusal."""
    with pytest.raises(IllegalMoveError) as refused:
        builder().commit()
    assert (refused.value.move, refused.value.position, refused.value.reason) == (
        "-",
        START,
        "the turn is not complete",
    )


def test_a_turn_of_another_game_or_position_is_refused_naming_this_position() -> None:
    """RULES.md 8.1: play() takes only an Abluka turn that this position allows."""
    start = tavla.from_notation(START)
    tabla = tavla.find_game("tabla").start().with_roll((3, 1)).legal_turns()[0]
    with pytest.raises(IllegalMoveError) as refused:
        start.play(tabla)
    assert (refused.value.move, refused.value.position, refused.value.reason) == (
        tabla.text,
        START,
        "not an Abluka turn",
    )
    elsewhere = "W6/7/2x1x2/7/7/7/6B w"
    foreign = start.parse_turn("c1/a1")
    with pytest.raises(IllegalMoveError) as refused:
        tavla.from_notation(elsewhere).play(foreign)
    assert (refused.value.move, refused.value.position, refused.value.reason) == (
        "c1/a1",
        elsewhere,
        "c1 is not next to the king on a7",
    )
    blocked = "3W3/7/7/7/x6/7/3B3 b"  # a blocker far from the turn: the same squares are legal
    with pytest.raises(IllegalMoveError) as refused:
        tavla.from_notation(blocked).play(foreign)
    assert (refused.value.move, refused.value.position, refused.value.reason) == (
        "c1/a1",
        blocked,
        "the turn belongs to another position",
    )
