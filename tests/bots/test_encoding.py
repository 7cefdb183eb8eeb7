"""Feature encodings: documented lengths and hand-checked values (docs/features.md)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest
from tests.dice_positions import dice_start

import tavla
from tavla.bots.encoding import Encoder, encoder_for
from tavla.bots.encoding.gulbara import POINT_FEATURES
from tavla.core.errors import TavlaError
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.backgammon.position import BackgammonPosition
from tavla.rules.gulbara.position import GulbaraPosition
from tavla.rules.indiyka.position import IndiykaPosition
from tavla.rules.tapa.position import TapaPosition

SIZES = {"tabla": 198, "antitabla": 198, "chelebi": 198, "tapa": 247, "gulbara": 206, "indiyka": 58}


def named(encoder: Encoder[object], row: np.ndarray) -> dict[str, float]:
    return {name: float(value) for name, value in zip(encoder.names, row, strict=True)}


@pytest.mark.parametrize("game", sorted(SIZES))
def test_documented_length_for_both_players(game: str) -> None:
    start = tavla.find_game(game).start()
    encoder = encoder_for(start)
    assert encoder.size == SIZES[game] == len(encoder.names) == len(set(encoder.names))
    for player in (WHITE, BLACK):
        row = encoder.encode(start, player)
        assert row.shape == (SIZES[game],) and row.dtype == np.float32


def test_abluka_has_no_encoding() -> None:
    with pytest.raises(TavlaError, match="no feature encoding"):
        encoder_for(tavla.find_game("abluka").start())


def test_tabla_start_units() -> None:
    start = tavla.find_game("tabla").start()
    encoder = encoder_for(start)
    for player in (WHITE, BLACK):  # the start is symmetric
        f = named(encoder, encoder.encode(start, player))
        assert [f[f"p6.{u}"] for u in ("mine>=1", "mine>=2", "mine>=3", "mine_spare")] == [1, 1, 1, 1]
        assert [f[f"p8.{u}"] for u in ("mine>=1", "mine>=2", "mine>=3", "mine_spare")] == [1, 1, 1, 0]
        assert [f[f"p24.{u}"] for u in ("mine>=1", "mine>=2", "mine>=3")] == [1, 1, 0]
        # The opponent's 24 and 13 are my 1 and 12.
        assert [f[f"p1.{u}"] for u in ("theirs>=1", "theirs>=2", "theirs>=3")] == [1, 1, 0]
        assert f["p12.theirs_spare"] == 1.0 and f["p12.mine>=1"] == 0.0
        assert sum(f.values()) == pytest.approx(2 * (4 + 4 + 3 + 2) + 1)  # units per side, to act
        assert f["mine_to_act"] == (player == WHITE) and f["theirs_to_act"] == (player == BLACK)


def test_tabla_bar_off_and_spares() -> None:
    points = [0] * 24
    points[0] = 9  # White's point 1: 9 checkers, (9 - 3) / 2 = 3 spares
    points[23] = -4  # Black's point 1 (White's 24)
    position = BackgammonPosition(tuple(points), bar=(1, 3), off=(5, 8), side=BLACK)
    encoder = encoder_for(position)
    white = named(encoder, encoder.encode(position, WHITE))
    assert white["p1.mine_spare"] == 3.0 and white["p24.theirs_spare"] == 0.5
    assert (white["mine_bar/2"], white["theirs_bar/2"]) == (0.5, 1.5)
    assert (white["mine_off/15"], white["theirs_off/15"]) == pytest.approx((5 / 15, 8 / 15))
    assert (white["mine_to_act"], white["theirs_to_act"]) == (0.0, 1.0)
    black = named(encoder, encoder.encode(position, BLACK))
    assert black["p1.mine_spare"] == 0.5 and black["p24.theirs_spare"] == 3.0
    assert (black["mine_bar/2"], black["mine_off/15"]) == pytest.approx((1.5, 8 / 15))


def test_tapa_pins_and_mothers() -> None:
    tops = [0] * 24
    pins = [0] * 24
    tops[9], pins[9] = -1, 1  # a White checker pinned under a Black one on White's 10
    tops[23], pins[23] = -2, 1  # White's mother pinned on his 24
    tops[0] = -10
    tops[5] = 10  # and three of White's borne off
    position = TapaPosition(tuple(tops), tuple(pins), off=(3, 2), side=WHITE)
    encoder = encoder_for(position)
    white = named(encoder, encoder.encode(position, WHITE))
    assert white["p10.mine_pinned"] == 1.0 and white["p10.theirs>=1"] == 1.0
    assert white["p10.theirs_pinned"] == 0.0 and white["p10.mine>=1"] == 0.0
    assert white["p24.mine_pinned"] == 1.0 and white["p24.theirs>=2"] == 1.0
    assert white["mine_mother_pinned"] == 1.0 and white["theirs_mother_pinned"] == 0.0
    assert white["p6.mine_spare"] == 3.5 and white["theirs_off/15"] == pytest.approx(2 / 15)
    assert white["mine_off/15"] == pytest.approx(3 / 15)
    black = named(encoder, encoder.encode(position, BLACK))
    assert (black["mine_off/15"], black["theirs_off/15"]) == pytest.approx((2 / 15, 3 / 15))
    assert black["p15.theirs_pinned"] == 1.0 and black["p15.mine>=1"] == 1.0  # White's 10
    assert black["p1.theirs_pinned"] == 1.0 and black["theirs_mother_pinned"] == 1.0
    assert black["mother_pin_wins"] == 0.0
    greek = position.with_rules(position.definition.with_options(mother_pin_wins=True))
    assert named(encoder, encoder.encode(greek, BLACK))["mother_pin_wins"] == 1.0


def test_gulbara_completion_and_roll_counters() -> None:
    start = tavla.find_game("gulbara").start()
    assert isinstance(start, GulbaraPosition)
    position = GulbaraPosition(start.points, side=BLACK, complete=(5, 5, 6, 6, 6, 6), rolls=(3, 2))
    encoder = encoder_for(position)
    black = named(encoder, encoder.encode(position, BLACK))
    assert black["complete_5s/4"] == 0.5 and black["complete_6s/4"] == 1.0 and black["complete_4s/4"] == 0
    assert (black["mine_rolls/3"], black["theirs_rolls/3"]) == pytest.approx((2 / 3, 1.0))
    assert black["mine_next_double_progressive"] == 0.0  # his 3rd roll: not yet (from the 4th)
    assert black["theirs_next_double_progressive"] == 1.0
    assert black["mine_to_act"] == 1.0
    # Same-way movement: both start on their own point 24, White's 24 is Black's 12.
    assert black["p24.mine_spare"] == 6.0 and black["p12.theirs_spare"] == 6.0
    white = named(encoder, encoder.encode(position, WHITE))
    assert white["p24.mine_spare"] == 6.0 and white["p12.theirs_spare"] == 6.0
    assert white["mine_next_double_progressive"] == 1.0


def test_indiyka_phases() -> None:
    points = [0] * 24
    points[0:6] = [2, 2, 2, 2, 2, 5]  # White: all 15 entered
    points[23], points[22] = -2, -1  # Black's points 1 and 2: 3 entered, 12 waiting
    position = IndiykaPosition(tuple(points), off=(0, 0), side=WHITE)
    encoder = encoder_for(position)
    white = named(encoder, encoder.encode(position, WHITE))
    assert white["mine_waiting/15"] == 0.0 and white["mine_entering"] == 0.0
    assert white["mine_board>=12"] == 1.0 and white["mine_p6_spare"] == 1.0
    assert white["theirs_waiting/15"] == pytest.approx(12 / 15) and white["theirs_entering"] == 1.0
    assert white["theirs_p1>=2"] == 1.0 and white["theirs_p2>=2"] == 0.0
    assert white["theirs_board>=12"] == 0.0


@pytest.mark.parametrize("game", sorted(SIZES))
def test_encode_many_matches_encode(game: str) -> None:
    position = dice_start(game).with_roll((6, 3))
    afters = [turn.after for turn in position.legal_turns()]
    encoder = encoder_for(position)
    rows = encoder.encode_many(afters, position.side)
    assert rows.shape == (len(afters), encoder.size)
    for row, after in zip(rows, afters, strict=True):
        assert np.array_equal(row, encoder.encode(after, position.side))


@pytest.mark.parametrize("side", [WHITE, BLACK])
@pytest.mark.parametrize("complete", [(), (5, 5, 6)], ids=["a-roll", "a-completion"])
def test_gulbara_rows_from_mover_states_are_the_positions_rows(side: int, complete: tuple[int, ...]) -> None:
    """RULES.md 6.3: a progressive double left unfinished passes its dice on unless the
    mover has borne off his last checker; a completion played lets the same player roll.
    The rows read from mover states say so as the positions' own rows do."""
    start = tavla.find_game("gulbara").start()
    assert isinstance(start, GulbaraPosition)
    position = dataclasses.replace(
        start, side=side, dice=None if complete else (3, 3), complete=complete, rolls=(3, 3), off=(4, 6)
    )
    rng = np.random.default_rng(side + 2 * len(complete))
    states = []
    for off in (15, 7, 15, 0, 12):  # finished and unfinished movers mixed
        points = np.zeros(24, dtype=np.int8)
        points[rng.choice(12)] = 15 - off  # the mover's checkers left, on one of his first points
        points[12 + rng.choice(12, size=3, replace=False)] = -2  # some of his opponent's
        states.append([off, *points.tolist()])
    rows = np.array(states, dtype=np.int8)
    encoder = encoder_for(position)
    for played in (2, 6, 9):
        expected = encoder.encode_many([position.after_turn(tuple(row), played) for row in states], side)
        assert np.array_equal(encoder.encode_after_states(position, rows, played), expected)
    # The unfinished mover of a double stopped at six dice passes the rest on; the finished one does not.
    passed = encoder.encode_after_states(position, rows, 6)[:, POINT_FEATURES + 2 : POINT_FEATURES + 8]
    if not complete:
        assert passed[1].sum() > 0 and passed[0].sum() == 0


def test_docs_give_each_encoding_its_size_and_names() -> None:
    page = (Path(__file__).parent.parent.parent / "docs" / "features.md").read_text(encoding="utf-8")
    titles = {
        "tabla": "Tabla, antitabla, chelebi",
        "tapa": "Tapa",
        "gulbara": "Gulbara",
        "indiyka": "Indiyka",
    }
    for game, title in titles.items():
        encoder = encoder_for(tavla.find_game(game).start())
        assert f"## {title} — {encoder.size} features" in page
        for name in encoder.names:
            if not re.match(r"(p\d+\.|mine_p\d|theirs_p\d|theirs_[wreb]|complete_[2-5])", name):  # ranges
                assert f"`{name}`" in page, name
