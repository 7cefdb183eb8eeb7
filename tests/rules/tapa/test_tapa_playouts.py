"""Random tapa games to the end (RULES.md 5): the invariants of pins hold throughout."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.stepping import turn_by_steps

import tavla
from tavla.core.dice import ROLLS
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.tapa import TapaPosition


def check_invariants(position: TapaPosition) -> None:
    """RULES.md 5: 15 checkers each; a pin lies under a stack of the other colour."""
    for player, sign in ((WHITE, 1), (BLACK, -1)):
        on_board = sum(n * sign for n in (*position.tops, *position.pins) if n * sign > 0)
        assert on_board + position.off[player] == 15
    for top, pin in zip(position.tops, position.pins, strict=True):
        assert pin in (-1, 0, 1)
        assert not pin or top * pin < 0
    assert type(position).from_notation(position.notation()) == position


def play_one(seed: int, rule_set: tavla.GameDefinition) -> Any:
    rng = random.Random(seed)
    position = rule_set.start().with_side(rng.choice((WHITE, BLACK)))
    assert isinstance(position, TapaPosition)
    for _ in range(2000):
        if position.outcome() is not None:
            return position
        position = position.with_roll(rng.choices([r for r, _ in ROLLS], [float(p) for _, p in ROLLS])[0])
        turns = position.legal_turns()
        assert len({turn.after for turn in turns}) == len(turns)
        assert turn_by_steps(position, rng).after in {turn.after for turn in turns}
        chosen = rng.choice(list(turns))
        assert position.parse_turn(chosen.text).after == chosen.after
        position = position.play(chosen)
        check_invariants(position)
    raise AssertionError(f"no result within 2000 turns from seed {seed}")


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), greek=st.booleans())
def test_random_games_end_with_a_result(seed: int, greek: bool) -> None:
    """RULES.md 5: every game ends: 1-3 points, a void game, or (option) a pinned mother."""
    tapa = tavla.find_game("tapa")
    rule_set = tapa.with_options(mother_pin_wins=True) if greek else tapa
    end = play_one(seed, rule_set)
    outcome = end.outcome()
    assert outcome is not None
    if outcome.reason == "void":
        assert outcome.winner is None and end.mother_pinned(WHITE) and end.mother_pinned(BLACK)
    elif outcome.reason == "mother pinned":
        assert greek and outcome.points == 2 and end.mother_pinned(1 - outcome.winner)
    else:
        assert end.off[outcome.winner] == 15 and outcome.points in (1, 2, 3)
    assert not end.is_chance and end.legal_turns() == ()
