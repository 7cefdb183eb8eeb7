"""Indiyka: each player's six points, waiting checkers and phase.

For the perspective player, then the opponent: TD-Gammon's four units for each
of his points 1-6 (points can hold many checkers), his checkers still waiting to
enter / 15 and removed / 15, whether he is still entering (a roll belongs to one
phase only, RULES.md 7), and whether his board holds twelve or more, past which
a die naming a full point enters anyway. Then who is to act.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tavla.bots.encoding.base import UNITS, Encoder, Features, count_units, register_encoder
from tavla.rules.indiyka.movegen import CHECKERS, FULL_POINT, POINTS
from tavla.rules.indiyka.position import IndiykaPosition

PER_PLAYER = POINTS * UNITS + 4
_UNIT_NAMES = (">=1", ">=2", ">=3", "_spare")


def _player_names(who: str) -> tuple[str, ...]:
    points = tuple(f"{who}_p{point}{unit}" for point in range(1, POINTS + 1) for unit in _UNIT_NAMES)
    return (*points, f"{who}_waiting/15", f"{who}_removed/15", f"{who}_entering", f"{who}_board>=12")


def _player_features(position: IndiykaPosition, player: int) -> list[float]:
    board = position.board(player)
    waiting = position.waiting(player)
    units = [unit for count in board for unit in count_units(count)]
    filled = sum(board) >= FULL_POINT * POINTS
    return [*units, waiting / CHECKERS, position.off[player] / CHECKERS, float(waiting > 0), float(filled)]


class IndiykaEncoder(Encoder[IndiykaPosition]):
    size = 2 * PER_PLAYER + 2
    names = (*_player_names("mine"), *_player_names("theirs"), "mine_to_act", "theirs_to_act")

    def encode_many(self, positions: Sequence[IndiykaPosition], player: int) -> Features:
        rows = [
            [
                *_player_features(position, player),
                *_player_features(position, 1 - player),
                float(position.side == player),
                float(position.side != player),
            ]
            for position in positions
        ]
        return np.array(rows, dtype=np.float32).reshape(len(positions), self.size)


register_encoder(IndiykaPosition, IndiykaEncoder())
