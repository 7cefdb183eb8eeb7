"""Hand-made board terms read from afterstate features: what the heuristics weigh,
and what the networks may see beside the raw encoding.

Each game's ``terms(rows)`` turns rows of its encoder's features (seen by the
player who just moved, ``docs/features.md``) into a few numbers a player is
taught to count: the race, shots at blots, made points, pins, primes. A
heuristic baseline is a fixed weighting of them (:mod:`tavla.bots.heuristics`);
a network built with derived inputs (:mod:`tavla.bots.network`) gets them as
extra inputs, so it starts from what the baseline knows and learns the rest,
instead of rediscovering a pip count from 200 raw units.

Terms are scaled to be about one in size (a pip difference is counted in units
of 25 pips), so they suit a network's inputs as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tavla.bots import fast
from tavla.bots.chances import ROLL_COUNTS, as_masks, chance_to_land, escape_chance, reached_by_roll
from tavla.bots.encoding.base import Features
from tavla.bots.fast import tapa_terms as fast_terms

Counts = npt.NDArray[np.float64]
POINTS = np.arange(1, 25, dtype=np.float64)
"""My points 1-24, as the features number them."""
RACE_UNIT = 25.0
"""Pips per unit of a race term."""


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
_MY_ENTRY = (POINTS >= 19).astype(np.float64)
"""His checkers I can hit from the bar: I enter on my points 19-24."""
_HOME_WEIGHT = np.where(POINTS <= 7, 1.0, np.where(POINTS <= 11, 0.4, 0.1))
"""Points worth making: my home board and bar point most, the outfield a little."""
_HOME = (POINTS <= 6).astype(np.float64)


@dataclass(frozen=True)
class Terms:
    """One game's board terms: their names, the function computing them, and the size
    each typically reaches (a network divides by it, so its inputs stay about one)."""

    names: tuple[str, ...]
    compute: Callable[[Features], Counts]
    sizes: dict[str, float]
    label: str = "board"
    """Which of a game's sets: "board", or "chances" (the board's, then the next roll's
    chances: of hits and escapes in tabla's family, of pins in tapa)."""

    def __call__(self, rows: Features) -> Counts:
        values = self.compute(rows)
        if values.shape != (len(rows), len(self.names)):
            raise ValueError(f"terms of shape {values.shape} for {len(self.names)} names")
        return values

    def divisors(self) -> Counts:
        """Each term's typical size, in the order of ``names``."""
        return np.array([self.sizes.get(name, 1.0) for name in self.names])

    def inputs(self, rows: Features) -> Counts:
        """The terms as network inputs: each divided by its typical size."""
        return np.asarray(self(rows) / self.divisors())


def _shot_weight(shooters_direct: Counts, shooters_indirect: Counts) -> Counts:
    """Direct shots count full, indirect ones (7-11 away) 0.4, per point."""
    direct = shooters_direct > 0
    indirect = shooters_indirect > 0
    return np.asarray(direct + 0.4 * (indirect & ~direct))


def _exposure_to_him(blots: Counts, theirs: Counts, their_bar: Counts | None = None) -> Counts:
    """Per point, how exposed my lone checkers are to his checkers behind them."""
    entering = 0.0 if their_bar is None else their_bar[:, None] * _ENTRY
    return blots * _shot_weight(theirs @ _DIRECT + entering, theirs @ _INDIRECT)


def _exposure_to_me(blots: Counts, mine: Counts, my_bar: Counts | None = None) -> Counts:
    """Per point, how exposed his lone checkers are to my checkers behind them."""
    entering = 0.0 if my_bar is None else my_bar[:, None] * _MY_ENTRY
    return blots * _shot_weight(mine @ _DIRECT.T + entering, mine @ _INDIRECT.T)


def longest_run(held: npt.NDArray[np.bool_]) -> Counts:
    """Longest run of consecutive held points per row (a prime)."""
    # The run ending at each point is its distance from the last point not held before it.
    index = np.arange(held.shape[1])
    last_open = np.maximum.accumulate(np.where(held, -1, index), axis=1)
    return np.asarray((index - last_open).max(axis=1, initial=0), dtype=np.float64)


# ------------------------------------------------------------------ tabla family
def _tabla_board(rows: Features) -> tuple[Counts, Counts, Counts, Counts, Counts, Counts]:
    points = rows[:, :192].reshape(len(rows), 24, 8)
    mine, theirs = counts(points[:, :, :4]), counts(points[:, :, 4:])
    tail = rows[:, 192:196].astype(np.float64)
    return mine, theirs, tail[:, 0] * 2, tail[:, 1] * 2, tail[:, 2] * 15, tail[:, 3] * 15


