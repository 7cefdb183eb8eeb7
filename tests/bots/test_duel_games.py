"""Duels beyond cubeless dice games: money games with the cube between two players on
shared dice (``play_cube_game``, ``duel(cube=True)``; RULES.md 12: the cube doubles up
to 64, a double dropped ends the game for the cube's value before it), and games without
dice from shared openings (``board_duel``, Abluka)."""

from __future__ import annotations

from typing import Any

import pytest

from tavla.bots.abluka.baselines import random_opening
from tavla.bots.duel import MAX_CUBE, board_duel, duel, play_cube_game
from tavla.bots.players import RandomPlayer
from tavla.core.registry import find_game
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn

pytestmark = pytest.mark.timeout(60)


class Scripted:
    """A random mover that always (or never) doubles and always takes (or drops),
    writing down each cube decision it is asked for."""

    def __init__(self, name: str, *, doubles: bool, takes: bool) -> None:
        self.name = name
        self.doubles, self.takes = doubles, takes
        self.mover = RandomPlayer(seed=1)
        self.asked: list[tuple[str, int, int | None, int, bool]] = []
        self.positions: list[str] = []  # where each double was asked about

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        return self.mover.choose(position)

    def double(self, position: DiceGame[Any], cube: int, owner: int | None) -> bool:
        assert position.is_chance and position.dice is None  # before the roll
        self.asked.append(("double", cube, owner, position.side, position.is_chance))
        self.positions.append(position.notation())
        return self.doubles

    def take(self, position: DiceGame[Any], cube: int, owner: int | None) -> bool:
        self.asked.append(("take", cube, owner, position.side, position.is_chance))
        return self.takes


def test_a_double_dropped_ends_the_game_for_the_cube_before_it() -> None:
    doubler = Scripted("doubler", doubles=True, takes=True)
    dropper = Scripted("dropper", doubles=False, takes=False)
    for seed in range(20):
        for seat in (0, 1):
            players = (doubler, dropper) if seat == 0 else (dropper, doubler)
            assert play_cube_game("tabla", players, seed) == (seat, 1)
            # The doubler asked on its own roll, the cube in the middle; the dropper asked
            # once, as the side to act, about that cube.
            assert doubler.asked[-1] == ("double", 1, None, seat, True)
            assert dropper.asked[-1] == ("take", 1, None, 1 - seat, True)


def test_nobody_doubles_before_the_game_s_first_roll_and_the_cube_stops_at_64() -> None:
    white = Scripted("white", doubles=True, takes=True)
    black = Scripted("black", doubles=True, takes=True)
    for seed in range(5):
        ended = play_cube_game("tapa", (white, black), seed)
        assert ended is not None
        winner, points = ended
        assert winner is None or points % MAX_CUBE == 0  # both always take: the cube reaches 64
    start = find_game("tapa").start()
    assert not {start.with_side(0).notation(), start.with_side(1).notation()} & {
        *white.positions,
        *black.positions,
    }
    offers = [entry for entry in white.asked + black.asked if entry[0] == "double"]
    assert max(cube for _, cube, _, _, _ in offers) == MAX_CUBE // 2  # never offered at 64
    # Each double is offered by the side that may: the cube in the middle or its own.
    assert all(owner is None or owner == side for _, _, owner, side, _ in offers)


def test_with_the_cube_a_duel_needs_players_that_double_and_take() -> None:
    with pytest.raises(TypeError, match="players that double and take"):
        duel("tabla", RandomPlayer(seed=1), RandomPlayer(seed=2), range(1), cube=True)
    both = Scripted("a", doubles=True, takes=False), Scripted("b", doubles=True, takes=False)
    result = duel("tabla", *both, range(10), cube=True)
    # Whoever rolls second after the opening doubles and the other drops: one point each game.
    assert result.games == 20 and result.squares == 20 and result.wins + result.losses == 20


class FirstTurn:
    """Plays the first legal turn: the same game every time from the same position."""

    name = "first turn"

    def play(self, position: Any) -> Any:
        return position.legal_turns()[0].after


def test_a_board_duel_gives_each_player_each_side_of_every_opening() -> None:
    """One deterministic player on both sides plays the same game from an opening twice:
    the same side wins both, so each seat of the duel wins once, whatever the opening."""
    openings = [random_opening(seed) for seed in range(6)]
    result = board_duel(FirstTurn(), FirstTurn(), openings)
    assert (result.games, result.wins, result.losses, result.points, result.unfinished) == (12, 6, 6, 0, 0)
    # The opening's side to act is the first player's in the first game of each pair.
    seen: list[int] = []

    class Watching(FirstTurn):
        def play(self, position: Any) -> Any:
            seen.append(position.side)
            return super().play(position)

    board_duel(Watching(), FirstTurn(), openings[:1])
    first_game_side = openings[0].side
    assert seen[0] == first_game_side and 1 - first_game_side in seen


def test_a_void_game_is_won_by_neither_and_an_unfinished_one_is_counted_apart() -> None:
    from tavla.bots.duel import _tally

    games = [((None, 1), 0), ((0, 2), 0), ((0, 1), 1), (None, 1), ((1, 3), 1)]
    result = _tally(games, None)
    assert (result.games, result.wins, result.losses, result.unfinished) == (5, 2, 1, 1)
    assert (result.points, result.squares) == (2 - 1 + 3, 4 + 1 + 9)
