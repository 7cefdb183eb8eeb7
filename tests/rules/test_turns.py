"""The generic die-by-die turn search and step planner (RULES.md 1.3), on a toy game.

The toy game: tokens on a line move down by the die and may not land on a blocked
point or below 1. The expected turns are worked out by hand in each test.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from tavla.rules.turns import StepFunction, StepPlanner, search_turns, turn_states_within

Tokens = tuple[int, ...]


def toy_steps(blocked: set[int]) -> StepFunction[Tokens, tuple[int, int]]:
    def steps(tokens: Tokens, die: int) -> Iterable[tuple[tuple[int, int], Tokens]]:
        for index, token in enumerate(tokens):
            if index and tokens[index - 1] == token:
                continue  # equal tokens give the same moves
            target = token - die
            if target >= 1 and target not in blocked:
                moved = sorted((*tokens[:index], target, *tokens[index + 1 :]))
                yield (token, target), tuple(moved)

    return steps


def test_both_dice_are_played_when_one_order_allows_it() -> None:
    """From 5 with 3-1 and 2 blocked, only 1 then 3 plays both: 5/4/1."""
    start: Tokens = (5,)
    found = search_turns(start, [[3, 1], [1, 3]], toy_steps({2}), prefer_first=True)
    assert found.dice_played == 2
    assert found.turns == {(1,): ((5, 4), (4, 1))}


def test_larger_die_rule_applies_only_with_prefer_first() -> None:
    """From 10 with 3-1, 6 blocked: either die alone (to 7 or 9), never both."""
    start: Tokens = (10,)
    both = [[3, 1], [1, 3]]
    preferred = search_turns(start, both, toy_steps({6}), prefer_first=True)
    assert preferred.dice_played == 1
    assert set(preferred.turns) == {(7,)}
    either = search_turns(start, both, toy_steps({6}))
    assert set(either.turns) == {(7,), (9,)}


def test_final_states_follow_the_larger_die_rule_only_with_prefer_first() -> None:
    """RULES.md 1.3: the states-only search keeps the larger-die rule as search_turns does."""
    start: Tokens = (10,)
    both = [[3, 1], [1, 3]]
    assert turn_states_within(start, both, toy_steps({6}), None, prefer_first=True) == (1, [(7,)])
    either = turn_states_within(start, both, toy_steps({6}), None)
    assert either is not None and (either[0], set(either[1])) == (1, {(7,), (9,)})
    assert turn_states_within(start, both, toy_steps({6}), 0) is None  # over the limit: no list


def test_smaller_die_when_the_larger_cannot_move() -> None:
    start: Tokens = (10,)
    found = search_turns(start, [[3, 1], [1, 3]], toy_steps({7, 6}), prefer_first=True)
    assert (found.dice_played, set(found.turns)) == (1, {(9,)})


def test_no_die_playable_keeps_the_start() -> None:
    start: Tokens = (2,)
    found = search_turns(start, [[3, 2], [2, 3]], toy_steps(set()), prefer_first=True)
    assert found.dice_played == 0
    assert found.turns == {(2,): ()}


def test_turns_are_deduplicated_by_the_state_they_produce() -> None:
    """Tokens 10 and 20 with 3-1: every way to share 4 pips, once each."""
    start: Tokens = (10, 20)
    found = search_turns(start, [[3, 1], [1, 3]], toy_steps(set()), prefer_first=True)
    assert set(found.turns) == {(6, 20), (7, 19), (9, 17), (10, 16)}


def test_a_sequence_stops_at_its_first_unplayable_die() -> None:
    """Dice 1, 1, 2, 3 in order from 8: 8/7/6/4, then 4-3 = 1 is blocked: three dice."""
    start: Tokens = (8,)
    found = search_turns(start, [[1, 1, 2, 3]], toy_steps({1}))
    assert (found.dice_played, set(found.turns)) == (3, {(4,)})


def test_planner_offers_only_steps_that_keep_a_maximal_turn() -> None:
    start: Tokens = (5,)
    planner = StepPlanner(start, [[3, 1], [1, 3]], toy_steps({2}), prefer_first=True)
    assert planner.target == 2
    assert [(die, step) for die, step, _ in planner.legal_steps()] == [(1, (5, 4))]
    die, step, after = planner.legal_steps()[0]
    planner.play(die, step, after)
    assert planner.remaining_dice() == [(3,)]
    assert [step for _, step, _ in planner.legal_steps()] == [(4, 1)]
    planner.play(*planner.legal_steps()[0])
    assert planner.complete
    assert planner.state == (1,)
    assert planner.legal_steps() == []
    planner.undo()
    planner.undo()
    assert planner.state == (5,)
    with pytest.raises(IndexError):
        planner.undo()


def test_planner_larger_die_rule() -> None:
    start: Tokens = (10,)
    planner = StepPlanner(start, [[3, 1], [1, 3]], toy_steps({6}), prefer_first=True)
    assert planner.target == 1
    assert [(die, step) for die, step, _ in planner.legal_steps()] == [(3, (10, 7))]


def test_planner_and_search_agree_on_every_complete_turn() -> None:
    """Every step path the planner allows ends in one of the searched turns, and
    every searched turn is reached."""
    tokens: Tokens = (6, 9, 13)
    sequences = [[2, 2, 2, 2, 3, 3, 3, 3]]
    steps = toy_steps({5, 8})
    found = search_turns(tokens, sequences, steps)
    planner = StepPlanner(tokens, sequences, steps)
    ends: set[Tokens] = set()

    def explore() -> None:
        if planner.complete:
            ends.add(planner.state)
            return
        options = planner.legal_steps()
        assert options
        for option in options:
            planner.play(*option)
            explore()
            planner.undo()

    explore()
    assert planner.target == found.dice_played
    assert ends == set(found.turns)
