"""The fast generator on blocked positions: turns where only some of the dice play.

Random playouts and the property tests in test_movegen.py rarely meet a mover far from
home behind a wall, where a double plays once, twice or three times and a non-double
only one of its dice (RULES.md 1.3: as many dice as possible, the larger when only one
can be played). These positions are made on purpose, from a fixed seed, and each roll's
turns from ``turn_boards`` are checked against the generic breadth-first search.
"""

from __future__ import annotations

import random

import pytest

import tavla
from tavla.core.protocol import WHITE
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.backgammon.movegen import state_to_board, tabla_steps
from tavla.rules.backgammon.turngen import turn_boards
from tavla.rules.turns import search_turns

pytestmark = pytest.mark.timeout(120)

ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]


def walled(rng: random.Random) -> BackgammonPosition:
    """White far from home (points 16-24) facing seven of Black's points just in front."""
    points = [0] * 24
    white_places = rng.sample(range(16, 25), rng.randint(2, 4))
    left = 15
    for index, place in enumerate(white_places):
        count = (
            left if index == len(white_places) - 1 else rng.randint(1, left - (len(white_places) - index - 1))
        )
        points[place - 1] += count
        left -= count
    free = [p for p in range(9, 23) if points[p - 1] == 0]
    walls = rng.sample(free, 7)
    black_left = 15
    for index, place in enumerate(walls):
        count = black_left if index == len(walls) - 1 else 2
        points[place - 1] -= count
        black_left -= count
    position = BackgammonPosition(points=tuple(points))
    parsed = tavla.find_game("tabla").from_notation(position.notation())
    assert isinstance(parsed, BackgammonPosition)
    return parsed.with_side(WHITE)


def test_partial_turns_far_from_home_match_the_generic_search() -> None:
    rng = random.Random(20261124)
    partial = doubles = 0
    for _ in range(300):
        position = walled(rng)
        for roll in ROLLS:
            sequences = position.dice_sequences(roll)
            # Without the larger-die preference too (RULES.md 1.3 asks for it; the
            # generator offers both, and must agree with the search either way).
            prefer = rng.random() < 0.5
            generic = search_turns(position.mover_state(), sequences, tabla_steps, prefer_first=prefer)
            played, found = turn_boards(position.mover_board(), sequences, prefer_first=prefer)
            assert played == generic.dice_played, (position.notation(), roll)
            assert set(found) == {state_to_board(state) for state in generic.turns}, (
                position.notation(),
                roll,
            )
            for path in found.values():
                assert len(path) == played, (position.notation(), roll)
            partial += 0 < played < len(sequences[0])
            doubles += roll[0] == roll[1] and 0 < played < 4
    # The walls do their work: many rolls play only some of their dice.
    assert partial > 100
    assert doubles > 50
