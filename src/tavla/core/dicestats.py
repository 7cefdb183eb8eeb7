"""How a player's dice compare with fair dice: doubles, faces, and a chi-square test.

For profiles: players who doubt the dice can see how their rolls compare with
chance. Leave the opening rolls out of the rolls given: they are never doubles
(equal dice are rolled again), so they would pull the doubles below 1/6. Each of
their dice is still a fair die, so their faces may be counted on their own.

The p-value is computed here rather than with scipy, which the library does not
depend on: for the chi-square distribution with k degrees of freedom the upper tail
is the regularized upper incomplete gamma Q(k/2, x/2), which has a short closed
form when k/2 is a whole or half number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from tavla.core.dice import Roll

FACES = 6
FACE_DOF = FACES - 1
DOUBLE_CHANCE = 1 / FACES


def chi_square_p_value(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square with ``dof`` degrees of freedom (dof >= 1).

    Q(s, x) with s = dof/2, x = statistic/2: for whole s, e^-x times the first s terms
    of e^x's series; for half s, erfc(sqrt x) plus the terms x^(j+1/2) e^-x / Gamma(j+3/2).
    """
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    if statistic <= 0:
        return 1.0
    x = statistic / 2
    if dof % 2 == 0:
        term = total = math.exp(-x)
        for n in range(1, dof // 2):
            term *= x / n
            total += term
    else:
        total = math.erfc(math.sqrt(x))
        term = math.exp(-x) * math.sqrt(x) / math.gamma(1.5)
        for j in range(dof // 2):
            total += term
            term *= x / (j + 1.5)
    return min(1.0, total)


def chi_square(observed: Iterable[int], expected: Iterable[float]) -> float:
    """Pearson's statistic, the sum of (observed - expected)^2 / expected."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)


@dataclass(frozen=True)
class DiceStats:
    """``rolls`` rolls: doubles and faces observed, what fair dice lead one to expect,
    and how likely fair dice are to stray at least this far (the p-values)."""

    rolls: int
    doubles: int
    faces: tuple[int, ...]
    """How often each face 1-6 showed, every die counted (index 0 is face 1)."""
    chi_square: float
    p_value: float
    """Of the face counts, 5 degrees of freedom; 1.0 with no rolls."""
    doubles_chi_square: float
    doubles_p_value: float
    """Of doubles against other rolls, 1 degree of freedom."""

    @property
    def dice(self) -> int:
        return 2 * self.rolls

    @property
    def expected_doubles(self) -> float:
        return self.rolls * DOUBLE_CHANCE

    @property
    def expected_per_face(self) -> float:
        return self.dice / FACES

    @property
    def face_shares(self) -> tuple[float, ...]:
        """Each face's share of the dice (1/6 expected); zeros with no rolls."""
        return tuple(count / self.dice if self.dice else 0.0 for count in self.faces)


def dice_stats(rolls: Iterable[Roll]) -> DiceStats:
    """The statistics of ``rolls`` (pairs of dice 1-6); ValueError for a die outside 1-6."""
    faces = [0] * FACES
    count = doubles = 0
    for first, second in rolls:
        for die in (first, second):
            if not 1 <= die <= FACES:
                raise ValueError(f"a die is 1-6, not {die}")
            faces[die - 1] += 1
        count += 1
        doubles += first == second
    per_face = 2 * count / FACES
    statistic = chi_square(faces, [per_face] * FACES)
    expected_doubles = count * DOUBLE_CHANCE
    doubles_statistic = chi_square((doubles, count - doubles), (expected_doubles, count - expected_doubles))
    return DiceStats(
        rolls=count,
        doubles=doubles,
        faces=tuple(faces),
        chi_square=statistic,
        p_value=chi_square_p_value(statistic, FACE_DOF),
        doubles_chi_square=doubles_statistic,
        doubles_p_value=chi_square_p_value(doubles_statistic, 1),
    )