def _contact(mine: Counts, theirs: Counts, my_bar: Counts, their_bar: Counts) -> Counts:
    """1 while the sides can still meet: my furthest checker behind his furthest one."""
    my_back = np.where(my_bar > 0, 25.0, ((mine > 0) * POINTS).max(axis=1))
    his_back = np.where(their_bar > 0, 0.0, np.where(theirs > 0, POINTS, 25.0).min(axis=1))
    return np.asarray(my_back > his_back, dtype=np.float64)


TABLA_NAMES = (
    "race",
    "contact",
    "their_bar",
    "made_points",
    "shots_at_my_blots",
    "my_bar",
    "race_off",
    "race_spread",
    "my_pips",
    "their_pips",
    "shots_at_his_blots",
    "home_points",
    "prime",
    "my_back_checkers",
)


def tabla_terms(rows: Features) -> Counts:
    """Terms of tabla, antitabla and chelebi boards (the contact ones are 0 in a race)."""
    mine, theirs, my_bar, their_bar, my_off, _ = _tabla_board(rows)
    my_pips = mine @ POINTS + 25 * my_bar
    their_pips = theirs @ (25 - POINTS) + 25 * their_bar
    contact = _contact(mine, theirs, my_bar, their_bar)
    running = 1.0 - contact
    # A blot far advanced loses more pips when hit.
    shots = (_exposure_to_him((mine == 1) * 1.0, theirs, their_bar) * (0.5 + POINTS / 24)).sum(axis=1)
    his_shots = (_exposure_to_me((theirs == 1) * 1.0, mine, my_bar) * (0.5 + (25 - POINTS) / 24)).sum(axis=1)
    made = mine >= 2
    return np.column_stack(
        [
            (their_pips - my_pips) / RACE_UNIT,
            contact,
            contact * their_bar,
            contact * (made @ _HOME_WEIGHT),
            contact * shots,
            contact * my_bar,
            running * my_off,
            running * (mine @ POINTS) / 100,
            my_pips / 100,
            their_pips / 100,
            contact * his_shots,
            (made @ _HOME) / 6,
            longest_run(made) / 6,
            (mine @ (POINTS >= 19) + my_bar) / 15,
        ]
    )


def _tabla_chances(mine: Counts, theirs: Counts, my_bar: Counts, their_bar: Counts) -> Counts:
    """His chance to hit one of my blots on his coming roll, mine to hit his on the
    roll after, and each side's chance to bring its rearmost checker past the other's
    points in front of it (:mod:`tavla.bots.chances`). Each side's cells run as it
    moves: his are my points, mine are 25 minus them."""
    rows, empty = len(mine), np.zeros((len(mine), 1), dtype=bool)
    # His rows, then mine: one pass over the rolls for both sides.
    sides = np.concatenate(
        [np.column_stack([their_bar > 0, theirs > 0]), np.column_stack([my_bar > 0, (mine > 0)[:, ::-1]])]
    )
    opened = np.concatenate(
        [np.column_stack([empty, mine < 2]), np.column_stack([empty, (theirs < 2)[:, ::-1]])]
    )
    blots = np.concatenate(
        [np.column_stack([empty, mine == 1]), np.column_stack([empty, (theirs == 1)[:, ::-1]])]
    )
    waiting = np.concatenate([their_bar, my_bar]).astype(np.int64)
    hits = chance_to_land(sides, opened, waiting, blots)
    escapes = escape_chance(sides, opened, waiting)
    his_hit, my_hit, his_escape, my_escape = hits[:rows], hits[rows:], escapes[:rows], escapes[rows:]
    return np.column_stack([his_hit, my_hit, my_escape, his_escape])


CHANCE_NAMES = ("his_hit_chance", "my_hit_chance", "my_escape_chance", "his_escape_chance")
TABLA_CHANCE_NAMES = (*TABLA_NAMES, *CHANCE_NAMES)


def tabla_chance_terms(rows: Features) -> Counts:
    """:func:`tabla_terms`, then the next roll's chances of hits and escapes (0 in a race)."""
    mine, theirs, my_bar, their_bar, _, _ = _tabla_board(rows)
    contact = _contact(mine, theirs, my_bar, their_bar)
    chances = _tabla_chances(mine, theirs, my_bar, their_bar) * contact[:, None]
    return np.column_stack([tabla_terms(rows), chances])


# -------------------------------------------------------------------------- tapa
TAPA_NAMES = (
    "race",
    "pins",
    "mothers",
    "exposure",
    "made_points",
    "my_pips",
    "their_pips",
    "my_pinned",
    "their_pinned",
    "his_exposure",
    "home_points",
    "prime",
)


