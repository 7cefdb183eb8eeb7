"""What a cube decision depends on besides the chances: the cube, money or match.

Everything is seen from the player on roll (the one who may double), as the chances
are. Money play counts points; match play counts the chance of winning the match
through the match equity table (tavla.bots.met). The rules are those of RULES.md
9.2 (the cube stops at 64; beavers, raccoons and Jacoby in money play only) and 9.3
(no double in the Crawford game).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tavla.bots.met import MatchEquityTable, kazaross_xg2
from tavla.core.words import Word

CUBE_CAP = 64
"""RULES.md 9.2: nobody may double when the cube shows 64."""
MONEY_CUBE_LIFE = 0.68
"""Janowski's cube-life index ``x`` for a typical middle game: GNU Backgammon's default."""


class CubeOwner(Word):
    """Who holds the cube, seen from the player on roll."""

    CENTRED = "centred"
    ME = "me"
    OPPONENT = "opponent"


@dataclass(frozen=True)
class CubePosition:
    """The cube's value (1, 2, 4 ... 64) and its owner."""

    value: int = 1
    owner: CubeOwner = CubeOwner.CENTRED

    def __post_init__(self) -> None:
        if self.value < 1 or self.value > CUBE_CAP or self.value & (self.value - 1):
            raise ValueError(f"cube value {self.value}: expected a power of 2 from 1 to {CUBE_CAP}")
        if self.owner == CubeOwner.CENTRED and self.value != 1:
            raise ValueError(f"a turned cube ({self.value}) has an owner")


@dataclass(frozen=True)
class Money:
    """A game for money and its options (RULES.md 9.2)."""

    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False

    def __post_init__(self) -> None:
        if self.raccoons and not self.beavers:
            raise ValueError("raccoons need beavers (RULES.md 9.2)")


@dataclass(frozen=True)
class MatchScore:
    """A match: the points each player still needs (``away``: the player on roll).

    ``crawford_game``: this game is the Crawford game, nobody may double (RULES.md 9.3);
    ``post_crawford``: the Crawford game has been played. Either needs a 1-away side.
    """

    away: int
    opp_away: int
    crawford_game: bool = False
    post_crawford: bool = False
    table: MatchEquityTable = field(default_factory=kazaross_xg2, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.away < 1 or self.opp_away < 1:
            raise ValueError(f"a match in play needs points on both sides: {self.away}, {self.opp_away}")
        if self.crawford_game and self.post_crawford:
            raise ValueError("a game is the Crawford game or after it, not both")
        if (self.crawford_game or self.post_crawford) and 1 not in (self.away, self.opp_away):
            raise ValueError(f"{self.away}-away, {self.opp_away}-away: the Crawford rule needs a 1-away side")

    def equity(self, points: int) -> float:
        """The chance to win the match once this game scores ``points`` for the player
        on roll (negative: for the opponent). After the Crawford game, or any game
        that follows it, the post-Crawford table applies."""
        after = self.crawford_game or self.post_crawford
        if points >= 0:
            return self.table.equity(self.away - points, self.opp_away, post_crawford=after)
        return self.table.equity(self.away, self.opp_away + points, post_crawford=after)


@dataclass(frozen=True)
class CubeContext:
    """A cube decision's circumstances; ``cube_life`` is Janowski's ``x`` (0: dead
    cube, the cube has no value after it is turned; 1: fully live, a player can always
    double exactly at his opponent's take point)."""

    cube: CubePosition = field(default_factory=CubePosition)
    play: Money | MatchScore = field(default_factory=Money)
    cube_life: float = MONEY_CUBE_LIFE

    def __post_init__(self) -> None:
        if not 0.0 <= self.cube_life <= 1.0:
            raise ValueError(f"cube life {self.cube_life}: expected 0 to 1")
        if not self.doubling_allowed and self.cube.value != 1:
            raise ValueError(f"the cube is at {self.cube.value} in the Crawford game, where nobody doubles")

    @property
    def money(self) -> bool:
        return isinstance(self.play, Money)

    def payoff(self) -> Callable[[int], float]:
        """The value of scoring ``points`` in this game (negative: conceding them),
        in points for money play, in match winning chance for a match."""
        play = self.play
        if isinstance(play, MatchScore):
            return play.equity
        return _points

    @property
    def doubling_allowed(self) -> bool:
        """Whether anyone may double in this game at all (RULES.md 9.3)."""
        return not (isinstance(self.play, MatchScore) and self.play.crawford_game)

    @property
    def jacoby(self) -> bool:
        return isinstance(self.play, Money) and self.play.jacoby

    @property
    def beavers(self) -> bool:
        return isinstance(self.play, Money) and self.play.beavers

    @property
    def raccoons(self) -> bool:
        return isinstance(self.play, Money) and self.play.raccoons


def _points(points: int) -> float:
    return float(points)
