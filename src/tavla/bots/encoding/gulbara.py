"""Gulbara: TD-Gammon's units per point, the completion dice and the roll counters.

Both players move the same way round, so a point of the perspective player's
numbering is the opponent's ``((p + 11) mod 24) + 1``; as in tabla, the
opponent's four units sit at the physical point. Then both off counts / 15,
the completion owed by the side to act (RULES.md 6.3, TPN ``c=``: per die value
1-6 how many of that value are still to play, / 4), each player's roll counter
(TPN ``r=``, / 3) and whether his next double is progressive under the game's
options, and who is to act (after a completion the same player acts again).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tavla.bots.encoding.base import (
    BOTH_UNIT_NAMES,
    Encoder,
    Features,
    States,
    mover_states,
    point_names,
    register_encoder,
    signed_count_table,
)
from tavla.rules.gulbara.movegen import CHECKERS
from tavla.rules.gulbara.position import ROLL_COUNT_CAP, GulbaraPosition

POINT_FEATURES = 24 * 8
_TABLE = signed_count_table()


def _progressive_next(position: GulbaraPosition, player: int) -> bool:
    return position.rolls[player] + 1 >= position.options.progressive_from_roll


class GulbaraEncoder(Encoder[GulbaraPosition]):
    size = POINT_FEATURES + 14
    names = (
        *point_names("p", BOTH_UNIT_NAMES),
        "mine_off/15",
        "theirs_off/15",
        *(f"complete_{value}s/4" for value in range(1, 7)),
        "mine_rolls/3",
        "theirs_rolls/3",
        "mine_next_double_progressive",
        "theirs_next_double_progressive",
        "mine_to_act",
        "theirs_to_act",
    )

    def encode_many(self, positions: Sequence[GulbaraPosition], player: int) -> Features:
        states = mover_states(positions, player, 25)
        count = len(positions)
        out = np.zeros((count, self.size), dtype=np.float32)
        out[:, :POINT_FEATURES] = _TABLE[states[:, 1:].view(np.uint8)].reshape(count, POINT_FEATURES)
        tail = out[:, POINT_FEATURES:]
        tail[:, 0] = states[:, 0] / CHECKERS
        for row, position in enumerate(positions):
            tail[row, 1] = position.off[1 - player] / CHECKERS
            for die in position.complete:
                tail[row, 1 + die] += 0.25
            tail[row, 8] = position.rolls[player] / ROLL_COUNT_CAP
            tail[row, 9] = position.rolls[1 - player] / ROLL_COUNT_CAP
            tail[row, 10] = _progressive_next(position, player)
            tail[row, 11] = _progressive_next(position, 1 - player)
            tail[row, 12] = position.side == player
            tail[row, 13] = position.side != player
        return out

    def encode_after_states(self, origin: GulbaraPosition, states: States, dice_played: int) -> Features:
        count = len(states)
        out = np.zeros((count, self.size), dtype=np.float32)
        out[:, :POINT_FEATURES] = _TABLE[states[:, 1:].view(np.uint8)].reshape(count, POINT_FEATURES)
        out[:, POINT_FEATURES] = states[:, 0] / CHECKERS
        # The rest of a row (the opponent's checkers off, the completion passed on, the
        # roll counters, who acts) follows from the position before the turn and the dice
        # played, and from the state only in whether the mover has borne off his last
        # checker (then no unfinished double passes on): one result of each kind gives it.
        for finished in (False, True):
            rows = np.flatnonzero((states[:, 0] >= CHECKERS) == finished)
            if len(rows):
                sample = origin.after_turn(tuple(states[rows[0]].tolist()), dice_played)
                tail = self.encode_many([sample], origin.side)[0, POINT_FEATURES + 1 :]
                out[rows, POINT_FEATURES + 1 :] = tail
        return out


register_encoder(GulbaraPosition, GulbaraEncoder())
