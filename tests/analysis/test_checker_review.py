"""Reviews of checker play and dice luck (tavla.analysis) against exact values.

A tabla bear-off match record (RULES.md 9.4: continued from gnubg IDs) of two
checkers a side is reviewed by a bot that knows the exact winning chances
(tests/bots/test_search.py): the loss of each turn is the exact difference between
the best turn and the turn played, and each roll's luck is exact too.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from tests.bots.exact_bearoff import ExactBearOff, FeatureSum, bear_off, every_position, win_chance

from tavla.analysis.checker import MARKS, SHOWN_ALTERNATIVES, mark_of
from tavla.analysis.cube import CubeReview
from tavla.analysis.report import analyze, review_part
from tavla.bots.encoding import encoder_for
from tavla.bots.outcomes import equity
from tavla.bots.search import DiceSearch, SearchSettings
from tavla.core.dice import SeededDice
from tavla.match.match import Match
from tavla.match.players import RandomPlayer, play
from tavla.match.record import MatchRecord, replay
from tavla.match.settings import MatchSettings
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.backgammon.gnubg_id import to_gnubg_ids
from tavla.rules.dicegame import DiceGame
from tavla.rules.turns import TURN_LIST_LIMIT


@pytest.fixture(scope="module")
def exact() -> ExactBearOff:
    return ExactBearOff(every_position())


def bear_off_match(rolls: list[tuple[int, int]], choose_worst: bool) -> MatchRecord:
    """White (6,5) against Black (6,1), White to roll; each side plays its best turn
    by the exact values, except White plays his worst when ``choose_worst``."""
    pid, mid = to_gnubg_ids(bear_off((6, 5), (6, 1)))
    match = Match.from_ids(pid, mid)
    for dice in rolls:
        if match.state.result is not None:
            break
        match.roll(dice)
        position = match.state.position
        seat = match.state.actor
        assert seat is not None

        def value(turn: object) -> float:
            after = turn.after  # type: ignore[attr-defined]
            return 1.0 if after.outcome() is not None else 1 - win_chance(after.notation())

        turns = sorted(position.legal_turns(), key=value)
        match.move(seat, turns[0] if (choose_worst and seat == 0) else turns[-1])
    return MatchRecord.of(match)


@pytest.mark.parametrize("plies", [0, 1])
def test_a_deliberate_mistake_costs_exactly_its_equity(exact: ExactBearOff, plies: int) -> None:
    """Exact values stay exact a roll deeper: the loss is the same at either depth."""
    record = bear_off_match([(2, 1), (5, 4), (6, 6)], choose_worst=True)
    analysis = analyze(record, lambda game: exact, SearchSettings(plies=plies))
    first = analysis.moves[0]
    position_turns = {text: equity for text, equity in first.alternatives}
    assert first.seat == 0 and first.played != first.best
    assert first.best_equity == pytest.approx(max(position_turns.values()))
    # White 6,5 against 6,1 with 2-1: the exact chances after each turn (tests/bots)
    before = bear_off((6, 5), (6, 1)).with_roll((2, 1))
    exact_values = {t.text: 2 * (1 - win_chance(t.after.notation())) - 1 for t in before.legal_turns()}
    assert first.loss == pytest.approx(max(exact_values.values()) - exact_values[first.played])
    assert first.mark == mark_of(first.loss)
    assert analysis.players[0].decisions >= 1
    assert [(player.seat, player.name) for player in analysis.players] == [
        (0, record.settings.names[0]),
        (1, record.settings.names[1]),
    ]
    assert analysis.players[0].total_loss == pytest.approx(sum(m.loss for m in analysis.moves if m.seat == 0))


def test_best_play_loses_nothing(exact: ExactBearOff) -> None:
    record = bear_off_match([(2, 1), (5, 4), (6, 6), (3, 2)], choose_worst=False)
    analysis = analyze(record, lambda game: exact, SearchSettings(plies=1, keep=(99,), margin=(9.0,)))
    assert analysis.moves
    assert all(review.loss == pytest.approx(0, abs=1e-9) for review in analysis.moves)
    assert not [review for review in analysis.moves if review.mark]
    # Black, far ahead after White's roll, should have doubled: the cube review says so
    [marked] = analysis.marked()
    assert isinstance(marked, CubeReview)
    assert (marked.seat, marked.chosen, marked.mark) == (1, "no double", "error")
    assert all(review.plies in (0, 1) for review in analysis.moves)


def test_luck_is_the_roll_against_the_average_roll(exact: ExactBearOff) -> None:
    record = bear_off_match([(2, 1), (6, 6)], choose_worst=False)
    analysis = analyze(record, lambda game: exact, SearchSettings())
    first = analysis.lucks[0]
    before = bear_off((6, 5), (6, 1))

    def best(roll: tuple[int, int]) -> float:
        return max(
            1.0 if t.after.outcome() is not None else 1 - win_chance(t.after.notation())
            for t in before.with_roll(roll).legal_turns()
        )

    mean = sum(float(weight) * (2 * best(roll) - 1) for roll, weight in before.chance_outcomes())
    assert first.dice == (2, 1) and first.seat == 0
    assert first.luck == pytest.approx((2 * best((2, 1)) - 1) - mean)
    assert first.luck < 0  # 2-1 is about the worst roll here
    assert analysis.lucks[1].luck > 0  # and 6-6 for Black bears both checkers off
    assert [luck.game_number for luck in analysis.lucks] == [1, 1]
    # The same roll rolled low die first is the same luck.
    turned = analyze(
        bear_off_match([(1, 2), (6, 6)], choose_worst=False), lambda game: exact, SearchSettings()
    )
    assert turned.lucks[0].dice == (1, 2)
    assert turned.lucks[0].luck == pytest.approx(first.luck)


def test_marks_follow_the_thresholds() -> None:
    assert [mark_of(loss) for loss in (0.0, 0.039, 0.04, 0.08, 0.16, 1.2)] == [
        "",
        "",
        "doubtful",
        "error",
        "blunder",
        "blunder",
    ]
    assert [name for _, name in MARKS] == ["blunder", "error", "doubtful"]


def test_a_whole_random_game_is_reviewed_turn_by_turn() -> None:
    """Any estimator: every turn of a played game is reviewed, no loss is negative, a
    forced turn is never marked, and the progress reaches the end."""
    rng = random.Random(4)
    # Seeded dice: with the server's random dice, a game may hold no forced turn at all.
    match = Match(MatchSettings(game="tabla"), dice=SeededDice(4))
    while match.state.result is None:
        match.roll()
        seat = match.state.actor
        if match.state.phase == "move" and seat is not None:
            match.move(seat, rng.choice(list(match.state.position.legal_turns())))
        if len(match.actions) > 60:
            break
    record = MatchRecord.of(match)
    seen: list[tuple[int, int]] = []
    estimator = FeatureSum(198)
    analysis = analyze(record, lambda game: estimator, progress=lambda done, all_: seen.append((done, all_)))
    moves = [action for action in record.actions if action.kind == "move"]
    assert len(analysis.moves) == len(moves)
    assert all(review.loss >= 0 for review in analysis.moves)
    assert all(not review.mark for review in analysis.moves if review.forced)
    # A turn is forced where the rules leave one legal turn (RULES.md 2), and only there.
    single = [
        len(BackgammonPosition.from_notation(review.before).legal_turns()) == 1 for review in analysis.moves
    ]
    assert [review.forced for review in analysis.moves] == single and any(single) and not all(single)
    assert all(review.plies == 0 for review in analysis.moves if review.forced)
    assert {review.game_number for review in analysis.moves} == {1}
    assert analysis.players[0].decisions + analysis.players[1].decisions == single.count(False)
    reviewed = sorted(
        [review.action_index for review in analysis.moves] + [luck.action_index for luck in analysis.lucks]
    )
    assert seen == [(index + 1, len(record.actions)) for index in reviewed]


def random_tabla_record(seed: int, actions: int) -> MatchRecord:
    """A money game of random turns, cut after about ``actions`` actions."""
    rng = random.Random(seed)
    match = Match(MatchSettings(game="tabla"), dice=SeededDice(seed))
    while match.state.result is None and len(match.actions) <= actions:
        match.roll()
        seat = match.state.actor
        if match.state.phase == "move" and seat is not None:
            match.move(seat, rng.choice(list(match.state.position.legal_turns())))
    return MatchRecord.of(match)


@pytest.mark.timeout(120)
def test_one_roll_deeper_estimates_the_filtered_best_turns_and_the_turn_played() -> None:
    """At ``plies`` 1 the review looks one roll deeper at the turns its 0-ply filter keeps
    (at most ``keep_at(1)`` best, none more than ``margin_at(1)`` behind the best) and at
    the turn played, and ranks those alone by their deeper estimates."""
    record = random_tabla_record(seed=5, actions=1000)
    assert replay(record).result is not None  # the game's end, where a turn's estimate is its result
    estimator = FeatureSum(198)
    settings = SearchSettings(plies=1, keep=(4, 1), margin=(0.003, 0.5))
    search = DiceSearch(estimator, settings)
    opening = analyze(replace(record, actions=record.actions[:40]), lambda game: estimator, settings)
    end = review_part(
        record, lambda game: estimator, settings, range(len(record.actions) - 40, len(record.actions))
    )
    sizes = set()
    for review in opening.moves + end.moves:
        position = BackgammonPosition.from_notation(review.before)
        turns = {turn.text: turn.after for turn in position.legal_turns()}
        if review.forced:
            assert len(turns) == 1 and review.plies == 0
            continue
        rows = encoder_for(position).encode_many(list(turns.values()), position.side)
        at_0 = dict(zip(turns, equity(np.asarray(estimator.evaluate(rows))), strict=True))
        ranked = sorted(turns, key=lambda text: -at_0[text])[:4]
        chosen = [text for text in ranked if at_0[ranked[0]] - at_0[text] <= 0.003]
        chosen += [review.played] if review.played not in chosen else []
        deeper = search.turn_estimates([turns[text] for text in chosen], position.side, 1)
        at_1 = dict(zip(chosen, equity(deeper), strict=True))
        expected = sorted(chosen, key=lambda text: -at_1[text])
        assert [text for text, _ in review.alternatives] == expected[:SHOWN_ALTERNATIVES]
        assert [value for _, value in review.alternatives] == pytest.approx([at_1[t] for t in expected[:5]])
        assert review.best == expected[0]
        assert review.best_equity == pytest.approx(at_1[expected[0]])
        assert review.played_equity == pytest.approx(at_1[review.played])
        assert review.plies == 1
        sizes.add(len(chosen))
    assert len(sizes) >= 3  # the filter's margin and the turn played shape the list


def chelebi_record_with_a_huge_double() -> tuple[MatchRecord, int]:
    """A money game of chelebi (RULES.md 4) of random turns up to the first progressive
    double with too many turns to list (TURN_LIST_LIMIT positions after a die), played
    die by die at random, and that double's move action's index."""
    rng = random.Random(0)
    match = Match(MatchSettings(game="chelebi", length=0), dice=SeededDice(1))
    players = (RandomPlayer(rng, double_rate=0, resign_rate=0),) * 2
    while True:
        state, seat = match.state, match.state.actor
        if seat is None:
            match.roll()  # the opening roll
        elif state.phase == "move" and state.position.legal_turns_within(TURN_LIST_LIMIT) is None:
            builder = state.position.steps()
            while not builder.complete:
                builder.step(rng.choice(list(builder.legal_steps())))
            match.move(seat, builder.commit())
            return MatchRecord.of(match), len(match.actions) - 1
        else:
            play(match, players[seat].choose(state))


@pytest.mark.timeout(120)
def test_a_turn_played_outside_the_beam_of_a_huge_double_is_still_estimated() -> None:
    """A progressive double's turns are too many to list: the review rates a beam of the
    best, and the turn played, found nowhere in it, is estimated on its own."""
    record, index = chelebi_record_with_a_huge_double()
    position = record.settings.definition.start()
    estimator = FeatureSum(encoder_for(position).size)
    settings = SearchSettings(plies=0, root_width=8)
    # That turn alone: the luck of the rolls before it would search every huge double.
    [review] = review_part(record, lambda game: estimator, settings, range(index, index + 1)).moves
    assert review.action_index == index
    before = record.settings.definition.from_notation(review.before)
    assert isinstance(before, DiceGame)
    played = before.parse_turn(review.played)
    beam = DiceSearch(estimator, settings).expand(before)[0]
    assert not beam.complete and review.played not in [turn.text for turn in beam.turns]
    rows = encoder_for(before).encode_many([played.after], before.side)
    assert review.played_equity == pytest.approx(float(equity(np.asarray(estimator.evaluate(rows)))[0]))
    assert not review.forced and review.loss == pytest.approx(review.best_equity - review.played_equity)
    assert review.best in [turn.text for turn in beam.turns]
