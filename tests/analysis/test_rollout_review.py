"""Rollouts of the turns an analysis marks (tavla.analysis.rollouts, docs/analysis.md).

In a tabla bear-off of two checkers a side (RULES.md 1.3 and 2) the winning chances
are known exactly (tests/bots/exact_bearoff.py). A rollout with variance reduction
and exact values comes out at the exact value in every trial, so a rolled-out loss is
the exact loss, whatever the bot's estimate of the two turns said.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from tests.analysis.test_checker_review import bear_off_match
from tests.bots.exact_bearoff import ExactBearOff, every_position, win_chance
from tests.cli.test_analyze import random_game

from tavla.analysis.checker import MoveReview, RolledLoss
from tavla.analysis.report import analyze
from tavla.analysis.rollouts import default_settings, loss_of, roll_out_marked, rolled_loss, trial_differences
from tavla.bots.network import Network
from tavla.bots.outcomes import equity
from tavla.bots.rollout import Roller, RolloutSettings
from tavla.bots.search import SearchSettings
from tavla.core.errors import TavlaError
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings
from tavla.rules.dicegame import DiceGame

ROLLS = [(2, 1), (5, 4), (6, 6), (3, 2)]
SETTINGS = RolloutSettings(trials=5, truncate=2, seed=1)


def exact_equity(notation_after: str, outcome_reached: bool) -> float:
    """The exact cubeless equity of a position after a turn, for the player who moved."""
    return 1.0 if outcome_reached else 1 - 2 * win_chance(notation_after)


def turn_equities(record: MatchRecord, before: str) -> dict[str, float]:
    position = record.settings.definition.from_notation(before)
    return {
        turn.text: exact_equity(turn.after.notation(), turn.after.outcome() is not None)
        for turn in position.legal_turns()
    }


def test_a_real_mistake_keeps_its_exact_loss() -> None:
    exact = ExactBearOff(every_position())
    record = bear_off_match(ROLLS, choose_worst=True)
    judged = analyze(record, lambda game: exact, SearchSettings(plies=0))
    rolled = roll_out_marked(judged, record, lambda game: exact, SETTINGS)
    first = rolled.moves[0]
    assert first.rollout is not None and first.mark
    values = turn_equities(record, first.before)
    assert first.rollout.loss == pytest.approx(max(values.values()) - values[first.played], abs=1e-9)
    assert first.loss == pytest.approx(first.judged_loss, abs=1e-9)
    assert first.rollout.error == pytest.approx(0.0, abs=1e-9)
    assert (first.rollout.trials, first.rollout.settings) == (5, "rollout 5x2 vr")
    assert rolled.players[0].total_loss == pytest.approx(judged.players[0].total_loss, abs=1e-9)


def test_a_verdict_the_estimates_got_wrong_is_cleared() -> None:
    """White plays his best turns, but the bot believes the position after his first
    one is worth 0.2 less: a blunder by its estimate. The rollout never asks for that
    position's estimate, only for those that follow it, and finds no loss."""
    record = bear_off_match(ROLLS, choose_worst=False)
    truth = analyze(record, lambda game: ExactBearOff(every_position()), SearchSettings(plies=0))
    first = truth.moves[0]
    position = record.settings.definition.from_notation(first.before)
    after = position.parse_turn(first.played).after
    believed = 1 - win_chance(after.notation()) - 0.2
    wrong = ExactBearOff(every_position(), wrong={after.notation(): believed})

    judged = analyze(record, lambda game: wrong, SearchSettings(plies=0))
    assert judged.moves[0].mark == "blunder"
    assert judged.players[0].marks["blunder"] == 1

    rolled = roll_out_marked(judged, record, lambda game: wrong, SETTINGS)
    cleared = rolled.moves[0]
    assert cleared.rollout is not None
    values = turn_equities(record, cleared.before)
    assert cleared.rollout.loss == pytest.approx(values[cleared.best] - values[cleared.played], abs=1e-9)
    assert cleared.rollout.loss <= 1e-9  # the turn played was the best
    assert (cleared.loss, cleared.mark) == (0.0, "")
    assert cleared.judged_loss == pytest.approx(
        values[cleared.best] - (values[cleared.played] - 0.4), abs=1e-9
    )
    assert rolled.players[0].marks["blunder"] == 0
    total = judged.players[0].total_loss - cleared.judged_loss
    assert rolled.players[0].total_loss == pytest.approx(total, abs=1e-9)
    assert rolled.marked(rolled_out=True)[0] is cleared and cleared not in rolled.marked()


def test_unmarked_turns_and_cube_decisions_keep_their_estimates() -> None:
    exact = ExactBearOff(every_position())
    record = bear_off_match(ROLLS, choose_worst=True)
    judged = analyze(record, lambda game: exact, SearchSettings(plies=0))
    rolled = roll_out_marked(judged, record, lambda game: exact, SETTINGS)
    for before, after in zip(judged.moves, rolled.moves, strict=True):
        assert (after.rollout is not None) == bool(before.mark)
        if not before.mark:
            assert after == before
    assert rolled.cubes == judged.cubes and rolled.lucks == judged.lucks
    assert judged.moves[0].rollout is None  # the analysis rolled out is a new one


