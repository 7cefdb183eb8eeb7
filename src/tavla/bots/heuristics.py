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

import numpy as np
import numpy.typing as npt

from tavla.bots.encoding.base import Features
from tavla.bots.players import RowScore, Scores, ScoringPlayer
from tavla.bots.terms import (
    GULBARA_NAMES,
    TABLA_NAMES,
    TAPA_NAMES,
    counts,
    gulbara_terms,
    tabla_terms,
    tapa_terms,
)

Counts = npt.NDArray[np.float64]


def _weights(names: tuple[str, ...], **weights: float) -> npt.NDArray[np.float64]:
    """A weight per term, 0 for the terms the heuristic leaves to the networks."""
    unknown = set(weights) - set(names)
    if unknown:
        raise ValueError(f"no such terms: {sorted(unknown)}")
    return np.array([weights.get(name, 0.0) for name in names])


# Race terms count 25 pips as one: 1.0 is 0.04 per pip.
_TABLA = _weights(
    TABLA_NAMES,
    race=1.0,
    their_bar=0.6,
    made_points=0.3,
    shots_at_my_blots=-0.5,
    my_bar=-0.3,
    race_off=1.0,  # a race is won by pips alone: bear off,
    race_spread=-1.0,  # and keep checkers low while doing it
)
_TAPA = _weights(TAPA_NAMES, race=0.75, pins=1.0, mothers=3.0, exposure=-0.6, made_points=0.1)
_GULBARA = _weights(GULBARA_NAMES, race=1.0, blocking=0.15, held_points=0.05)


def tabla_score(rows: Features) -> Scores:
    return np.asarray(tabla_terms(rows) @ _TABLA)


def antitabla_score(rows: Features) -> Scores:
    """Finishing first loses: stay behind, get hit, do not hit, do not bear off."""
    terms = tabla_terms(rows)
    # Made points and borne-off checkers count against with or without contact.
    mine = counts(rows[:, :192].reshape(len(rows), 24, 8)[:, :, :4])
    my_off = rows[:, 194].astype(np.float64) * 15
    race, shots = terms[:, TABLA_NAMES.index("race")], terms[:, TABLA_NAMES.index("shots_at_my_blots")]
    return np.asarray(-race + 0.3 * shots - 0.5 * my_off - 0.2 * (mine >= 2).sum(axis=1))


def tapa_score(rows: Features) -> Scores:
    return np.asarray(tapa_terms(rows) @ _TAPA)


def gulbara_score(rows: Features) -> Scores:
    return np.asarray(gulbara_terms(rows) @ _GULBARA)


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
