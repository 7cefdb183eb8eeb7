"""Simple hand-written players, one per dice game: the baselines bots must beat.

Each heuristic rates rows of afterstate features (``docs/features.md``) for the
player who just moved, so a whole roll is rated at once, and plays through
:class:`~tavla.bots.players.ScoringPlayer`. They know a few ideas a beginner
is taught and nothing else (docs/bots.md lists them):

- tabla, chelebi: race lead, hitting, making points (home board first), leaving
  no blots within the opponent's reach; in a race, bearing off.
- antitabla: the same ideas turned round, since finishing first loses.
- tapa: pinning, the opponent's mother above all; not leaving lone checkers
  where they can be pinned; the race.
- gulbara: the race, and holding points just in front of the opponent's checkers.
- indiyka: more checkers entered and removed (its rolls rarely leave a choice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from tavla.bots.encoding.base import Features
from tavla.bots.players import RowScore, Scores, ScoringPlayer

Counts = npt.NDArray[np.float64]
POINTS = np.arange(1, 25, dtype=np.float64)
"""My points 1-24, as the features number them."""


def counts(units: npt.NDArray[Any]) -> Counts:
    """Checkers from TD-Gammon's four units (>=1, >=2, >=3, (n-3)/2), last axis."""
    u = units.astype(np.float64)
    return np.asarray(u[..., 0] + u[..., 1] + u[..., 2] + 2.0 * u[..., 3])


def _ahead(low: int, high: int) -> npt.NDArray[np.float64]:
    """``M[q, p]`` = 1 when my point p lies ``low``..``high`` pips beyond a checker of the
    opponent on my point q (tabla, tapa: he moves from my point 1 towards my 24)."""
    q, p = np.meshgrid(POINTS, POINTS, indexing="ij")
    return ((p - q >= low) & (p - q <= high)).astype(np.float64)


_DIRECT = _ahead(1, 6)
_INDIRECT = _ahead(7, 11)
_ENTRY = (POINTS <= 6).astype(np.float64)
"""My points a checker of his on the bar can hit on entering (his 25 - n = my n)."""
_HOME_WEIGHT = np.where(POINTS <= 7, 1.0, np.where(POINTS <= 11, 0.4, 0.1))
"""Points worth making: my home board and bar point most, the outfield a little."""


# ------------------------------------------------------------------ tabla family
def _tabla_board(rows: Features) -> tuple[Counts, Counts, Counts, Counts, Counts, Counts]:
    points = rows[:, :192].reshape(len(rows), 24, 8)
    mine, theirs = counts(points[:, :, :4]), counts(points[:, :, 4:])
    tail = rows[:, 192:196].astype(np.float64)
    return mine, theirs, tail[:, 0] * 2, tail[:, 1] * 2, tail[:, 2] * 15, tail[:, 3] * 15


def _shots(blots: Counts, theirs: Counts, their_bar: Counts) -> Counts:
    """A rough count of shots at my blots: direct ones (within 6) count full, indirect half."""
    direct = (theirs @ _DIRECT + their_bar[:, None] * _ENTRY) > 0
    indirect = (theirs @ _INDIRECT) > 0
    weight = direct + 0.4 * (indirect & ~direct)
    # A blot far advanced loses more pips when hit.
    return np.asarray((blots * weight * (0.5 + POINTS / 24)).sum(axis=1))


def _contact(mine: Counts, theirs: Counts, my_bar: Counts, their_bar: Counts) -> npt.NDArray[np.bool_]:
    """Whether the sides can still meet: my furthest checker behind his furthest one."""
    my_back = np.where(my_bar > 0, 25.0, ((mine > 0) * POINTS).max(axis=1))
    his_back = np.where(their_bar > 0, 0.0, np.where(theirs > 0, POINTS, 25.0).min(axis=1))
    return np.asarray(my_back > his_back)


def tabla_score(rows: Features) -> Scores:
    mine, theirs, my_bar, their_bar, my_off, _ = _tabla_board(rows)
    my_pips = mine @ POINTS + 25 * my_bar
    their_pips = theirs @ (25 - POINTS) + 25 * their_bar
    race = 0.04 * (their_pips - my_pips)
    blots = (mine == 1).astype(np.float64)
    made = (mine >= 2) @ _HOME_WEIGHT
    contact = 0.6 * their_bar + 0.3 * made - 0.5 * _shots(blots, theirs, their_bar) - 0.3 * my_bar
    # A race is won by pips alone: bear off, and keep checkers low while doing it.
    running = my_off - 0.01 * (mine @ POINTS)
    is_contact = _contact(mine, theirs, my_bar, their_bar)
    return np.asarray(race + np.where(is_contact, contact, running))


