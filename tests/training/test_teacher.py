"""Training positions from self-play and GNU Backgammon's estimates of them
(tavla.training.teacher), seen from the player who just moved (RULES.md 2)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import tavla
from tavla.oracles.gnubg import GnubgOracle, gnubg_available
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn
from tavla.training.teacher import (
    ROLLOUT_TO_THE_END,
    deepest_labels,
    gnubg_targets,
    load_dataset,
    mover_view,
    save_dataset,
    self_play_positions,
    teacher_plies,
)


class RandomChooser:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        return self.rng.choice(list(position.legal_turns()))


@pytest.mark.parametrize("game", ["tabla", "tapa"])
def test_self_play_finds_positions_after_turns(game: str) -> None:
    positions = self_play_positions(game, RandomChooser(1), games=2, seed=3, alternatives=1)
    assert len(positions) > 50
    assert all(position.outcome() is None for position in positions)
    assert len({position.notation() for position in positions}) == len(positions)
    again = self_play_positions(game, RandomChooser(1), games=2, seed=3, alternatives=1)
    assert [p.notation() for p in again] == [p.notation() for p in positions]


class RankingChooser(RandomChooser):
    """Ranks the turns in a seeded random order and plays the first (a stand-in student)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.rankings: dict[str, list[str]] = {}

    def ranked(self, position: DiceGame[Any]) -> list[DiceTurn[Any]]:
        turns = list(position.legal_turns())
        self.rng.shuffle(turns)
        self.rankings[position.notation()] = [turn.after.notation() for turn in turns]
        return turns


def test_a_student_keeps_the_turns_it_rated_next_best() -> None:
    student = RankingChooser(5)
    positions = self_play_positions("tabla", student, games=1, seed=4, alternatives=0, close=2)
    found = {position.notation() for position in positions}
    assert student.rankings
    for ranking in student.rankings.values():
        kept = [text for text in ranking[:3] if not tavla.from_notation(text).outcome()]
        assert set(kept) <= found  # the played turn and the two next best
    rest = {text for ranking in student.rankings.values() for text in ranking[3:]}
    best = {text for ranking in student.rankings.values() for text in ranking[:3]}
    assert not (rest - best) & found  # nothing below the two next best without --alternatives


def test_next_best_turns_need_a_player_that_ranks() -> None:
    with pytest.raises(tavla.TavlaError, match="ranks"):
        self_play_positions("tabla", RandomChooser(1), games=1, seed=1, close=2)


def test_mover_view_turns_the_chances_around() -> None:
    on_roll = np.array([[0.7, 0.2, 0.01, 0.05, 0.002]])
    assert mover_view(on_roll).tolist() == [[pytest.approx(0.3), 0.05, 0.002, 0.2, 0.01]]


@pytest.mark.gnubg
@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed")
def test_gnubg_targets_are_for_the_player_who_moved() -> None:
    """White just bore off to one checker on his 1 point, Black (fifteen on his 6
    point) to roll: White, who moved, wins unless ... nothing: Black cannot win in one
    roll. Black loses a gammon unless he bears a checker off now (17 rolls of 36)."""
    after = tavla.from_notation("tabla 1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/- 0,0 14,0 b -")
    start = tavla.from_notation("tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 b -")
    assert isinstance(after, BackgammonPosition) and isinstance(start, BackgammonPosition)
    rows = gnubg_targets([after, start] * 3, processes=2, chunk=2)
    assert rows.shape == (6, 5)
    assert rows[0][0] == pytest.approx(1.0)
    assert rows[0][1] == pytest.approx(19 / 36, abs=1e-5)
    with GnubgOracle() as gnubg:
        black_on_roll = gnubg.estimate([start])[0]
    assert rows[1][0] == pytest.approx(1 - black_on_roll[0], abs=1e-6)
    assert np.allclose(rows[::2], rows[0]) and np.allclose(rows[1::2], rows[1])


def test_a_dataset_round_trips_through_its_file(tmp_path: Any) -> None:
    positions = self_play_positions("tabla", RandomChooser(2), games=1, seed=1, alternatives=0)[:20]
    targets = np.random.default_rng(0).uniform(0, 1, (len(positions), 5))
    path = str(tmp_path / "set.npz")
    save_dataset(path, positions, targets)
    texts, again = load_dataset(path)
    assert texts == [p.notation() for p in positions]
    assert np.array_equal(again, targets)


def test_a_position_labelled_twice_keeps_its_deepest_estimate() -> None:
    texts = ["a", "b", "c", "b", "a", "d"]
    targets = np.arange(6, dtype=np.float64)[:, None] * np.ones((1, 5))
    depths = [0, 0, 0, 2, 1, 2]
    kept, rows, dropped = deepest_labels(texts, targets, depths)
    assert kept == ["c", "b", "a", "d"] and dropped == 2
    assert rows[:, 0].tolist() == [2.0, 3.0, 4.0, 5.0]
    # Equally deep: the first stays.
    assert deepest_labels(["x", "x"], targets[:2], [2, 2])[1][:, 0].tolist() == [0.0]
    assert [teacher_plies(t) for t in ("gnubg 0-ply", "gnubg 2-ply", "self-play")] == [0, 2, 0]
    # A rollout is as deep as the turns it plays; one played to the end, deeper than any.
    rollouts = ("network rollout 12x10 vr", "network rollout 36xend", "network 2-ply")
    assert [teacher_plies(t) for t in rollouts] == [10, ROLLOUT_TO_THE_END, 2]
