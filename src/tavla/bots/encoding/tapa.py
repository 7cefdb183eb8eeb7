"""Tapa: TD-Gammon's units for the free checkers, plus the pins and the mothers.

Per point of the perspective player's numbering: four units for his free
checkers, four for the opponent's, then whether a checker of his lies pinned
there and whether an opponent's does (a pin is a lone checker under the other
colour's stack). Then both off counts / 15, whether each mother (the last
checker on its owner's point 24) is pinned, who is to act, and whether the
Greek rule (pinning the mother wins) is in force, since it changes what a pin is worth.
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
from tavla.rules.tapa.movegen import CHECKERS, PIN
from tavla.rules.tapa.position import TapaPosition

PER_POINT = 10
POINT_FEATURES = 24 * PER_POINT
_UNIT_NAMES = (
    *BOTH_UNIT_NAMES,
    "mine_pinned",
    "theirs_pinned",
)
_TABLE = signed_count_table()


class TapaEncoder(Encoder[TapaPosition]):
    size = POINT_FEATURES + 7
    names = (
        *point_names("p", _UNIT_NAMES),
        "mine_off/15",
        "theirs_off/15",
        "mine_mother_pinned",
        "theirs_mother_pinned",
        "mine_to_act",
        "theirs_to_act",
        "mother_pin_wins",
    )

    def encode_many(self, positions: Sequence[TapaPosition], player: int) -> Features:
        # Mover states (see tapa.movegen): off, 24 signed free counts, 24 pins (+1 mine).
        states = mover_states(positions, player, 1 + 2 * PIN)
        out = self._encode_states(states)
        tail = out[:, POINT_FEATURES:]
        tail[:, 1] = [p.off[1 - player] / CHECKERS for p in positions]
        tail[:, 4] = [p.side == player for p in positions]
        tail[:, 5] = 1 - tail[:, 4]
        tail[:, 6] = [p.options.mother_pin_wins for p in positions]
        return out

    def encode_after_states(self, origin: TapaPosition, states: States, dice_played: int) -> Features:
        # A tapa turn always passes the dice: every result has the opponent to act,
        # his checkers off as before and the same options.
        out = self._encode_states(states)
        tail = out[:, POINT_FEATURES:]
        tail[:, 1] = origin.off[1 - origin.side] / CHECKERS
        tail[:, 5] = 1.0
        tail[:, 6] = origin.options.mother_pin_wins
        return out

    def _encode_states(self, states: States) -> Features:
        """The rows of mover states, all but the tail's columns 1 and 4-6 (left 0)."""
        count = len(states)
        out = np.zeros((count, self.size), dtype=np.float32)
        points = out[:, :POINT_FEATURES].reshape(count, 24, PER_POINT)
        points[:, :, :8] = _TABLE[states[:, 1 : PIN + 1].view(np.uint8)]
        pins = states[:, PIN + 1 : 2 * PIN + 1]
        points[:, :, 8] = pins == 1
        points[:, :, 9] = pins == -1
        tail = out[:, POINT_FEATURES:]
        tail[:, 0] = states[:, 0] / CHECKERS
        tail[:, 2] = pins[:, 23] == 1  # my mother: my last checker on my point 24
        tail[:, 3] = pins[:, 0] == -1  # theirs: their point 24 is my point 1
        return out


register_encoder(TapaPosition, TapaEncoder())
