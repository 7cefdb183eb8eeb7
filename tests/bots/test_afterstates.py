"""afterstates: the legal turns' texts and the features of their results, in one call."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from tests.dice_positions import dice_position, dice_start

import tavla
from tavla.bots.afterstates import TooManyTurnsError, afterstates
from tavla.bots.encoding import encoder_for
from tavla.bots.playout import random_playout
from tavla.core.dice import ROLLS
from tavla.core.errors import WrongPhaseError
from tavla.rules.backgammon.position import BackgammonPosition

DICE_GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka")
ALL_ROLLS = [roll for roll, _ in ROLLS]


def decision_positions(game: str, seed: int, games: int) -> list[Any]:
    """Positions with a turn due met in seeded random games (small turn sets only)."""
    found: list[Any] = []

    def keep(before: Any, after: Any) -> None:
        if before.legal_turns_within(400) is not None:
            found.append(before)

    rng = random.Random(seed)
    for _ in range(games):
        random_playout(dice_start(game).with_side(rng.randrange(2)), rng, on_turn=keep)
    return found


def check(position: Any) -> None:
    """Rows, texts and turns agree with the rules' own listing of the turns."""
    found = afterstates(position)
    turns = position.legal_turns()
    assert len(found) == len(turns) == len(found.texts) == len(found.turns)
    assert set(found.texts) == {turn.text for turn in turns}
    assert found.complete and found.player == position.side
    encoder = encoder_for(position)
    assert found.features.shape == (len(turns), encoder.size) and found.features.dtype == np.float32
    for index, turn in enumerate(found.turns):
        assert found.text(index) == turn.text == found.texts[index]
        assert turn.after == position.parse_turn(turn.text).after
        assert np.array_equal(found.features[index], encoder.encode(turn.after, position.side))


@pytest.mark.parametrize("game", DICE_GAMES)
def test_afterstates_agree_with_legal_turns(game: str) -> None:
    positions = decision_positions(game, seed=7, games=2)
    for position in positions[::3]:
        check(position)


def test_tabla_texts_equal_turn_text_for_every_roll() -> None:
    """The texts written straight from the generator's paths are the rules' texts, in order."""
    positions = decision_positions("tabla", seed=3, games=3)
    for position in positions[::4]:
        for roll in ALL_ROLLS:
            rolled = position._replace(dice=roll)
            found = afterstates(rolled)
            expected = [rolled.turn_text(turn) for turn in rolled.legal_turns()]
            assert found.texts == expected, rolled.notation()


def test_chelebi_progressive_double_texts() -> None:
    position = tavla.from_notation(
        "chelebi -/-/-/1w/-/5w/2b/2w/-/-/-/4b/5w/-/-/-/3b/-/5b/-/1w/-/-/1b 1,0 0,0 w 55"
    )
    check(position)


def test_identical_results_have_identical_rows() -> None:
    """The same position reached by steps in another order, or read from its text."""
    for game in ("tabla", "tapa", "gulbara"):
        position = dice_start(game).with_roll((6, 1))
        found = afterstates(position)
        encoder = encoder_for(position)
        for index, turn in enumerate(found.turns):
            builder = position.steps()
            for step in reversed(turn.text.split()) if len(turn.text.split()) == 2 else []:
                builder.step(step)
            if builder.played:
                reached = builder.commit().after
                assert reached == turn.after
                assert np.array_equal(encoder.encode(reached, position.side), found.features[index])
            copy = tavla.from_notation(turn.after.notation())
            assert np.array_equal(encoder.encode(copy, position.side), found.features[index])


def test_two_origins_one_result() -> None:
    """8/5 6/5 with 3-1 from the start, and 7/5 6/5 with 2-1 from another position."""
    start = tavla.find_game("tabla").start()
    assert isinstance(start, BackgammonPosition)
    first = start.with_roll((3, 1))
    points = list(start.points)
    points[7 - 1], points[8 - 1] = 1, 2  # a checker of 8 already on 7
    other = BackgammonPosition(tuple(points), dice=(2, 1))
    one, two = afterstates(first), afterstates(other)
    row_one, row_two = one.texts.index("8/5 6/5"), two.texts.index("7/5 6/5")
    assert one.turns[row_one].after == two.turns[row_two].after
    assert np.array_equal(one.features[row_one], two.features[row_two])


def test_finished_game_and_chance_position() -> None:
    position = dice_position("tabla -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/1b 0,0 15,14 b -")
    found = afterstates(position)
    assert len(found) == 0 and found.features.shape == (0, 198) and found.texts == []
    with pytest.raises(WrongPhaseError):
        afterstates(dice_start("tapa"))


HUGE = (
    "chelebi 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 11",
    "gulbara 1w/2w/1w/-/1w/1w/-/-/-/1w/1w/1w/3b/1w/-/-/-/-/1w/-/-/-/-/4w 0,0 0,12 w 33 r=3,3",
)


@pytest.mark.parametrize("notation", HUGE)
def test_huge_double_needs_a_score_then_gives_the_beam(notation: str) -> None:
    position = dice_position(notation)
    with pytest.raises(TooManyTurnsError, match="score="):
        afterstates(position)
    encoder = encoder_for(position)
    mover = position.side

    def pips_left(after: Any) -> float:
        return -float(np.dot(encoder.encode(after, mover)[:192:8], np.arange(1, 25)))

    found = afterstates(position, score=pips_left, width=8)
    assert not found.complete and 0 < len(found) <= 8
    assert found.origin is position and found.player == mover  # the rows are seen from his side
    assert len(set(found.texts)) == len(found)
    for index, turn in enumerate(found.turns):
        assert position.parse_turn(found.texts[index]).after == turn.after
        assert np.array_equal(found.features[index], encoder.encode(turn.after, mover))
