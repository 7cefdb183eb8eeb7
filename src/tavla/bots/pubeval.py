"""Tesauro's pubeval: the public benchmark opponent for tabla, written from its description.

Pubeval (Gerald Tesauro, IBM, 1993) is a linear function of 122 inputs with one
weight vector for contact positions and one for races, chosen by the position
*before* the move. Its weights are public data, kept in ``weights/pubeval.json``.
The inputs, from the side of the player who moves (points numbered as he counts
them, a block of five per point from his 24 down to his 1):

- for the point's signed count n (mine positive): n = -1 (an opposing blot),
  n = 1, n >= 2, n = 3, and (n - 3) / 2 when n >= 4;
- the opponent's checkers on the bar / 2, and mine borne off / 15.

Bearing off the last checker scores above everything. Here the inputs are read
from the tabla feature rows, so a whole roll is rated in one product.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from tavla.bots.encoding.base import Features
from tavla.bots.players import Scores, ScoringPlayer
from tavla.bots.terms import counts
from tavla.rules.backgammon.position import BackgammonPosition

INPUTS = 122
WIN = 1e8
"""The score of bearing off the last checker (pubeval's 99999999)."""


@cache
def weights() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """``(contact, race)`` weight vectors, 122 each."""
    data = json.loads((resources.files("tavla.bots") / "weights" / "pubeval.json").read_text())
    return np.array(data["contact"], dtype=np.float64), np.array(data["race"], dtype=np.float64)


def inputs(rows: Features) -> npt.NDArray[np.float64]:
    """Pubeval's 122 inputs for rows of tabla features (the mover's side)."""
    points = rows[:, :192].reshape(len(rows), 24, 8)
    signed = counts(points[:, :, :4]) - counts(points[:, :, 4:])
    # Pubeval's blocks run from the mover's point 24 down to his point 1.
    n = signed[:, ::-1]
    x = np.zeros((len(rows), INPUTS))
    blocks = x[:, :120].reshape(len(rows), 24, 5)
    blocks[:, :, 0] = n == -1
    blocks[:, :, 1] = n == 1
    blocks[:, :, 2] = n >= 2
    blocks[:, :, 3] = n == 3
    blocks[:, :, 4] = np.where(n >= 4, (n - 3) / 2, 0.0)
    x[:, 120] = rows[:, 193]  # the opponent's bar / 2, as the feature already is
    x[:, 121] = rows[:, 194]  # mine off / 15
    return x


def pubeval_scores(rows: Features, race: bool) -> Scores:
    contact, racing = weights()
    scores = inputs(rows) @ (racing if race else contact)
    return np.asarray(np.where(rows[:, 194] * 15 >= 14.5, WIN, scores))


def is_race(position: BackgammonPosition) -> bool:
    """No contact: every checker of the mover is past every checker of the opponent."""
    board = position.mover_board()  # mover's points 1-24 positive, the opponent's negative
    if board[25] or board[26]:
        return False
    mine = [point for point in range(1, 25) if board[point] > 0]
    theirs = [point for point in range(1, 25) if board[point] < 0]
    return not mine or not theirs or max(mine) < min(theirs)


class PubevalPlayer(ScoringPlayer):
    """Plays the turn pubeval rates highest (tabla; also legal in antitabla and chelebi)."""

    def __init__(self) -> None:
        self._race = False
        super().__init__("pubeval", self._scores)

    def _scores(self, rows: Features) -> Scores:
        return pubeval_scores(rows, race=self._race)

    def choose(self, position: Any) -> Any:
        self._race = is_race(position)  # one set of weights for the whole roll
        return super().choose(position)
