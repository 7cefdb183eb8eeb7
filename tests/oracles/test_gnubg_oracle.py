"""GNU Backgammon as an oracle of tabla (RULES.md 2): its estimates and its plays,
through :class:`tavla.oracles.gnubg.GnubgOracle`."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import tavla
from tavla.oracles.gnubg import GnubgError, GnubgOracle, gnubg_available
from tavla.rules.backgammon import BackgammonPosition

pytestmark = [
    pytest.mark.gnubg,
    pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed"),
]
START = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w"


def tabla(text: str) -> BackgammonPosition:
    position = tavla.from_notation(text)
    assert isinstance(position, BackgammonPosition)
    return position


@pytest.fixture(scope="module")
def gnubg() -> Iterator[GnubgOracle]:
    with GnubgOracle() as oracle:
        yield oracle


def test_the_start_is_about_even_for_the_side_to_act(gnubg: GnubgOracle) -> None:
    [row] = gnubg.estimate([tabla(START + " -")])
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = row
    assert 0.5 < win < 0.56  # the side to roll first has a small edge
    assert 0.1 < win_gammon < 0.2 and 0.1 < lose_gammon < 0.2
    assert win_backgammon <= win_gammon and lose_backgammon <= lose_gammon


def test_estimates_are_for_the_side_to_act_of_each_position(gnubg: GnubgOracle) -> None:
    """White has one checker left on his 1 point against Black's fifteen on Black's 6
    point: White to act wins at once. Black to act loses, and loses a gammon unless
    this roll bears a checker off: any 6, 5-1, 4-2, 3-3 or 2-2 (17 of 36 rolls)."""
    white_to_act = tabla("tabla 1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/- 0,0 14,0 w -")
    rows = gnubg.estimate([white_to_act, white_to_act.with_side(1)])
    assert rows[0][0] == pytest.approx(1.0)
    assert rows[1][0] == pytest.approx(0.0)
    assert rows[1][3] == pytest.approx(19 / 36, abs=1e-5)


def test_gnubg_plays_the_known_opening_move(gnubg: GnubgOracle) -> None:
    position = tabla(START + " 31")
    assert gnubg.best_turn(position).text == "8/5 6/5"
    assert gnubg.best_turn(position, plies=1).text == "8/5 6/5"


def test_gnubg_plays_only_legal_turns_of_random_positions(gnubg: GnubgOracle) -> None:
    game = tavla.new_game("tabla")
    position = game.position
    assert isinstance(position, BackgammonPosition)
    rng = random.Random(5)
    for _ in range(40):
        if position.outcome() is not None:
            break
        if position.is_chance:
            position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
        turn = gnubg.best_turn(position)
        assert turn in position.legal_turns()
        position = turn.after


def test_a_position_without_dice_is_refused(gnubg: GnubgOracle) -> None:
    with pytest.raises(GnubgError, match="dice must be rolled"):
        gnubg.best_turn(tabla(START + " -"))