def antitabla_score(rows: Features) -> Scores:
    """Finishing first loses: stay behind, get hit, do not hit, do not bear off."""
    mine, theirs, my_bar, their_bar, my_off, _ = _tabla_board(rows)
    my_pips = mine @ POINTS + 25 * my_bar
    their_pips = theirs @ (25 - POINTS) + 25 * their_bar
    blots = (mine == 1).astype(np.float64)
    return np.asarray(
        0.04 * (my_pips - their_pips)
        + 0.3 * _shots(blots, theirs, their_bar)
        - 0.5 * my_off
        - 0.2 * (mine >= 2).sum(axis=1)
    )


# -------------------------------------------------------------------------- tapa
def tapa_score(rows: Features) -> Scores:
    points = rows[:, :240].reshape(len(rows), 24, 10).astype(np.float64)
    mine, theirs = counts(points[:, :, :4]), counts(points[:, :, 4:8])
    my_pinned, their_pinned = points[:, :, 8], points[:, :, 9]
    tail = rows[:, 240:244].astype(np.float64)
    my_pips = (mine + my_pinned) @ POINTS
    their_pips = (theirs + their_pinned) @ (25 - POINTS)
    # His checker pinned on my low points is far from his home: it costs him more.
    pins = their_pinned @ (1.0 + (25 - POINTS) / 24) - my_pinned @ (1.0 + POINTS / 24)
    mothers = 3.0 * (tail[:, 3] - tail[:, 2])
    # A lone free checker of mine (not standing on a pin of mine) can be pinned.
    blots = ((mine == 1) & (their_pinned == 0)).astype(np.float64)
    free_theirs = theirs > 0
    direct = (free_theirs @ _DIRECT) > 0
    indirect = (free_theirs @ _INDIRECT) > 0
    exposure = (blots * (direct + 0.4 * (indirect & ~direct))).sum(axis=1)
    made = (mine >= 2).sum(axis=1)
    return np.asarray(0.03 * (their_pips - my_pips) + pins + mothers - 0.6 * exposure + 0.1 * made)


# ----------------------------------------------------------------------- gulbara
_GULBARA_HIS = ((POINTS + 11) % 24) + 1
"""His point number for each of my points (both sides move the same way round)."""


def _gulbara_blocks() -> npt.NDArray[np.float64]:
    """``B[q, p]`` = 1 when my point p lies 1-6 pips in front of his checker on my point q."""
    block = np.zeros((24, 24))
    for q in range(1, 25):
        his = _GULBARA_HIS[q - 1]
        for pips in range(1, 7):
            if his - pips >= 1:  # still on the board for him
                block[q - 1, (q - pips - 1) % 24] = 1.0
    return block


_BLOCKS = _gulbara_blocks()


def gulbara_score(rows: Features) -> Scores:
    points = rows[:, :192].reshape(len(rows), 24, 8)
    mine, theirs = counts(points[:, :, :4]), counts(points[:, :, 4:])
    my_pips = mine @ POINTS
    their_pips = theirs @ _GULBARA_HIS
    held = (mine > 0).astype(np.float64)
    blocking = ((theirs > 0) @ _BLOCKS * held).sum(axis=1)
    return np.asarray(0.04 * (their_pips - my_pips) + 0.15 * blocking + 0.05 * held.sum(axis=1))


# ----------------------------------------------------------------------- indiyka
def indiyka_score(rows: Features) -> Scores:
    mine = counts(rows[:, :24].reshape(len(rows), 6, 4))
    waiting, removed = rows[:, 24].astype(np.float64) * 15, rows[:, 25].astype(np.float64) * 15
    # Removed checkers win the race; spread ones give later dice something to remove.
    return np.asarray(2.0 * removed - waiting + 0.1 * (mine > 0).sum(axis=1))


HEURISTICS: dict[str, RowScore] = {
    "tabla": tabla_score,
    "antitabla": antitabla_score,
    "chelebi": tabla_score,
    "tapa": tapa_score,
    "gulbara": gulbara_score,
    "indiyka": indiyka_score,
}


def heuristic_player(game: str, *, noise: float = 0.0, seed: int | None = None) -> ScoringPlayer:
    """The heuristic baseline of ``game`` (raises KeyError for a game without dice)."""
    score: Callable[[Features], Scores] = HEURISTICS[game]
    return ScoringPlayer("heuristic", score, noise=noise, seed=seed)
