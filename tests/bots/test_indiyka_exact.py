"""Indiyka's exact winning chances, its player and its cube (RULES.md 7, 9.2)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import tavla
from tavla.bots.cube import CubeAction, CubeContext, cubeful_equity
from tavla.bots.indiyka_exact import (
    HORIZON,
    IndiykaRaces,
    best_turn,
    cube_decision,
    exact_chances,
    races,
    side_after,
    side_of,
    win_chance,
)
from tavla.bots.playout import random_playout
from tavla.core.dice import ROLLS
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.indiyka import IndiykaPosition
from tavla.rules.indiyka.movegen import indiyka_steps
from tavla.rules.turns import search_turns

START = IndiykaPosition.start()


def position(
    white: tuple[int, ...], black: tuple[int, ...], side: int = WHITE, dice: tuple[int, int] | None = None
) -> IndiykaPosition:
    """A position from each side: points 1-6 then the checkers still waiting."""
    points = [0] * 24
    for point in range(6):
        points[point] = white[point]
        points[23 - point] = -black[point]
    off = (15 - sum(white), 15 - sum(black))
    return IndiykaPosition(tuple(points), off, side, dice)


ENTERING = position((2, 2, 1, 2, 0, 2, 6), (2, 1, 2, 2, 2, 2, 4))
RACE = position((2, 0, 3, 1, 0, 2, 0), (1, 2, 0, 2, 3, 1, 0), side=BLACK)
LATE = position((0, 0, 0, 0, 1, 1, 0), (2, 2, 2, 2, 2, 3, 1))


def reachable_sides(count: int, seed: int) -> list[tuple[int, ...]]:
    """Sides met in seeded random games, both players', every phase."""
    rng = random.Random(seed)
    sides: set[tuple[int, ...]] = set()
    while len(sides) < count:
        random_playout(
            START.with_side(rng.randrange(2)),
            rng,
            on_turn=lambda before, after: sides.update({side_of(after, WHITE), side_of(after, BLACK)}),
        )
    return sorted(sides)[:count]


def test_side_after_plays_as_the_rules() -> None:
    """RULES.md 7 and 1.3: the DP's move of one side is the one legal turn's result,
    for every roll, against both the rules' turn search and the position's turns."""
    for side in reachable_sides(300, seed=5):
        board, waiting = side[:6], side[6]
        state = (15 - sum(board) - waiting, *board, waiting, 1 if waiting else 0)
        for (high, low), _ in ROLLS:
            sequences = [[high] * 4] if high == low else [[high, low], [low, high]]
            found = search_turns(state, sequences, indiyka_steps, prefer_first=high != low)
            (after,) = found.turns if found.dice_played else (state,)
            assert side_after(side, (high, low)) == (*after[1:7], after[7]), (side, high, low)
    for side in reachable_sides(40, seed=6):
        if any(side):
            for roll, _ in ROLLS:
                here = position(side, (2, 2, 2, 2, 2, 2, 3), dice=roll)
                (turn,) = here.legal_turns()
                assert side_of(turn.after, WHITE) == side_after(side, roll)


def test_horizon_leaves_nothing_out() -> None:
    """The distributions stop at HORIZON turns: even fifteen checkers on one point
    (the slowest removal) leave less than 1e-14 beyond it."""
    table = races()
    for point in range(6):
        slowest = (*(15 if i == point else 0 for i in range(6)), 0)
        assert table.unfinished(slowest) < 1e-14
    assert table.unfinished(side_of(START, WHITE)) < 1e-14
    expected = float(np.arange(HORIZON) @ table.turns_needed(side_of(START, WHITE)))
    assert 25 < expected < 35  # turns of one player to enter and remove fifteen


@pytest.mark.parametrize("here", [START, ENTERING, RACE, LATE])
def test_chances_agree_with_one_roll_ahead(here: IndiykaPosition) -> None:
    """The chance before rolling is the mean over the 21 rolls of the chance after
    playing them: the DP's turn order is the game's."""
    ahead = sum(float(chance) * win_chance(here._replace(dice=roll)) for roll, chance in ROLLS)
    assert win_chance(here) == pytest.approx(ahead, abs=1e-12)


def test_moving_first_is_an_advantage_and_both_sides_add_up() -> None:
    """With the same sides each, the player on roll wins more than half; a's chance on
    roll and b's on roll add to 1 + P(both need the same number of turns)."""
    assert 0.5 < win_chance(START) < 0.6
    table = races()
    a, b = side_of(RACE, WHITE), side_of(RACE, BLACK)
    tie = float(table.turns_needed(a) @ table.turns_needed(b))
    assert table.win_chance(a, b) + table.win_chance(b, a) == pytest.approx(1 + tie, abs=1e-12)


