"""Abluka rules (RULES.md 8.1) on hand-made positions, and the move generator against
an independent square-by-square implementation over random playouts."""

from __future__ import annotations

import random

import pytest

import tavla
from tavla.core.errors import IllegalMoveError
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.abluka import AblukaPosition

START = "3W3/7/7/7/7/7/3B3 b"


def naive_turns(notation: str) -> set[str]:
    """Every legal turn text, computed from the notation with coordinates only (RULES.md 8.1-8.2)."""
    board_text, side = notation.split()
    grid: dict[tuple[int, int], str] = {}
    for row, rank_text in enumerate(board_text.split("/")):
        rank = 7 - row
        file = 0
        for char in rank_text:
            if char.isdigit():
                for _ in range(int(char)):
                    grid[(file, rank)] = "."
                    file += 1
            else:
                grid[(file, rank)] = char
                file += 1
    me = "B" if side == "b" else "W"
    here = next(spot for spot, mark in grid.items() if mark == me)

    def name(spot: tuple[int, int]) -> str:
        return "abcdefg"[spot[0]] + str(spot[1])

    turns: set[str] = set()
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            to = (here[0] + df, here[1] + dr)
            if (df, dr) == (0, 0) or grid.get(to) != ".":
                continue
            after = dict(grid)
            after[here], after[to] = ".", me
            turns.update(f"{name(to)}/{name(spot)}" for spot, mark in after.items() if mark == ".")
    return turns


def test_start_position_black_moves_first() -> None:
    """RULES.md 8.1: Black on d1, White on d7, Black moves first; RULES.md 8.2 start text."""
    start = AblukaPosition.start()
    assert start.notation() == START
    assert start.to_act == BLACK
    assert tavla.from_notation(START) == start
    assert tavla.new_game("abluka").position == start
    steps = {turn.text.split("/")[0] for turn in start.legal_turns()}
    assert steps == {"c1", "e1", "c2", "d2", "e2"}
    # Each step leaves 47 empty squares for the blocker (49 - 2 kings; the square left
    # is empty again, the square stepped on is not).
    assert len(start.legal_turns()) == 5 * 47


def test_blocker_may_go_on_the_square_just_left() -> None:
    """RULES.md 8.1: the blocker always has a square, at least the one just left."""
    after = AblukaPosition.start().play("d2/d1")
    assert after.notation() == "3W3/7/7/7/7/3B3/3x3 w"
    assert after.to_act == WHITE


@pytest.mark.parametrize(
    ("turn", "reason"),
    [
        ("d3/e5", "not next to"),  # two squares away: no jumping
        ("d2/d2", "cannot go on d2"),  # the blocker cannot share the king's new square
        ("d2/d7", "cannot go on d7"),  # nor the other king's square
        ("d2/e5x", "unreadable"),
        ("h1/a1", "unreadable"),
    ],
)
def test_illegal_turns_say_why(turn: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError, match=reason):
        AblukaPosition.start().parse_turn(turn)


def test_no_stepping_onto_a_blocker_or_the_other_king() -> None:
    """RULES.md 8.1: the king steps to an empty square; pieces never jump."""
    position = AblukaPosition.from_notation("7/7/7/7/7/2xWx2/3B3 b")
    steps = {turn.text.split("/")[0] for turn in position.legal_turns()}
    assert steps == {"c1", "e1"}
    with pytest.raises(IllegalMoveError, match="not empty"):
        position.parse_turn("d2/a1")
    with pytest.raises(IllegalMoveError, match="not empty"):
        position.parse_turn("c2/a1")
    with pytest.raises(IllegalMoveError, match="cannot go on c2"):
        position.parse_turn("c1/c2")  # already blocked


@pytest.mark.parametrize(("square", "neighbours"), [("a1", 3), ("g7", 3), ("a4", 5), ("d1", 5), ("d4", 8)])
def test_corners_and_edges(square: str, neighbours: int) -> None:
    file, rank = "abcdefg".index(square[0]), int(square[1]) - 1
    white = 48 if (file, rank) != (6, 6) else 0
    position = AblukaPosition(white, rank * 7 + file, 0, BLACK)
    assert len({turn.to for turn in position.legal_turns()}) == neighbours


def test_side_without_a_step_loses() -> None:
    """RULES.md 8.1: a player who cannot move his piece at the start of his turn loses."""
    trapped = AblukaPosition.from_notation("7/7/7/3W3/7/xx5/Bx5 b")
    outcome = trapped.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.points, outcome.reason) == (WHITE, 1, "no move")
    assert trapped.legal_turns() == ()
    assert trapped.steps().legal_steps() == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        trapped.parse_turn("a2/a3")


def test_last_turn_leaving_both_without_a_move_wins_for_its_maker() -> None:
    """RULES.md 8.1: Black steps into a dead end and blocks the square he left, White's last."""
    position = AblukaPosition.from_notation("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/WB1xxxx b")
    assert [turn.text for turn in position.legal_turns()] == ["c1/b1"]
    after = position.play("c1/b1")
    assert after.notation() == "xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/WxBxxxx w"
    assert after.king_steps() == 0
    assert AblukaPosition(after.white, after.black, after.blockers, BLACK).king_steps() == 0
    outcome = after.outcome()
    assert outcome is not None and outcome.winner == BLACK


def test_step_builder_with_undo() -> None:
    builder = AblukaPosition.start().steps()
    assert builder.legal_steps() == ["c1", "e1", "c2", "d2", "e2"]
    builder.step("d2")
    assert (
        "d1" in builder.legal_steps()
        and "d2" not in builder.legal_steps()
        and "d7" not in builder.legal_steps()
    )
    builder.undo()
    builder.step("e2")
    with pytest.raises(IllegalMoveError):
        builder.step("e2")
    builder.step("e3")
    assert builder.complete and builder.legal_steps() == []
    assert builder.commit().text == "e2/e3"
    builder.undo()
    builder.undo()
    with pytest.raises(IllegalMoveError):
        builder.undo()
    with pytest.raises(IllegalMoveError, match="not complete"):
        builder.commit()


def test_generator_matches_an_independent_one_over_random_playouts() -> None:
    rng = random.Random(2026)
    for _ in range(12):
        position = AblukaPosition.start()
        while position.outcome() is None:
            turns = position.legal_turns()
            texts = [turn.text for turn in turns]
            assert set(texts) == naive_turns(position.notation())
            assert len(set(texts)) == len(texts)
            turn = rng.choice(list(turns))
            assert position.parse_turn(turn.text).after == turn.after
            position = position.play(turn)
        assert naive_turns(position.notation()) == set()
