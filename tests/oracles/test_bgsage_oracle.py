"""bgsage as a reference tabla player (RULES.md 2), through
:class:`tavla.oracles.bgsage.BgsagePlayer`: our boards in its layout, its plays mapped
back to our legal turns."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from tests.dice_positions import dice_start

import tavla
from tavla.bots.baselines import baseline_player
from tavla.bots.duel import duel
from tavla.oracles.bgsage import BgsageError, BgsagePlayer, bgsage_available, bgsage_board, board_after
from tavla.rules.backgammon import BackgammonPosition

pytestmark = pytest.mark.skipif(not bgsage_available(), reason="bgsage is not installed")
START = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w"


def tabla(text: str) -> BackgammonPosition:
    position = tavla.from_notation(text)
    assert isinstance(position, BackgammonPosition)
    return position


def random_positions(count: int, seed: int) -> Iterator[BackgammonPosition]:
    """Rolled positions of random tabla games, both sides to move, hits and bars included."""
    rng = random.Random(seed)
    position = tavla.new_game("tabla").position
    while count:
        if position.outcome() is not None:
            position = tavla.new_game("tabla").position
        if position.is_chance:
            position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
        assert isinstance(position, BackgammonPosition)
        yield position
        count -= 1
        position = rng.choice(position.legal_turns()).after


def test_the_start_in_bgsage_layout() -> None:
    white = bgsage_board(tabla(START + " 31"))
    assert white == (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)
    black = bgsage_board(tabla(START.replace(" w", " b") + " 31"))
    assert black == white  # the start is the same for both sides


def test_our_turns_reach_the_boards_bgsage_lists() -> None:
    """Every legal turn's result, seen by its mover, is one of bgsage's candidates and
    the reverse: the mapping that lets its choice be found among our turns."""
    from bgsage import possible_moves

    checked_bars = 0
    for position in random_positions(300, seed=3):
        assert position.dice is not None
        theirs = {tuple(board) for board in possible_moves(list(bgsage_board(position)), *position.dice)}
        ours = {board_after(turn) for turn in position.legal_turns()}
        assert ours == (theirs or {bgsage_board(position)}), position.notation()
        checked_bars += any(position.bar)
    assert checked_bars > 10  # positions with checkers on the bar were among them


def test_bgsage_plays_its_own_first_choice_as_a_legal_turn() -> None:
    from bgsage import BgBotAnalyzer

    analyzer = BgBotAnalyzer(eval_level="1ply", cubeful=False, parallel_threads=1)
    player = BgsagePlayer(0)
    choices = 0
    for position in random_positions(400, seed=8):
        assert position.dice is not None
        turn = player.choose(position)
        assert turn in position.legal_turns()
        if len(position.legal_turns()) > 1:
            best = analyzer.checker_play(list(bgsage_board(position)), *sorted(position.dice, reverse=True))
            assert board_after(turn) == tuple(best.moves[0].board)
            choices += len(position.legal_turns()) == 2
    assert choices > 5  # a choice of two turns is made too, not only the many-turn ones


def test_bgsage_plays_the_known_opening_move() -> None:
    assert BgsagePlayer(0).choose(tabla(START + " 31")).text == "8/5 6/5"


def test_bgsage_outplays_random_play() -> None:
    """Mapped the wrong way round it would play its worst turns; it wins as a strong player does."""
    result = duel("tabla", BgsagePlayer(0), baseline_player("random", "tabla", seed=1), range(15))
    assert result.wins >= 28 and result.ppg > 1.5


def test_other_games_and_unrolled_positions_are_refused() -> None:
    player = BgsagePlayer(0)
    with pytest.raises(BgsageError, match="dice must be rolled"):
        player.choose(tabla(START + " -"))
    chelebi = dice_start("chelebi").with_side(0).with_roll((3, 1))
    with pytest.raises(BgsageError, match="tabla only"):
        player.choose(chelebi)
