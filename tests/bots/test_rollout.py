"""Rollouts (tavla.bots.rollout) against exact values, and with the shipped networks.

In a small tabla bear-off (RULES.md 1.3 and 2: two checkers a side, no gammon) the
chance that the side to roll wins is known exactly (tests/bots/exact_bearoff.py).
With an evaluator that knows it, a rollout's variance reduction takes all the dice's
luck out: every trial comes out at the exact value. Without it, 36 trials cut after
one turn meet each first roll once and so average to the exact value too.
"""

from __future__ import annotations

import numpy as np
import pytest
from tests.bots.exact_bearoff import ExactBearOff, bear_off, every_position, win_chance

import tavla
from tavla.bots.network import Network
from tavla.bots.outcomes import equity
from tavla.bots.rollout import ROLLS, SECOND_STRIDE, Roller, RolloutSettings
from tavla.bots.search import DiceSearch, SearchSettings
from tavla.core.errors import TavlaError
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.dicegame import DiceGame

BEAR_OFFS = [((6, 5), (6, 1)), ((6, 3), (2, 2)), ((5, 4), (6, 6)), ((4, 4), (6, 2))]


@pytest.fixture(scope="module")
def exact() -> ExactBearOff:
    return ExactBearOff(every_position())


@pytest.mark.parametrize("truncate", [0, 1, 2])
@pytest.mark.parametrize(("white", "black"), BEAR_OFFS)
def test_variance_reduction_with_exact_values_leaves_no_spread(
    exact: ExactBearOff, truncate: int, white: tuple[int, ...], black: tuple[int, ...]
) -> None:
    position = bear_off(white, black, side=WHITE)
    value = win_chance(position.notation())
    settings = RolloutSettings(trials=7, truncate=truncate, seed=3)
    for player, chance in ((WHITE, value), (BLACK, 1 - value)):
        found = Roller(exact).rollout(position, player, settings)
        assert found.chances[0] == pytest.approx(chance, abs=1e-9)
        assert found.equity_error == pytest.approx(0.0, abs=1e-9)
        assert found.trials == 7


@pytest.mark.parametrize(("white", "black"), BEAR_OFFS)
def test_stratified_first_rolls_make_a_one_turn_rollout_exact(
    exact: ExactBearOff, white: tuple[int, ...], black: tuple[int, ...]
) -> None:
    position = bear_off(white, black, side=BLACK)
    value = win_chance(position.notation())
    for trials in (36, 72):
        settings = RolloutSettings(trials=trials, truncate=1, variance_reduction=False, seed=11)
        found = Roller(exact).rollout(position, BLACK, settings)
        assert found.chances[0] == pytest.approx(value, abs=1e-9)
        assert found.equity_error > 0  # the trials themselves differ: only their mean is exact


def test_plain_rollouts_to_the_end_agree_with_exact_values(exact: ExactBearOff) -> None:
    for white, black in BEAR_OFFS:
        position = bear_off(white, black, side=WHITE)
        found = Roller(exact).rollout(
            position, WHITE, RolloutSettings(trials=144, variance_reduction=False, seed=5)
        )
        assert found.finished == 144
        value = win_chance(position.notation())
        assert abs(found.equity - (2 * value - 1)) <= 4 * found.equity_error + 1e-9