@pytest.mark.timeout(120)
def test_a_network_rolls_out_both_turns_on_the_same_dice() -> None:
    """Tapa's network, a turn played at random: the rolled loss is the mean difference of
    the two turns' trials, each keyed by the position before the turn, so that trial i
    of both meets the same rolls."""
    match = Match(MatchSettings(game="tapa", length=0), start=True)
    match.roll((6, 4))
    seat = match.state.actor
    assert seat is not None
    position = match.state.position
    assert isinstance(position, DiceGame)
    turns = list(position.legal_turns())
    match.move(seat, turns[-1])
    record = MatchRecord.of(match)
    network = Network.shipped("tapa")
    judged = analyze(record, lambda game: network)
    [review] = judged.moves
    roller = Roller(network)
    settings = RolloutSettings(trials=4, truncate=4, seed=5)  # past the two stratified rolls
    found = rolled_loss(roller, record.settings.definition, review, settings)
    rows = [
        equity(roller.trials(position.parse_turn(text).after, position.side, settings, dice=review.before)[0])
        for text in (review.best, review.played)
    ]
    differences = rows[0] - rows[1]
    assert found.loss == pytest.approx(float(differences.mean()), abs=1e-12)
    assert found.error == pytest.approx(float(np.std(differences, ddof=1)) / 2, abs=1e-12)
    assert found.error > 0 and found.trials == 4
    assert rolled_loss(roller, record.settings.definition, review, settings) == found  # repeatable
    # Rolled out in parts (as the site does, a part per call), the trials are the same.
    definition = record.settings.definition
    parts = [
        trial_differences(roller, definition, review, settings, chosen) for chosen in (range(3), range(3, 4))
    ]
    assert [len(part) for part in parts] == [3, 1]
    assert np.concatenate(parts) == pytest.approx(differences, abs=1e-12)
    assert loss_of(parts, settings) == found
    # One trial measures no spread.
    single = loss_of([differences[:1]], settings)
    assert single.loss == pytest.approx(differences[0]) and (single.error, single.trials) == (0.0, 1)
    two = loss_of([differences[:2]], settings)
    assert two.error == pytest.approx(abs(differences[0] - differences[1]) / 2, abs=1e-12)


@pytest.mark.parametrize(
    ("rolled", "loss", "mark"),
    [(0.2, 0.2, "blunder"), (0.1, 0.1, "error"), (0.05, 0.05, "doubtful"), (0.01, 0.01, ""), (-0.3, 0.0, "")],
)
def test_a_rolled_out_turn_takes_the_rollouts_loss_and_mark(rolled: float, loss: float, mark: str) -> None:
    review = MoveReview(1, 3, 0, "tabla ...", "13/7", "24/18", -0.5, -0.2, (), False, 0)
    assert review.loss == pytest.approx(0.3) and review.mark == "blunder"
    checked = replace(review, rollout=RolledLoss(rolled, 0.01, 36, "rollout 36x10 vr"))
    assert checked.loss == pytest.approx(loss) and checked.mark == mark
    assert checked.judged_loss == pytest.approx(0.3)
    assert replace(checked, forced=True).mark == ""


def test_gulbara_rolls_out_plain_trials_and_the_other_games_take_the_luck_out() -> None:
    assert default_settings("gulbara") == RolloutSettings(trials=144, truncate=10, variance_reduction=False)
    for game in ("tabla", "tapa", "chelebi", "antitabla"):
        assert default_settings(game) == RolloutSettings(trials=36, truncate=10, variance_reduction=True)


@pytest.mark.timeout(180)
def test_several_processes_roll_out_what_one_does(tmp_path: Path) -> None:
    """The marked turns of a tabla game of random turns, rolled out by tabla's network in
    this process and in two spawned ones: the same figures, in the same order."""
    record = MatchRecord.from_json(random_game(tmp_path / "game.json", turns=12).read_text())
    network = Network.shipped("tabla")
    judged = analyze(record, lambda _: network)
    assert sum(bool(review.mark) for review in judged.moves) >= 2
    settings = RolloutSettings(trials=3, truncate=2, seed=9)
    alone = roll_out_marked(judged, record, lambda _: network, settings)
    seen: list[tuple[int, int]] = []
    together = roll_out_marked(
        judged, record, lambda _: network, settings, progress=lambda *done: seen.append(done), processes=2
    )
    for one, two in zip(alone.moves, together.moves, strict=True):
        assert (one.rollout is None) == (two.rollout is None)
        if one.rollout is not None and two.rollout is not None:
            assert two.rollout.loss == pytest.approx(one.rollout.loss, abs=1e-9)
            assert two.rollout.error == pytest.approx(one.rollout.error, abs=1e-9)
    marked = sum(bool(review.mark) for review in judged.moves)
    assert seen == [(done, marked) for done in range(1, marked + 1)]
    with pytest.raises(TavlaError, match="at least one process"):
        roll_out_marked(judged, record, lambda _: network, settings, processes=0)