def test_finished_games() -> None:
    """RULES.md 7: the first to remove all fifteen wins."""
    won = position((0,) * 7, (1, 0, 0, 0, 0, 0, 0), side=BLACK)
    assert won.outcome() is not None
    assert win_chance(won) == 0.0
    last = position((0, 0, 0, 0, 0, 1, 0), (2, 2, 2, 2, 2, 2, 3), dice=(6, 1))
    assert win_chance(last) == 1.0


@pytest.mark.parametrize(("here", "games", "seed"), [(START, 600, 1), (RACE, 400, 2), (LATE, 300, 3)])
def test_monte_carlo_agrees_within_its_error(here: IndiykaPosition, games: int, seed: int) -> None:
    """Seeded random games played by the rules (tavla.bots.playout) win as often as the
    exact chance says, within 4 standard errors sqrt(p (1 - p) / games)."""
    exact = win_chance(here)
    rng = random.Random(seed)
    wins = 0
    for _ in range(games):
        wins += random_playout(here, rng).outcome.winner == here.side
    error = math.sqrt(exact * (1 - exact) / games)
    assert abs(wins / games - exact) <= 4 * error + 1 / games, (wins / games, exact)


@pytest.mark.slow
def test_monte_carlo_many_games_from_the_start() -> None:
    """The same with 4,000 games from the start: within 4 standard errors (about 0.03)."""
    exact = win_chance(START)
    rng = random.Random(7)
    games = 4000
    wins = sum(random_playout(START, rng).outcome.winner == START.side for _ in range(games))
    assert abs(wins / games - exact) <= 4 * math.sqrt(exact * (1 - exact) / games)


def test_best_turn_is_the_legal_turn() -> None:
    """RULES.md 7: the dice leave one turn; the player plays it."""
    for roll, _ in ROLLS:
        here = ENTERING._replace(dice=roll)
        (turn,) = here.legal_turns()
        assert best_turn(here).after == turn.after
    game = tavla.new_game("indiyka")
    rng = random.Random(3)
    while not game.is_over:
        if game.is_chance:
            game.roll(source=tavla.SeededDice(rng.random()))
        else:
            assert isinstance(game.position, IndiykaPosition)
            game.play(best_turn(game.position))
    assert game.outcome() is not None


def test_exact_chances_have_no_gammons_and_feed_the_cube() -> None:
    """RULES.md 7: indiyka wins 1 point, the cube as in tabla (RULES.md 9.2): the
    decision is the cube module's on the exact chances."""
    values = exact_chances(RACE)
    assert values[0] == win_chance(RACE) and not values[1:].any()
    context = CubeContext()
    decision = cube_decision(RACE, context)
    assert decision.no_double == pytest.approx(cubeful_equity(values, context))
    assert cube_decision(START, context).action == CubeAction.NO_DOUBLE
    assert cube_decision(LATE, context).action == CubeAction.DOUBLE_PASS
    with pytest.raises(ValueError, match="before rolling"):
        cube_decision(RACE._replace(dice=(3, 1)), context)


def test_the_figures_of_docs_cube_md() -> None:
    """docs/cube.md quotes the start's chance and the number of sides behind it."""
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "cube.md").read_text(encoding="utf-8")
    assert "the player on roll wins 52.615%" in page and "all 9,252 sides" in page
    assert round(100 * win_chance(START), 3) == 52.615
    fresh = IndiykaRaces()
    fresh.win_chance(side_of(START, WHITE), side_of(START, BLACK))
    assert len(fresh) == 9252


def test_agrees_with_a_game_tree_over_both_sides() -> None:
    """An independent solution for small races: the chance V(a, b) of the player on
    roll, by recursion over both sides at once. A roll that changes nothing hands the
    dice over, so V(a, b) and V(b, a) are solved together as two linear equations."""
    from functools import cache

    def progress(side: tuple[int, ...], other: tuple[int, ...]) -> tuple[float, float]:
        """(chance of rolls that change ``side``, what they give the roller)."""
        stay, gain = 0.0, 0.0
        for roll, chance in ROLLS:
            after = side_after(side, roll)
            if after == side:
                stay += float(chance)
            else:
                gain += float(chance) * (1.0 if not any(after) else 1.0 - value(other, after))
        return stay, gain

    @cache
    def value(a: tuple[int, ...], b: tuple[int, ...]) -> float:
        stay_a, gain_a = progress(a, b)
        stay_b, gain_b = progress(b, a)
        # x = gain_a + stay_a (1 - y), y = gain_b + stay_b (1 - x)
        return (gain_a + stay_a * (1 - gain_b - stay_b)) / (1 - stay_a * stay_b)

    sides = [(0, 1, 0, 2, 0, 1, 0), (1, 0, 0, 0, 2, 1, 0), (0, 0, 3, 0, 0, 0, 0), (2, 0, 0, 0, 0, 2, 0)]
    table = races()
    for a in sides:
        for b in sides:
            assert table.win_chance(a, b) == pytest.approx(value(a, b), abs=1e-12), (a, b)
