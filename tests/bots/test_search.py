"""The dice games' lookahead search (tavla.bots.search) against exact values.

In a small tabla bear-off (RULES.md 1.3 and 2: no contact, two checkers a side) the
chance that the side to roll wins is computed exactly by recursion over the rules'
own legal turns. An estimator that knows those exact values makes every ply agree
with them (expectimax over exact values is exact), and an estimator that is wrong
somewhere is corrected by lookahead where the lookahead reaches past the error.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from tests.bots.exact_bearoff import ExactBearOff, FeatureSum, bear_off, every_position, win_chance
from tests.dice_positions import dice_position, dice_start

import tavla
from tavla.bots.encoding import encoder_for
from tavla.bots.network import Network
from tavla.bots.outcomes import equity as equities
from tavla.bots.outcomes import flip as flipped
from tavla.bots.outcomes import outcome_estimate
from tavla.bots.search import DiceSearch, SearchSettings
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn


@pytest.fixture(scope="module")
def exact() -> ExactBearOff:
    return ExactBearOff(every_position())


@pytest.mark.parametrize("plies", [0, 1, 2])
@pytest.mark.parametrize(
    ("white", "black", "roll"), [((6, 5), (6, 1), (2, 1)), ((6, 3), (2, 2), (4, 1)), ((5, 4), (6, 6), (3, 1))]
)
def test_every_ply_agrees_with_exact_values(
    exact: ExactBearOff, plies: int, white: tuple[int, ...], black: tuple[int, ...], roll: tuple[int, int]
) -> None:
    position = bear_off(white, black).with_roll(roll)
    choice = DiceSearch(exact, SearchSettings(plies=plies, keep=(99,), margin=(9.0,))).choose(position)
    best = max(
        1.0 if turn.after.outcome() is not None else 1.0 - win_chance(turn.after.notation())
        for turn in position.legal_turns()
    )
    assert choice.plies == plies
    assert choice.estimate[0] == pytest.approx(best)
    assert choice.equity == pytest.approx(2 * best - 1)


def test_lookahead_corrects_a_wrong_estimate() -> None:
    """The estimator overrates one result of 2-1 (White 6,5 against 6,1); 0-ply
    falls for it, 1-ply looks past it to exact values and plays the right turn."""
    position = bear_off((6, 5), (6, 1)).with_roll((2, 1))
    turns = position.legal_turns()
    values = {t.text: 1 - win_chance(t.after.notation()) for t in turns}
    worst = min(values, key=lambda text: values[text])
    right = max(values, key=lambda text: values[text])
    assert values[right] > values[worst]
    lure = next(t for t in turns if t.text == worst).after.notation()
    fooled = ExactBearOff(every_position(), wrong={lure: 0.99})
    assert DiceSearch(fooled, SearchSettings(plies=0)).choose(position).turn.text == worst
    deeper = DiceSearch(fooled, SearchSettings(plies=1, keep=(99,), margin=(9.0,))).choose(position)
    assert deeper.turn.text == right
    assert deeper.plies == 1


def test_filters_search_only_the_best_turns_deeper(exact: ExactBearOff) -> None:
    position = bear_off((6, 5), (6, 1)).with_roll((2, 1))
    assert len(position.legal_turns()) > 1
    narrow = DiceSearch(exact, SearchSettings(plies=1, keep=(1,)))
    wide = DiceSearch(exact, SearchSettings(plies=1, keep=(99,), margin=(9.0,)))
    narrow.choose(position)
    wide.choose(position)
    # one turn kept: the search stops at 0-ply, no position estimated past the root
    assert narrow.positions == len(position.legal_turns())
    assert wide.positions > narrow.positions


def test_out_of_time_answers_with_the_last_complete_ply(exact: ExactBearOff) -> None:
    position = bear_off((6, 5), (6, 1)).with_roll((2, 1))
    choice = DiceSearch(exact, SearchSettings(plies=2, keep=(99,), margin=(9.0,))).choose(
        position, movetime_ms=0
    )
    assert choice.plies == 0
    assert choice.turn.text in {turn.text for turn in position.legal_turns()}


def test_noise_changes_choices_only_by_its_size(exact: ExactBearOff) -> None:
    position = bear_off((6, 3), (6, 6)).with_roll((4, 1))
    calm = {
        DiceSearch(exact, SearchSettings(noise=0.0), seed=s).choose(position).turn.text for s in range(20)
    }
    wild = {
        DiceSearch(exact, SearchSettings(noise=5.0), seed=s).choose(position).turn.text for s in range(40)
    }
    assert len(calm) == 1
    assert len(wild) > 1


def test_outcome_and_flip_conventions() -> None:
    gammon = Outcome(WHITE, 2, OutcomeReason.GAMMON)
    assert list(outcome_estimate(gammon, WHITE)) == [1, 1, 0, 0, 0]
    assert list(outcome_estimate(gammon, BLACK)) == [0, 0, 0, 1, 0]
    assert equities(outcome_estimate(gammon, BLACK)[None])[0] == -2
    void = Outcome(None, 0, OutcomeReason.VOID)
    assert equities(outcome_estimate(void, WHITE)[None])[0] == 0
    row = np.array([[0.6, 0.2, 0.05, 0.1, 0.01]])
    assert equities(flipped(row))[0] == pytest.approx(-equities(row)[0])
    assert list(flipped(flipped(row))[0]) == list(row[0])


def test_the_search_refuses_a_finished_game(exact: ExactBearOff) -> None:
    finished = dice_position("tabla -/-/-/-/-/1b/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- 0,0 15,14 b -")
    with pytest.raises(tavla.TavlaError, match="game is over"):
        DiceSearch(exact, SearchSettings()).choose(finished)


@pytest.mark.parametrize("game", ["tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka"])
def test_one_ply_plays_legal_turns_in_every_dice_game(game: str) -> None:
    """Seeded games to the end at 1-ply: each chosen turn is one of the rules' legal
    turns (RULES.md 1.3), whoever acts next (gulbara's completions, RULES.md 6.3)."""
    rng = random.Random(11)
    position = dice_start(game).with_side(rng.randrange(2))
    search = DiceSearch(FeatureSum(encoder_for(position).size), SearchSettings(plies=1, keep=(2,)))
    for _ in range(8):
        if position.outcome() is not None:
            break
        if position.is_chance:
            position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
            continue
        choice = search.choose(position)
        listed = position.legal_turns_within(5000)
        if listed is not None:
            assert choice.turn.after.notation() in {turn.after.notation() for turn in listed}
        position = choice.turn.after


def _one_ply_by_hand(
    network: Network, position: DiceGame[Any], player: int, policy: Network | None = None
) -> np.ndarray:
    """The 1-ply estimate written out plainly: every roll, the rules' legal turns, the
    reply the network (or ``policy``) rates best, its estimate by the network turned
    to ``player``'s side and weighted."""
    outcome = position.outcome()
    if outcome is not None:
        return outcome_estimate(outcome, player)
    total = np.zeros(5)
    for roll, weight in position.chance_outcomes():
        decision = position.with_roll(roll)
        afters = [turn.after for turn in decision.legal_turns()]
        rows = encoder_for(decision).encode_many(afters, decision.side)
        estimates = network.evaluate(rows)
        ranking = estimates if policy is None else policy.evaluate(rows)
        best = estimates[int(np.argmax(equities(ranking)))]
        total += float(weight) * (best if decision.side == player else flipped(best))
    return total


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game", ["tabla", "tapa"])
def test_a_batch_of_lookaheads_equals_each_written_out(game: str) -> None:
    """Many positions' replies are estimated in one product (``position_estimates``):
    no row may land in another position's mean, whoever each estimate is for."""
    network = Network.shipped(game)
    search = DiceSearch(network, SearchSettings())
    rng = random.Random(5)
    positions: list[DiceGame[Any]] = []
    position: DiceGame[Any] = dice_start(game).with_side(0)
    while len(positions) < 12:
        if position.outcome() is not None:
            positions.append(position)  # a finished game is its own result
            position = dice_start(game).with_side(rng.randrange(2))
        elif position.is_chance:
            if rng.random() < 0.2:
                positions.append(position)
            position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
        else:
            position = search.choose(position).turn.after
    players = [rng.randrange(2) for _ in positions]
    batched = search.position_estimates(positions, players, 1)
    for row, position, player in zip(batched, positions, players, strict=True):
        assert np.allclose(row, _one_ply_by_hand(network, position, player), atol=1e-9)
    decisions = [p.with_roll((3, 1)) for p in positions if p.outcome() is None]
    for (found, estimate), decision in zip(search.expand_many(decisions), decisions, strict=True):
        alone, alone_estimate = search.expand(decision, root=False)
        assert found.texts == alone.texts
        assert np.allclose(estimate, alone_estimate, atol=1e-12)


def _decisions_of(
    game: str, choose: Callable[[DiceGame[Any]], DiceTurn[Any]], *, seed: int, side: int, turns: int
) -> Iterator[DiceGame[Any]]:
    """The rolled positions of a seeded game that ``choose`` plays for both sides."""
    rng = random.Random(seed)
    position: DiceGame[Any] = dice_start(game).with_side(side)
    for _ in range(turns):
        if position.outcome() is not None:
            return
        if position.is_chance:
            position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
            continue
        yield position
        position = choose(position).after


@pytest.mark.timeout(120)
def test_a_level_plays_over_the_network_it_is_given() -> None:
    """``LevelPlayer(..., network=N)`` (the strength benchmark's ``--weights`` for the
    levels) searches N, not the shipped weights: its choices are N's own at 0-ply."""
    from tavla.bots.levels import LevelPlayer
    from tavla.bots.players import network_player

    other = Network.create("tapa", seed=7)
    given = LevelPlayer("tapa", "medium", network=other)
    shipped = LevelPlayer("tapa", "medium")
    differ = 0
    for position in _decisions_of("tapa", given.choose, seed=3, side=0, turns=40):
        mine = given.choose(position)
        assert mine.text == network_player(other).choose(position).text
        differ += mine.text != shipped.choose(position).text
    assert differ > 0


def test_a_policy_chooses_and_the_evaluator_values_at_0_ply() -> None:
    """With ``policy`` the turn played at 0-ply is the policy's best, and the estimate
    reported for it is the evaluator's, not the policy's."""
    position = bear_off((6, 5), (6, 1)).with_roll((2, 1))
    turns = position.legal_turns()
    values = {t.text: 1 - win_chance(t.after.notation()) for t in turns}
    worst = min(values, key=lambda text: values[text])
    lure = next(t for t in turns if t.text == worst).after.notation()
    exact = ExactBearOff(every_position())
    fooled = ExactBearOff(every_position(), wrong={lure: 0.99})
    choice = DiceSearch(exact, SearchSettings(plies=0), policy=fooled).choose(position)
    assert choice.turn.text == worst
    assert choice.estimate[0] == pytest.approx(values[worst])
    alone = DiceSearch(exact, SearchSettings(plies=0)).choose(position)
    assert alone.turn.text != worst


@pytest.mark.timeout(240)
def test_a_policy_chooses_the_replies_of_a_lookahead() -> None:
    """At 1 ply each reply is the one the policy rates best, estimated by the
    evaluator; a policy equal to the evaluator changes nothing."""
    network = Network.shipped("tapa")
    policy = Network.create("tapa", seed=7)
    plain = DiceSearch(network, SearchSettings())
    played = _decisions_of("tapa", lambda here: plain.choose(here).turn, seed=8, side=0, turns=24)
    positions = [plain.choose(decision).turn.after for decision in played][::3][:4]  # awaiting a roll
    players = [index % 2 for index in range(len(positions))]
    split = DiceSearch(network, SearchSettings(), policy=policy).position_estimates(positions, players, 1)
    same = DiceSearch(network, SearchSettings(), policy=network).position_estimates(positions, players, 1)
    alone = plain.position_estimates(positions, players, 1)
    assert np.allclose(same, alone, atol=1e-12)
    for row, position, player in zip(split, positions, players, strict=True):
        assert np.allclose(row, _one_ply_by_hand(network, position, player, policy), atol=1e-9)
    assert not np.allclose(split, alone, atol=1e-3)


@pytest.mark.timeout(120)
def test_tapas_levels_without_lookahead_choose_with_its_policy() -> None:
    """Tapa's 0-ply levels play the shipped policy's choice and report the shipped
    network's estimate of it; its lookahead levels and the other games search the
    shipped network alone (docs/bots.md, "Distilling the lookahead")."""
    from tavla.bots.levels import level_search
    from tavla.bots.players import network_player

    policy = Network.shipped_policy("tapa")
    network = Network.shipped("tapa")
    assert policy is not None
    assert level_search("tapa", "hard").policy is None
    assert level_search("tapa", "max").policy is None
    assert level_search("tabla", "medium").policy is None
    medium = level_search("tapa", "medium")
    assert level_search("tapa", "beginner").policy is not None
    differ = 0
    for position in _decisions_of("tapa", lambda here: medium.choose(here).turn, seed=12, side=1, turns=60):
        choice = medium.choose(position)
        assert choice.turn.text == network_player(policy).choose(position).text
        assert np.allclose(choice.estimate, network.chances(choice.turn.after, position.side))
        differ += choice.turn.text != network_player(network).choose(position).text
    assert differ > 0


@pytest.mark.timeout(180)
def test_a_policy_rates_the_beam_on_huge_doubles() -> None:
    """On a progressive double too many turns to list (chelebi, RULES.md 4), the beam
    keeps the turns the policy rates best: the search with a policy plays what the
    policy alone plays, whatever network values the turns."""
    from tests.bots.test_players import huge_doubles

    policy = Network.create("chelebi", hidden=8, seed=2)
    value = Network.create("chelebi", hidden=8, seed=9)
    settings = SearchSettings(root_width=8)
    differ = 0
    for position in huge_doubles("chelebi", seed=5, count=3):
        chosen = DiceSearch(value, settings, policy=policy).choose(position).turn.text
        assert chosen == DiceSearch(policy, settings).choose(position).turn.text
        differ += chosen != DiceSearch(value, settings).choose(position).turn.text
    assert differ > 0