def tapa_terms(rows: Features) -> Counts:
    """Tapa's board terms (``TAPA_NAMES``); compiled when numba is (the same numbers)."""
    if fast.AVAILABLE:
        compiled = fast_terms.tapa_chance_terms(np.asarray(rows, dtype=np.float64))
        return np.asarray(compiled[:, : len(TAPA_NAMES)])
    return reference_tapa_terms(rows)


def _tapa_exposure(blots: Counts, direct: Counts, indirect: Counts) -> Counts:
    """Lone checkers with a direct shot at them count 1, those with only indirect ones
    0.4: two whole-number counts, then one product and one sum (so the compiled terms,
    counting point by point, come to the same bits)."""
    hit_direct = direct > 0
    only_indirect = ~hit_direct & (indirect > 0)
    return np.asarray((blots * hit_direct).sum(axis=1) + 0.4 * (blots * only_indirect).sum(axis=1))


def reference_tapa_terms(rows: Features) -> Counts:
    """:func:`tapa_terms` in numpy: the reference the compiled terms are tested against."""
    points = rows[:, :240].reshape(len(rows), 24, 10).astype(np.float64)
    mine, theirs = counts(points[:, :, :4]), counts(points[:, :, 4:8])
    my_pinned, their_pinned = points[:, :, 8], points[:, :, 9]
    tail = rows[:, 240:244].astype(np.float64)
    my_pips = (mine + my_pinned) @ POINTS
    their_pips = (theirs + their_pinned) @ (25 - POINTS)
    # His checker pinned on my low points is far from his home: it costs him more
    # (1 + (25 - p) / 24 a checker, summed in 24ths).
    pins = (their_pinned @ (49 - POINTS) - my_pinned @ (24 + POINTS)) / 24
    # A lone free checker (not standing on a pin of its own side) can be pinned.
    my_blots = ((mine == 1) & (their_pinned == 0)) * 1.0
    his_blots = ((theirs == 1) & (my_pinned == 0)) * 1.0
    held = (mine >= 2) | (their_pinned > 0)
    theirs_present, mine_present = (theirs > 0).astype(np.float64), (mine > 0).astype(np.float64)
    return np.column_stack(
        [
            (their_pips - my_pips) / RACE_UNIT,
            pins,
            tail[:, 3] - tail[:, 2],
            _tapa_exposure(my_blots, theirs_present @ _DIRECT, theirs_present @ _INDIRECT),
            (mine >= 2).sum(axis=1),
            my_pips / 100,
            their_pips / 100,
            my_pinned.sum(axis=1),
            their_pinned.sum(axis=1),
            _tapa_exposure(his_blots, mine_present @ _DIRECT.T, mine_present @ _INDIRECT.T),
            (held * _HOME).sum(axis=1) / 6,
            longest_run(held) / 6,
        ]
    )


def _tapa_pin_chances(rows: Features) -> Counts:
    """His chance to pin one of my lone checkers on his coming roll, and my mother
    among them; mine to pin one of his, and his mother, on the roll after
    (:mod:`tavla.bots.chances`). A pin lasts: a checker caught costs more than a tabla
    blot hit, and a caught mother may lose the game.

    Each side's cells run as it moves, from an empty bar cell: his are my points, mine
    are 25 minus them. A point is closed to a side where the other has two or more
    free checkers, or stands on a pinned checker of that side's."""
    points = rows[:, :240].reshape(len(rows), 24, 10).astype(np.float64)
    mine, theirs = counts(points[:, :, :4]), counts(points[:, :, 4:8])
    my_pinned, their_pinned = points[:, :, 8] > 0, points[:, :, 9] > 0
    count, empty = len(rows), np.zeros((len(rows), 1), dtype=bool)
    closed_to_him = (mine >= 2) | ((mine >= 1) & their_pinned)
    closed_to_me = (theirs >= 2) | ((theirs >= 1) & my_pinned)
    # A lone checker standing on a pinned one is on a closed point: no target.
    mine_lone, theirs_lone = mine == 1, theirs == 1
    # His rows, then mine: one pass over the rolls for both sides.
    sides = np.concatenate(
        [np.column_stack([empty, theirs > 0]), np.column_stack([empty, (mine > 0)[:, ::-1]])]
    )
    opened = np.concatenate(
        [np.column_stack([empty, ~closed_to_him]), np.column_stack([empty, ~closed_to_me[:, ::-1]])]
    )
    lone = np.concatenate(
        [np.column_stack([empty, mine_lone]), np.column_stack([empty, theirs_lone[:, ::-1]])]
    )
    reached = reached_by_roll(sides, opened, np.zeros(2 * count, dtype=np.int64))
    # A lone checker on a side's own 24-point is its mother: the last cell the other reaches.
    mothers = lone & (np.arange(25) == 24)
    pins = (ROLL_COUNTS @ ((reached & as_masks(lone)) != 0)) / 36
    mother_pins = (ROLL_COUNTS @ ((reached & as_masks(mothers)) != 0)) / 36
    return np.column_stack([pins[:count], mother_pins[:count], pins[count:], mother_pins[count:]])


