"""Random indiyka games to the end (RULES.md 7)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import tavla
from tavla.core.game import Game, GameRecord
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.indiyka import IndiykaPosition


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_enter_then_remove_and_end(seed: int) -> None:
    """RULES.md 7: no choice is ever left, nothing is removed before all 15 entered,
    and the first to remove all 15 wins 1 point."""
    rng = random.Random(seed)
    game = tavla.new_game("indiyka")
    while not game.is_over:
        if game.is_chance:
            game.roll(source=tavla.SeededDice(rng.random()))
            continue
        position = game.position
        assert isinstance(position, IndiykaPosition)
        (turn,) = position.legal_turns()  # the dice decide everything
        builder = position.steps()
        while not builder.complete:
            builder.step(builder.legal_steps()[0])
        assert builder.commit().after == turn.after
        after = game.play(turn.text).after
        assert isinstance(after, IndiykaPosition)
        mover = position.side
        if position.waiting(mover):
            assert after.off[mover] == 0  # a roll begun while entering never removes
        for player in (WHITE, BLACK):
            # Nothing is removed before all 15 entered; nothing is entered twice.
            assert 0 <= after.waiting(player) <= 15 - after.off[player]
            assert after.off[player] == 0 or after.waiting(player) == 0
        assert IndiykaPosition.from_notation(after.notation()) == after
        if rng.random() < 0.1:
            game.undo()
            assert game.position == position
    outcome = game.outcome()
    assert outcome is not None and outcome.points == 1 and outcome.winner is not None
    assert isinstance(game.position, IndiykaPosition)
    assert game.position.off[outcome.winner] == 15
    assert Game.replay(GameRecord.from_json(game.record().to_json())).position == game.position
    # The game ends with the first player to remove all 15: the loser has not.
    assert game.position.off[1 - outcome.winner] < 15
