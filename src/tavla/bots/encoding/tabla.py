"""Tabla, antitabla and chelebi: TD-Gammon's 198 inputs, laid out by point.

Per point of the perspective player's numbering, four units for his checkers and
four for the opponent's (see :func:`count_units`); then both bars / 2, both off
counts / 15, and who is to act. It carries exactly Tesauro's information: the
opponent's point ``p`` is the perspective player's ``25 - p``, so the
opponent's units sit at the same physical point instead of in a block of their
own. Keeping both on one point lets a whole array of boards be encoded with one
table gather (see :func:`encode_boards`), which afterstates need to be fast.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from itertools import starmap

import numpy as np

from tavla.bots.encoding.base import (
    BOTH_UNIT_NAMES,
    Encoder,
    Features,
    point_names,
    register_encoder,
    signed_count_table,
)
from tavla.rules.backgammon.movegen import Board
from tavla.rules.backgammon.position import CHECKERS, BackgammonPosition

POINT_FEATURES = 24 * 8
_TABLE = signed_count_table()
_PACK = struct.Struct("27b").pack
# Board cells mine bar (25), their bar (26), mine off (0) and their scales.
_TAIL_CELLS = [25, 26, 0]
_TAIL_SCALE = np.array([0.5, 0.5, 1 / CHECKERS], dtype=np.float32)


def encode_boards(boards: Iterable[Board], opponent_off: int, mover_to_act: bool) -> Features:
    """Rows for boards of the whole-turn generator, seen from the mover's side.

    A Board (see ``movegen``) lacks the opponent's off count, which a turn of the
    mover never changes, so it is given once. The boards are packed to int8 bytes
    by ``struct`` (far cheaper than numpy reading Python ints one by one) and read
    back as uint8 to index :func:`signed_count_table` directly.
    """
    raw = b"".join(starmap(_PACK, boards))
    count = len(raw) // 27
    cells = np.frombuffer(raw, dtype=np.uint8).reshape(count, 27)
    out = np.empty((count, TablaEncoder.size), dtype=np.float32)
    # Written in place, through views of ``out``: each temporary array costs more
    # than the arithmetic on a few dozen rows.
    out[:, :POINT_FEATURES].reshape(count, 24, 8)[...] = _TABLE.take(cells[:, 1:25], axis=0)
    np.multiply(cells[:, _TAIL_CELLS], _TAIL_SCALE, out=out[:, POINT_FEATURES : POINT_FEATURES + 3])
    out[:, POINT_FEATURES + 3 :] = (opponent_off / CHECKERS, float(mover_to_act), float(not mover_to_act))
    return out


def board_of(position: BackgammonPosition, player: int) -> Board:
    """The generator's Board with ``player`` as the mover, whoever is to act."""
    if position.side == player:
        return position.mover_board()
    return position.with_side(player).mover_board()


class TablaEncoder(Encoder[BackgammonPosition]):
    size = POINT_FEATURES + 6
    names = (
        *point_names("p", BOTH_UNIT_NAMES),
        "mine_bar/2",
        "theirs_bar/2",
        "mine_off/15",
        "theirs_off/15",
        "mine_to_act",
        "theirs_to_act",
    )

    def encode_many(self, positions: Sequence[BackgammonPosition], player: int) -> Features:
        if not positions:
            return np.empty((0, self.size), dtype=np.float32)
        groups: dict[tuple[int, bool], list[int]] = {}
        for index, position in enumerate(positions):
            groups.setdefault((position.off[1 - player], position.side == player), []).append(index)
        out = np.empty((len(positions), self.size), dtype=np.float32)
        for (opponent_off, to_act), indices in groups.items():
            boards = [board_of(positions[index], player) for index in indices]
            out[indices] = encode_boards(boards, opponent_off, to_act)
        return out


register_encoder(BackgammonPosition, TablaEncoder())
