"""Games between two players on the same dice: strength benchmarks and training checks.

Each seed is played twice with the colours swapped: the seed fixes who starts
and every roll, so both players meet the same dice from the same seat and luck
largely cancels out. Results are counted for the first player.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from tavla.bots.players import Player
from tavla.core.protocol import Outcome
from tavla.core.registry import find_game
from tavla.rules.dicegame import DiceGame

MAX_TURNS = 5_000
"""Turns after which a game is left unfinished. Games of these rules take a few hundred
turns at most, but two antitabla players that both want to stay behind can hit each
other back and forth for ever: no rule ends such a game."""


def play_game(
    game: str,
    players: tuple[Player, Player],
    seed: int,
    *,
    watch: Callable[[DiceGame[Any], DiceGame[Any]], None] | None = None,
) -> Outcome | None:
    """One game: ``players[0]`` plays White, ``players[1]`` Black; dice and the first side
    from ``seed``. None for a game left unfinished after ``MAX_TURNS`` turns.

    ``watch(before, after)`` sees every turn played: the position with its dice and the
    one the turn left (benchmarks that count what happens in a game use it)."""
    dice = random.Random(seed)
    position: DiceGame[Any] = find_game(game).start().with_side(dice.randrange(2))  # type: ignore[assignment]
    for _ in range(MAX_TURNS):
        outcome = position.outcome()
        if outcome is not None:
            return outcome
        if position.is_chance:
            position = position.with_roll((dice.randint(1, 6), dice.randint(1, 6)))
        else:
            before, position = position, players[position.side].choose(position).after
            if watch is not None:
                watch(before, position)
    return None


Ended = tuple[int | None, int] | None
"""How a game ended: the winner (a colour; None for a void game) and the points won, or
None for a game left unfinished."""


MAX_CUBE = 64
"""The highest cube of a game with the cube (RULES.md): no double beyond it."""


@runtime_checkable
class CubePlayer(Player, Protocol):
    """A player that also handles the doubling cube of a money game (no Jacoby rule, no
    beavers): whether to double before its roll, whether to take a double."""

    def double(self, position: DiceGame[Any], cube: int, owner: int | None) -> bool:
        """Whether the side to act in ``position`` (dice not rolled) doubles ``cube``,
        held by ``owner`` (a colour, or None in the middle)."""
        ...

    def take(self, position: DiceGame[Any], cube: int, owner: int | None) -> bool:
        """Whether the side to act in ``position`` takes its opponent's double of ``cube``."""
        ...


def play_cube_game(game: str, players: tuple[CubePlayer, CubePlayer], seed: int) -> Ended:
    """One money game with the cube on the dice of ``seed`` (those of :func:`play_game`):
    the winner (a colour, None for a void game) and the points won, the cube's value
    included; None for a game left unfinished. Each player may double before any roll of
    his but the game's first, while he may use the cube and it is below ``MAX_CUBE``; a
    double dropped ends the game for the cube's value before it."""
    dice = random.Random(seed)
    position: DiceGame[Any] = find_game(game).start().with_side(dice.randrange(2))  # type: ignore[assignment]
    cube, owner, first_roll = 1, None, True
    for _ in range(MAX_TURNS):
        outcome = position.outcome()
        if outcome is not None:
            return outcome.winner, outcome.points * cube
        if not position.is_chance:
            position = players[position.side].choose(position).after
            continue
        side = position.side
        may_double = not first_roll and cube < MAX_CUBE and owner in (None, side)
        if may_double and players[side].double(position, cube, owner):
            if not players[1 - side].take(position.with_side(1 - side), cube, owner):
                return side, cube
            cube, owner = 2 * cube, 1 - side
        position, first_roll = position.with_roll((dice.randint(1, 6), dice.randint(1, 6))), False
    return None


