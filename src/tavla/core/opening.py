"""The opening roll (RULES.md 1.4), one implementation for games and matches.

Each player rolls one die; the higher starts and plays the two numbers rolled; equal
dice are rolled again. The dice are written White's die first.
"""

from __future__ import annotations

from fractions import Fraction

from tavla.core.dice import DiceSource, Roll, roll
from tavla.core.errors import NotationError, WrongPhaseError
from tavla.core.protocol import BLACK, WHITE, AnyPosition

#: White's die and Black's die, never equal, each pair equally likely.
OPENING_ROLLS: tuple[tuple[Roll, Fraction], ...] = tuple(
    ((white, black), Fraction(1, 30)) for white in range(1, 7) for black in range(1, 7) if white != black
)


def roll_opening(source: DiceSource) -> Roll:
    """White's die and Black's die from ``source``, rolled again while equal."""
    dice = roll(source)
    while dice[0] == dice[1]:
        dice = roll(source)
    return dice


def opening_starter(dice: Roll) -> int:
    """The player the opening ``dice`` (White's, Black's) let start. Dice that are
    not 1-6 are a NotationError naming them; equal dice are no opening: they are
    rolled again (WrongPhaseError)."""
    white, black = dice
    shown = f"{white}{black}"
    if not (1 <= white <= 6 and 1 <= black <= 6):
        raise NotationError("opening roll", shown, "expected two dice 1-6, White's first")
    if white == black:
        raise WrongPhaseError(f"opening roll {shown}: equal dice are rolled again")
    return WHITE if white > black else BLACK


def after_opening(position: AnyPosition, dice: Roll) -> AnyPosition:
    """The start ``position`` once the opening ``dice`` are rolled: the starter to
    play both numbers."""
    starter = opening_starter(dice)
    return position.with_side(starter).with_roll((max(dice), min(dice)))
