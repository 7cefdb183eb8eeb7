"""Random playouts: legal turns only, a legal outcome, the same game for the same seed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.dice_positions import dice_position, dice_start

import tavla
from tavla.bots.playout import random_playout, random_turn, random_turn_by_steps
from tavla.core.protocol import OutcomeReason

DICE_GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka")
REASONS = {"single": 1, "gammon": 2, "backgammon": 3, "mother pinned": 2, "void": 0}


def assert_legal(before: Any, after: Any) -> None:
    """``after`` is the result of a legal turn of ``before``: among the listed turns'
    results, or (a turn too long to list) the result of the turn the rules find for it."""
    turns = before.legal_turns_within(3000)
    if turns is not None:
        assert after in {turn.after for turn in turns}, before.notation()
        return
    found = before.find_turn(after.with_side(before.side).mover_state())
    assert found is not None and found.after == after, before.notation()


def traced(start: Any, rng: random.Random) -> tuple[Any, list[tuple[Any, Any]]]:
    seen: list[tuple[Any, Any]] = []
    result = random_playout(start, rng, on_turn=lambda before, after: seen.append((before, after)))
    return result, seen


@pytest.mark.parametrize("game", DICE_GAMES)
def test_playouts_play_legal_turns_to_a_legal_outcome(game: str) -> None:
    rng = random.Random(11)
    for _ in range(3):
        start = tavla.find_game(game).start().with_side(rng.randrange(2))
        result, seen = traced(start, rng)
        assert result.outcome == result.final.outcome() is not None
        assert result.outcome.points == REASONS[result.outcome.reason]
        assert result.turns == len(seen) > 0
        for (before, after), (following, _) in zip(seen, [*seen[1:], (None, None)], strict=True):
            assert before.awaiting_decision
            if following is not None:  # each turn starts where the last one ended, dice rolled
                assert following._replace(dice=None) == after
        for before, after in seen[:: max(1, len(seen) // 12)]:
            assert_legal(before, after)
        assert_legal(*seen[-1])


@pytest.mark.parametrize("game", DICE_GAMES)
def test_same_seed_same_game(game: str) -> None:
    start = dice_start(game)
    first = random_playout(start, random.Random(5))
    again = random_playout(start, random.Random(5))
    assert (first.final, first.turns) == (again.final, again.turns)
    others = {random_playout(start, random.Random(seed)).final.notation() for seed in range(4)}
    assert len(others) > 1


def test_playout_from_a_finished_game() -> None:
    over = dice_position("tabla -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/1b 0,0 15,14 b -")
    result = random_playout(over, random.Random(1))
    assert result.final is over and result.turns == 0 and result.outcome.winner == 0


@pytest.mark.parametrize(
    "notation",
    [
        "chelebi 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 11",
        "gulbara 1w/2w/1w/-/1w/1w/-/-/-/1w/1w/1w/3b/1w/-/-/-/-/1w/-/-/-/-/4w 0,0 0,12 w 33 r=3,3",
        "gulbara 2b/-/-/1w/4w/3b/-/-/-/-/-/-/4b/1w/3w/-/1b/2w/3w/1b/1b/3b/1w/- 0,0 0,0 w 11 r=3,3",
    ],
)
def test_huge_double_turns_built_by_steps_are_legal(notation: str) -> None:
    position = dice_position(notation)
    rng = random.Random(2)
    for _ in range(3):
        after = random_turn(position, rng)
        found = position.find_turn(after.with_side(position.side).mover_state())
        assert found is not None and found.after == after
    assert random_turn_by_steps(position, random.Random(9)) == random_turn_by_steps(
        position, random.Random(9)
    )


@pytest.mark.parametrize("game", ["tabla", "tapa", "indiyka"])
def test_listed_turns_are_all_drawn(game: str) -> None:
    """The choice is among the listed turns: with enough draws every one comes up."""
    position = dice_start(game).with_roll((6, 5))
    results = {turn.after for turn in position.legal_turns()}
    rng = random.Random(4)
    drawn = {random_turn(position, rng) for _ in range(40 * len(results))}
    assert drawn == results


@pytest.mark.parametrize("greek", [False, True])
def test_tapa_s_compiled_playout_is_the_traced_loop_s_game(greek: bool) -> None:
    """Untraced, tapa plays on the compiled search's states and builds a position only
    where the game may end; it must end every game where the traced loop does, with
    the same result (RULES.md 5: the last checker off, a pinned mother)."""
    start = dice_start("tapa")
    if greek:
        start = start.with_rules(start.definition.with_options(mother_pin_wins=True))
    reasons: set[OutcomeReason] = set()
    for seed in range(12):
        fast = random_playout(start.with_side(seed % 2), random.Random(seed))
        traced = random_playout(start.with_side(seed % 2), random.Random(seed), on_turn=lambda *_: None)
        assert (fast.final, fast.outcome, fast.turns) == (traced.final, traced.outcome, traced.turns)
        reasons.add(fast.outcome.reason)
    if greek:  # random play pins a mother now and then: the compiled path must see it
        assert OutcomeReason.MOTHER_PINNED in reasons