@dataclass(frozen=True)
class DuelResult:
    games: int
    wins: int
    """Games the first player won (a void tapa game is no win for either side)."""
    points: int
    """Points won minus points lost by the first player."""
    squares: int
    """Sum of squared points per game, for the confidence interval."""
    unfinished: int = 0
    """Games left unfinished after ``MAX_TURNS`` turns: counted as games, with no points."""
    losses: int = 0
    """Games the second player won (the rest were void or unfinished)."""

    def __add__(self, other: DuelResult) -> DuelResult:
        """Both sets of games as one (several sets of dice reported together)."""
        return DuelResult(
            self.games + other.games,
            self.wins + other.wins,
            self.points + other.points,
            self.squares + other.squares,
            self.unfinished + other.unfinished,
            self.losses + other.losses,
        )

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ppg(self) -> float:
        """Points per game for the first player."""
        return self.points / self.games if self.games else 0.0

    @property
    def ppg_ci95(self) -> float:
        """Half-width of the 95% confidence interval of :attr:`ppg` (normal approximation)."""
        if self.games < 2:
            return math.inf
        variance = (self.squares - self.games * self.ppg**2) / (self.games - 1)
        return 1.96 * math.sqrt(max(variance, 0.0) / self.games)


def duel(
    game: str,
    first: Player,
    second: Player,
    seeds: Iterable[int],
    *,
    on_game: Callable[[], None] | None = None,
    cube: bool = False,
) -> DuelResult:
    """Play every seed twice, ``first`` as White then as Black; results for ``first``.
    With ``cube``, money games with the doubling cube (:func:`play_cube_game`: both
    players must be :class:`CubePlayer`); without, cubeless single games."""
    if cube and not (isinstance(first, CubePlayer) and isinstance(second, CubePlayer)):
        raise TypeError("games with the cube need players that double and take")

    def played() -> Iterator[tuple[Ended, int]]:
        for seed in seeds:
            for seat in (0, 1):
                players = (first, second) if seat == 0 else (second, first)
                if cube:
                    yield play_cube_game(game, players, seed), seat  # type: ignore[arg-type]  # checked above
                else:
                    outcome = play_game(game, players, seed)
                    yield (None if outcome is None else (outcome.winner, outcome.points)), seat

    return _tally(played(), on_game)


def _tally(games: Iterable[tuple[Ended, int]], on_game: Callable[[], None] | None) -> DuelResult:
    """The results, for the first player, of games each given with the colour he played."""
    count = wins = losses = points = squares = unfinished = 0
    for ended, mine in games:
        unfinished += ended is None
        winner, won = ended or (None, 0)
        score = 0 if winner is None else won if winner == mine else -won
        count += 1
        wins += score > 0
        losses += score < 0
        points += score
        squares += score * score
        if on_game is not None:
            on_game()
    return DuelResult(count, wins, points, squares, unfinished, losses)


class BoardPlayer(Protocol):
    """A player of a game without dice (Abluka): the position its turn leaves."""

    name: str

    def play(self, position: Any) -> Any:
        """The position after this player's turn in ``position`` (its side to act)."""
        ...


def board_duel(
    first: BoardPlayer,
    second: BoardPlayer,
    openings: Iterable[Any],
    *,
    on_game: Callable[[], None] | None = None,
) -> DuelResult:
    """Games of a game without dice from each of ``openings`` (positions), each twice:
    ``first`` playing the side to act in the opening, then the other side. Results for
    ``first``; a game longer than ``MAX_TURNS`` turns is left unfinished."""

    def played() -> Iterator[tuple[Ended, int]]:
        for opening in openings:
            for seat in (0, 1):
                mine = opening.side if seat == 0 else 1 - opening.side
                players = {mine: first, 1 - mine: second}
                position, outcome = opening, opening.outcome()
                for _ in range(MAX_TURNS):
                    if outcome is not None:
                        break
                    position = players[position.side].play(position)
                    outcome = position.outcome()
                yield (None if outcome is None else (outcome.winner, outcome.points)), mine

    return _tally(played(), on_game)
