"""Random gulbara games to the end (RULES.md 6), progressive doubles included.

A progressive double can have millions of turns, so turns are listed only where
there are few (``legal_turns_within``); otherwise the turn is played step by step.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.stepping import turn_by_steps

import tavla
from tavla.core.dice import ROLLS
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.dicesteps import DiceTurn
from tavla.rules.gulbara import GulbaraPosition

LIST_LIMIT = 3000


def choose_turn(position: GulbaraPosition, rng: random.Random) -> DiceTurn[GulbaraPosition]:
    turns = position.legal_turns_within(LIST_LIMIT)
    stepped: DiceTurn[GulbaraPosition] = turn_by_steps(position, rng, undo_rate=0.2)
    assert position.parse_turn(stepped.text).after == stepped.after
    if turns is None:
        return stepped
    assert len({turn.after for turn in turns}) == len(turns)
    assert stepped.after in {turn.after for turn in turns}
    return rng.choice(list(turns))


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), from_roll=st.sampled_from([1, 4]))
def test_random_games_keep_the_roll_counter_and_completions_right(seed: int, from_roll: int) -> None:
    """RULES.md 6.2-6.3 and 1.2: r= counts rolls (capped at 3), completing is no roll,
    the completer rolls next, and every game ends with 1-3 points."""
    rng = random.Random(seed)
    rule_set = tavla.find_game("gulbara").with_options(progressive_from_roll=from_roll)
    position = rule_set.start().with_side(rng.choice((WHITE, BLACK)))
    assert isinstance(position, GulbaraPosition)
    for _ in range(3000):
        if position.outcome() is not None:
            break
        if position.is_chance:
            position = position.with_roll(rng.choices([r for r, _ in ROLLS], [float(p) for _, p in ROLLS])[0])
            continue
        mover = position.side
        after = position.play(choose_turn(position, rng))
        assert type(after).from_notation(after.notation()) == after
        if position.complete:
            assert after.side == mover and after.rolls == position.rolls and after.complete == ()
        else:
            assert after.side == 1 - mover
            assert after.rolls[mover] == min(3, position.rolls[mover] + 1)
            if after.complete:
                assert position.dice is not None and position.dice[0] == position.dice[1]
                assert position.rolls[mover] + 1 >= from_roll
        position = after
    outcome = position.outcome()
    assert outcome is not None and outcome.points in (1, 2, 3) and outcome.winner is not None
    assert position.off[outcome.winner] == 15
