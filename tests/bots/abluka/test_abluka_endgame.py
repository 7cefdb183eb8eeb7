"""The exact endgame solver against brute force over the real rules.

The issue's claim: once the kings are in separate regions, the side to move wins iff
its survival count (stepping first) exceeds the opponent's (blocked first). The
referee is a plain minimax over ``legal_turns`` in which both players may put their
blockers anywhere: in their own region, in the other's, or on squares nobody reaches.
"""

from __future__ import annotations

import random

import pytest
from tests.bots.abluka.brute_force import distance_score, mover_wins, random_separated_position

from tavla.bots.abluka.endgame import SurvivalSolver, endgame_turn, separated_regions
from tavla.bots.abluka.evaluation import WIN, separated_score
from tavla.rules.abluka import AblukaPosition


def agreement(seed: int, count: int, box: int, max_empty: int) -> tuple[int, int, list[str]]:
    rng = random.Random(seed)
    solver = SurvivalSolver(budget=10**7)
    agreed = won = 0
    disagreements = []
    for _ in range(count):
        position = random_separated_position(rng, box, max_empty)
        solved = solver.mover_wins(position.mover, position.waiter, position.blockers)
        truth = mover_wins(position)
        won += truth
        if solved == truth:
            agreed += 1
        else:
            disagreements.append(position.notation())
    return agreed, won, disagreements


def test_solver_agrees_with_brute_force_on_small_regions() -> None:
    agreed, won, disagreements = agreement(seed=4, count=250, box=4, max_empty=8)
    assert disagreements == []
    assert agreed == 250
    assert 50 < won < 200  # both results occur: the check is not one-sided


@pytest.mark.slow
def test_solver_agrees_with_brute_force_on_larger_regions() -> None:
    agreed, _, disagreements = agreement(seed=5, count=150, box=5, max_empty=11)
    assert disagreements == []
    assert agreed == 150


def test_bigger_region_can_lose() -> None:
    """A 4-square corridor loses to a 3-square blob: region size alone is wrong."""
    # Black (to move) on a1 with the corridor b1-e1: a blocker next to him cuts it.
    # White on g7 with f7, f6 and g6, all next to each other.
    position = AblukaPosition.from_notation("xxxxx1W/xxxxx2/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/B4xx b")
    regions = separated_regions(position.mover, position.waiter, position.blockers)
    assert regions is not None
    assert regions.mover.bit_count() == 4 and regions.waiter.bit_count() == 3
    assert mover_wins(position) is False
    assert SurvivalSolver().mover_wins(position.mover, position.waiter, position.blockers) is False


def test_regions_touching_through_a_square_are_not_separated() -> None:
    # a4 is next to both a3 (Black's side) and a5 (White's side).
    position = AblukaPosition.from_notation("xxxxxxx/xxxxxxx/Wxxxxxx/1xxxxxx/Bxxxxxx/xxxxxxx/xxxxxxx b")
    assert separated_regions(position.mover, position.waiter, position.blockers) is None
    assert SurvivalSolver().mover_wins(position.mover, position.waiter, position.blockers) is None


def test_endgame_turn_is_a_winning_turn() -> None:
    rng = random.Random(11)
    solver = SurvivalSolver(budget=10**7)
    checked = 0
    while checked < 40:
        position = random_separated_position(rng, 4, 8)
        if position.outcome() is not None or not mover_wins(position):
            continue
        found = endgame_turn(position.mover, position.waiter, position.blockers, solver)
        assert found is not None
        to, block, wins = found
        assert wins
        assert position.turn_error(to, block) is None
        assert not mover_wins(position.after_turn(to, block))
        checked += 1


def test_a_separated_score_says_how_soon_the_game_ends() -> None:
    """The search scores a result by the ply on which a king is left with no step
    (RULES.md 8.1), the winner hastening it and the loser putting it off; a separated
    position's exact score must say the same ply as minimax over the real rules, for the
    side that wins and the side that loses, wherever in the search it is met."""
    rng = random.Random(21)
    solver = SurvivalSolver(budget=10**7)
    memo: dict[str, int] = {}
    outcomes = {True: 0, False: 0}
    for _ in range(160):
        position = random_separated_position(rng, 3, 7)
        if position.outcome() is not None:
            continue
        regions = separated_regions(position.mover, position.waiter, position.blockers)
        assert regions is not None
        exact = distance_score(position, WIN, memo)
        for ply in (0, 3):
            shifted = exact - ply if exact > 0 else exact + ply
            score = separated_score(position.mover, position.waiter, regions, solver, ply)
            assert score == shifted, (position.notation(), ply)
        outcomes[exact > 0] += 1
    assert min(outcomes.values()) > 30  # both sides' distances are checked