TAPA_CHANCE_NAMES = (
    *TAPA_NAMES,
    "his_pin_chance",
    "his_mother_pin_chance",
    "my_pin_chance",
    "my_mother_pin_chance",
)


def tapa_chance_terms(rows: Features) -> Counts:
    """:func:`tapa_terms`, then the next rolls' chances of pins (:func:`_tapa_pin_chances`);
    compiled when numba is."""
    if fast.AVAILABLE:
        return np.asarray(fast_terms.tapa_chance_terms(np.asarray(rows, dtype=np.float64)))
    return reference_tapa_chance_terms(rows)


def reference_tapa_chance_terms(rows: Features) -> Counts:
    """:func:`tapa_chance_terms` in numpy (the compiled terms' reference)."""
    return np.column_stack([reference_tapa_terms(rows), _tapa_pin_chances(rows)])


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
_MY_FRONT = np.array([[1.0 if 1 <= q - p <= 6 else 0.0 for p in POINTS] for q in POINTS])
"""``F[q, p]`` = 1 when my point p lies 1-6 pips in front of my own checker on my point q."""

GULBARA_NAMES = ("race", "blocking", "held_points", "my_pips", "their_pips", "prime", "his_blocking")


def gulbara_terms(rows: Features) -> Counts:
    points = rows[:, :192].reshape(len(rows), 24, 8)
    mine, theirs = counts(points[:, :, :4]), counts(points[:, :, 4:])
    my_pips = mine @ POINTS
    their_pips = theirs @ _GULBARA_HIS
    held = (mine > 0) * 1.0
    his_held = (theirs > 0) * 1.0
    his_blocking = ((mine > 0) @ _MY_FRONT * his_held).sum(axis=1)
    return np.column_stack(
        [
            (their_pips - my_pips) / RACE_UNIT,
            ((theirs > 0) @ _BLOCKS * held).sum(axis=1),
            held.sum(axis=1),
            my_pips / 100,
            their_pips / 100,
            longest_run(held > 0) / 6,
            his_blocking,
        ]
    )


_TABLA_SIZES = {
    "race": 4.0,
    "their_bar": 2.0,
    "made_points": 4.0,
    "shots_at_my_blots": 4.0,
    "my_bar": 2.0,
    "race_off": 15.0,
    "my_pips": 2.0,
    "their_pips": 2.0,
    "shots_at_his_blots": 4.0,
}
_TAPA_SIZES = {
    "race": 4.0,
    "pins": 4.0,
    "exposure": 4.0,
    "made_points": 6.0,
    "my_pips": 2.0,
    "their_pips": 2.0,
    "my_pinned": 3.0,
    "their_pinned": 3.0,
    "his_exposure": 4.0,
}
_GULBARA_SIZES = {
    "race": 4.0,
    "blocking": 8.0,
    "held_points": 12.0,
    "my_pips": 3.0,
    "their_pips": 3.0,
    "his_blocking": 8.0,
}
GAME_TERMS: dict[str, Terms] = {
    "tabla": Terms(TABLA_NAMES, tabla_terms, _TABLA_SIZES),
    "antitabla": Terms(TABLA_NAMES, tabla_terms, _TABLA_SIZES),
    "chelebi": Terms(TABLA_NAMES, tabla_terms, _TABLA_SIZES),
    "tapa": Terms(TAPA_NAMES, tapa_terms, _TAPA_SIZES),
    "gulbara": Terms(GULBARA_NAMES, gulbara_terms, _GULBARA_SIZES),
}
"""Games whose boards have terms (indiyka's rolls leave too few choices to need them),
and the set a network is given by default."""

_TABLA_CHANCES = Terms(TABLA_CHANCE_NAMES, tabla_chance_terms, _TABLA_SIZES, "chances")
_CHANCE_SETS = {
    "tabla": _TABLA_CHANCES,
    "antitabla": _TABLA_CHANCES,
    "chelebi": _TABLA_CHANCES,
    "tapa": Terms(TAPA_CHANCE_NAMES, tapa_chance_terms, _TAPA_SIZES, "chances"),
}
TERM_SETS: dict[str, tuple[Terms, ...]] = {
    game: (terms, _CHANCE_SETS[game]) if game in _CHANCE_SETS else (terms,)
    for game, terms in GAME_TERMS.items()
}
"""Every set of terms a game's network may be made with."""


def term_set(game: str, label: str) -> Terms | None:
    """``game``'s set of terms called ``label``, if it has one."""
    return next((terms for terms in TERM_SETS.get(game, ()) if terms.label == label), None)