def test_the_two_first_rolls_meet_every_pairing_once_per_block() -> None:
    block = [(ROLLS[i % 36], ROLLS[(SECOND_STRIDE * i + i // 36) % 36]) for i in range(72)]
    assert sorted(first for first, _ in block[:36]) == sorted(ROLLS)
    assert sorted(second for _, second in block[:36]) == sorted(ROLLS)
    assert sorted(second for _, second in block[36:]) == sorted(ROLLS)
    assert len(set(block)) == 72  # the second block pairs them otherwise


def test_a_finished_game_is_its_result(exact: ExactBearOff) -> None:
    position = bear_off((1,), (6, 6), side=WHITE).with_roll((2, 1))
    finished = position.legal_turns()[0].after
    assert finished.outcome() is not None
    found = Roller(exact).rollout(finished, WHITE, RolloutSettings(trials=5))
    assert found.chances.tolist() == [1.0, 0.0, 0.0, 0.0, 0.0] and found.equity_error == 0.0


def test_bad_settings_are_refused() -> None:
    with pytest.raises(TavlaError, match="at least one trial"):
        RolloutSettings(trials=0)
    with pytest.raises(TavlaError, match="cannot stop after -1 turns"):
        RolloutSettings(truncate=-1)
    assert RolloutSettings(trials=12, truncate=10).label == "rollout 12x10 vr"
    assert RolloutSettings(truncate=0, variance_reduction=False).label == "rollout 36xend"


def _after_a_few_turns(game: str, seed: int, turns: int) -> DiceGame[object]:
    network = Network.shipped(game)
    rng = np.random.default_rng(seed)
    position: DiceGame[object] = tavla.find_game(game).start().with_side(0)  # type: ignore[assignment]
    roller = Roller(network)
    for _ in range(turns):
        roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        position = roller._best(position.with_roll(roll))
    return position


@pytest.mark.parametrize("game", ["tapa", "gulbara", "chelebi", "antitabla"])
def test_network_rollouts_are_repeatable_and_reduce_the_spread(game: str) -> None:
    """On each game's own network: the same seed gives the same estimate, another seed
    another, and the luck taken out leaves a smaller spread than plain trials have."""
    position = _after_a_few_turns(game, seed=2, turns=5)
    owner = 1 - position.to_act
    roller = Roller(Network.shipped(game))
    plain = RolloutSettings(trials=12, truncate=3, variance_reduction=False, seed=1)
    reduced = RolloutSettings(trials=8, truncate=3, seed=1)
    first = roller.rollout(position, owner, reduced)
    again = Roller(Network.shipped(game)).rollout(position, owner, reduced)
    assert np.array_equal(first.chances, again.chances)
    noisy = roller.rollout(position, owner, plain)
    other = roller.rollout(position, owner, RolloutSettings(trials=12, truncate=3, variance_reduction=False))
    assert not np.array_equal(noisy.chances, other.chances)
    assert first.equity_error < noisy.equity_error
    assert abs(first.equity - noisy.equity) < 4 * noisy.equity_error
    assert np.all(first.chances[:1] >= 0) and float(equity(first.chances)) <= 3


@pytest.mark.parametrize("game", ["tapa", "tabla", "gulbara"])
def test_a_reduced_rollout_cut_after_one_turn_is_the_one_ply_estimate(game: str) -> None:
    """Each trial's leaf minus its roll's luck is the mean over the rolls of the
    estimates after the best replies: the network's own 1-ply estimate, whatever the dice."""
    network = Network.shipped(game)
    position = _after_a_few_turns(game, seed=7, turns=6)
    owner = 1 - position.to_act
    one_ply = DiceSearch(network, SearchSettings()).position_estimate(position, owner, 1)
    for trials, seed in ((1, 0), (3, 9)):
        found = Roller(network).rollout(position, owner, RolloutSettings(trials, truncate=1, seed=seed))
        assert found.chances == pytest.approx(one_ply, abs=1e-9)


@pytest.mark.parametrize("game", ["tapa", "gulbara"])
def test_a_rollout_played_in_parts_is_the_whole_rollout(game: str) -> None:
    """Trial i meets the same dice wherever it is played: the site plays a turn's
    trials a few at a time in its workers and must get the rollout of one call."""
    position = _after_a_few_turns(game, seed=3, turns=4)
    owner = 1 - position.to_act
    roller = Roller(Network.shipped(game))
    for settings in (RolloutSettings(trials=7, truncate=2), RolloutSettings(7, 2, variance_reduction=False)):
        whole, finished = roller.trials(position, owner, settings)
        parts = [
            roller.trials(position, owner, settings, chosen=range(a, b)) for a, b in ((0, 3), (3, 4), (4, 7))
        ]
        assert np.array_equal(np.concatenate([rows for rows, _ in parts]), whole)
        assert sum(ended for _, ended in parts) == finished
        assert len(np.unique(whole[:, 0])) > 1  # the trials differ: their order is tested
    for wrong in (range(-1, 3), range(5, 8), range(0, 7, 2)):
        with pytest.raises(TavlaError, match="not among 7"):
            roller.trials(position, owner, RolloutSettings(trials=7, truncate=2), chosen=wrong)
