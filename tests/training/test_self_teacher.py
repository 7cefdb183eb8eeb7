"""Targets from a network's own lookahead (tavla.training.self_teacher): the games no
outside program plays learn from their network's n-ply estimates (docs/bots.md,
"Teaching a variant by its own lookahead"), seen from the player who just moved
(RULES.md 2)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tavla.bots.encoding import encoder_for
from tavla.bots.network import Network
from tavla.bots.outcomes import equity
from tavla.bots.players import RandomPlayer
from tavla.bots.rollout import Roller, RolloutSettings
from tavla.bots.search import DiceSearch, SearchSettings
from tavla.core.errors import TavlaError
from tavla.rules.dicegame import DiceGame
from tavla.training.self_teacher import network_targets
from tavla.training.teacher import self_play_positions


@pytest.fixture(scope="module")
def tapa_positions() -> list[DiceGame[Any]]:
    found = self_play_positions("tapa", RandomPlayer(5), games=1, seed=8, alternatives=1)
    return random.Random(2).sample(found, 12)


def test_targets_are_the_network_s_lookahead_for_the_player_who_moved(
    tapa_positions: list[DiceGame[Any]],
) -> None:
    targets = network_targets("tapa", tapa_positions, plies=1, processes=1, chunk=5)
    search = DiceSearch(Network.shipped("tapa"), SearchSettings())
    for position, row in zip(tapa_positions, targets, strict=True):
        mover = 1 - position.to_act
        assert np.allclose(row, search.position_estimate(position, mover, 1))
        # The opponent's view of the same lookahead is its mirror.
        assert np.isclose(
            equity(row[None])[0], -equity(search.position_estimate(position, 1 - mover, 1)[None])[0]
        )
    # Lookahead, not the 0-ply estimates again.
    network = Network.shipped("tapa")
    shallow = [
        network.evaluate(encoder_for(position).encode(position, 1 - position.to_act))
        for position in tapa_positions
    ]
    assert np.abs(targets - np.array(shallow)).max() > 0.01


def test_several_processes_give_the_same_labels_in_the_same_order(
    tapa_positions: list[DiceGame[Any]],
) -> None:
    one = network_targets("tapa", tapa_positions, plies=1, processes=1, chunk=5)
    two = network_targets("tapa", tapa_positions, plies=1, processes=2, chunk=5)
    assert np.array_equal(one, two)


def test_a_network_s_own_zero_ply_is_refused(tapa_positions: list[DiceGame[Any]]) -> None:
    with pytest.raises(TavlaError, match="plies 1 or more"):
        network_targets("tapa", tapa_positions, plies=0)


def test_no_process_to_label_with_is_refused(tapa_positions: list[DiceGame[Any]]) -> None:
    with pytest.raises(TavlaError, match="at least one process"):
        network_targets("tapa", tapa_positions, plies=1, processes=0)


def test_rollout_targets_are_the_network_s_rollouts_for_the_player_who_moved(
    tapa_positions: list[DiceGame[Any]],
) -> None:
    settings = RolloutSettings(trials=3, truncate=2, seed=4)
    few = tapa_positions[:6]
    one = network_targets("tapa", few, rollout=settings, processes=1)
    roller = Roller(Network.shipped("tapa"))
    for position, row in zip(few, one, strict=True):
        assert np.allclose(row, roller.rollout(position, 1 - position.to_act, settings).chances)
    # Each position's dice come from its own text: the same labels in any order and
    # from any number of processes.
    two = network_targets("tapa", few[::-1], rollout=settings, processes=2, chunk=2)
    assert np.array_equal(one, two[::-1])


def test_a_label_is_a_lookahead_or_a_rollout_not_both(tapa_positions: list[DiceGame[Any]]) -> None:
    with pytest.raises(TavlaError, match="not both"):
        network_targets("tapa", tapa_positions, plies=1, rollout=RolloutSettings())


def test_two_ply_targets_are_the_deeper_lookahead_for_the_player_who_moved(
    tapa_positions: list[DiceGame[Any]],
) -> None:
    """``--plies 2`` labels each position alone with the network's 2-ply estimate (the
    1-ply path batches several), still for the player who just moved."""
    few = tapa_positions[:2]
    targets = network_targets("tapa", few, plies=2, processes=1)
    search = DiceSearch(Network.shipped("tapa"), SearchSettings())
    for position, row in zip(few, targets, strict=True):
        assert np.allclose(row, search.position_estimate(position, 1 - position.to_act, 2))
