"""gnubg Position ID and Match ID (RULES.md 1.1-1.2 numbering; the issue's notation list).

Encoding and decoding are checked against IDs that GNU Backgammon wrote itself
(``tests/data/gnubg_ids.json``, made by ``python -m tests.oracle.make_fixtures ids``):
for boards, for cube and position dictionaries, and after command sequences that
set up real money and match states (doubles, resignations, Crawford, scores, dice).
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavla.core.errors import NotationError
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.backgammon import BackgammonPosition, ChelebiPosition
from tavla.rules.backgammon.gnubg_id import (
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    MatchInfo,
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
    from_gnubg_ids,
    split_gnubg_id,
    to_gnubg_ids,
)

REPO = Path(__file__).resolve().parents[3]
FIXTURE = REPO / "tests" / "data" / "gnubg_ids.json"
GNUBG = "/usr/games/gnubg"


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.fixture(scope="module")
def fixture() -> dict[str, Any]:
    return load(FIXTURE)


def info_from_gnubg(cube: dict[str, Any], pos: dict[str, Any]) -> MatchInfo:
    """The Match ID fields as gnubg's cubeinfo and posinfo dictionaries report them."""
    dice = (pos["dice"][0], pos["dice"][1])
    return MatchInfo(
        cube_value=cube["cube"],
        cube_owner=None if cube["cubeowner"] < 0 else cube["cubeowner"],
        dice_owner=cube["move"],
        crawford=bool(cube["crawford"]),
        game_state=pos["gamestate"],
        turn=pos["turn"],
        double_offered=bool(pos["doubled"]),
        resign=pos["resigned"],
        dice=None if dice == (0, 0) else dice,
        match_length=cube["matchto"],
        score=(cube["score"][0], cube["score"][1]),
        jacoby=bool(cube["jacoby"]),
    )


# ------------------------------------------------------------ against gnubg
def test_published_start_ids() -> None:
    """The tabla start, money play, before the opening roll (White to roll)."""
    assert to_gnubg_ids(BackgammonPosition.start()) == ("4HPwATDgc/ABMA", "cAgAAAAAAAAA")


def test_gnubg_wrote_the_published_start_ids(fixture: dict[str, Any]) -> None:
    start = fixture["boards"][-1]
    assert start["tpn"] == BackgammonPosition.start().notation()
    assert start["position_id"] == "4HPwATDgc/ABMA"
    before_opening = fixture["match_keys"][0]
    assert before_opening["posinfo"]["gamestate"] == GAME_NONE
    assert before_opening["match_id"] == "cAgAAAAAAAAA"


def test_position_ids_agree_with_gnubg(fixture: dict[str, Any]) -> None:
    assert len(fixture["boards"]) >= 60
    for case in fixture["boards"]:
        position = BackgammonPosition.from_notation(case["tpn"])
        assert encode_position_id(position) == case["position_id"], case["tpn"]
        assert decode_position_id(case["position_id"], side=position.side) == position


def test_match_ids_agree_with_gnubg(fixture: dict[str, Any]) -> None:
    cases = fixture["match_keys"] + fixture["scenarios"]
    assert len(cases) >= 60
    for case in cases:
        info = info_from_gnubg(case["cubeinfo"], case["posinfo"])
        assert encode_match_id(info) == case["match_id"], case
        assert decode_match_id(case["match_id"]) == info


def test_real_gnubg_states_map_to_our_positions(fixture: dict[str, Any]) -> None:
    """White is gnubg's player 1: the side to act follows gnubg's dice owner."""
    scenarios = fixture["scenarios"]
    assert sum(1 for case in scenarios if case["tpn"]) >= 8
    for case in scenarios:
        position, info = from_gnubg_ids(case["position_id"], case["match_id"])
        assert info == info_from_gnubg(case["cubeinfo"], case["posinfo"])
        assert position.side == (WHITE if case["cubeinfo"]["move"] == 1 else BLACK)
        if case["tpn"]:
            expected = BackgammonPosition.from_notation(case["tpn"])  # dice as set in gnubg
            assert expected.dice is not None
            expected = replace(expected, dice=(max(expected.dice), min(expected.dice)))
            assert position == expected, case["commands"]
        else:
            assert position.points == BackgammonPosition.start().points
        assert to_gnubg_ids(position, info) == (case["position_id"], case["match_id"])


# ------------------------------------------------------------- our decisions
def test_white_to_roll_is_gnubg_player_one_and_black_player_zero() -> None:
    start = BackgammonPosition.start()
    white = decode_match_id(to_gnubg_ids(start.with_roll((3, 1)))[1])
    black = decode_match_id(to_gnubg_ids(start.with_side(BLACK).with_roll((3, 1)))[1])
    assert (white.dice_owner, white.turn, white.dice) == (1, 1, (3, 1))
    assert (black.dice_owner, black.turn, black.dice) == (0, 0, (3, 1))
    assert MatchInfo(dice=(1, 3)).dice == (3, 1)  # gnubg writes the higher die first
    assert white.game_state == black.game_state == GAME_PLAYING


def test_the_id_is_written_from_the_side_to_act() -> None:
    position = BackgammonPosition.from_notation(
        "tabla 2b/-/15w/-/-/-/-/-/-/-/-/5b/-/-/-/-/3b/-/5b/-/-/-/-/- 0,0 0,0 w -"
    )
    flipped = position.with_side(BLACK)
    assert encode_position_id(position) != encode_position_id(flipped)
    assert decode_position_id(encode_position_id(flipped), side=BLACK) == flipped


def test_other_tabla_family_games_share_the_ids() -> None:
    chelebi = ChelebiPosition.start()
    pid = encode_position_id(chelebi)
    assert pid == encode_position_id(BackgammonPosition.start())
    assert decode_position_id(pid, game="chelebi") == chelebi
    with pytest.raises(NotationError):
        decode_position_id(pid, game="abluka")


def test_combined_id_splits() -> None:
    assert split_gnubg_id("4HPwATDgc/ABMA:cAgAAAAAAAAA") == ("4HPwATDgc/ABMA", "cAgAAAAAAAAA")
    assert split_gnubg_id(" 4HPwATDgc/ABMA ") == ("4HPwATDgc/ABMA", None)


# ------------------------------------------------------------------ bad input
def key_text(bits: list[int], size: int) -> str:
    """Base64 of ``bits`` packed least significant bit first into ``size`` bytes."""
    key = sum(bit << index for index, bit in enumerate(bits))
    return base64.b64encode(key.to_bytes(size, "little")).decode().rstrip("=")


def unary(*halves: list[int]) -> list[int]:
    bits: list[int] = []
    for half in halves:
        for count in half:
            bits += [1] * count + [0]
    return bits


def match_key(owner: int = 3, state: int = 1, dice: tuple[int, int] = (0, 0), extra: int = 0) -> str:
    fields = [(0, 4), (owner, 2), (1, 1), (0, 1), (state, 3), (1, 1), (0, 1), (0, 2)]
    fields += [(dice[0], 3), (dice[1], 3), (0, 15), (0, 15), (0, 15), (0, 1), (extra, 5)]
    bits = [(value >> shift) & 1 for value, width in fields for shift in range(width)]
    return key_text(bits, 9)


EMPTY = [0] * 25
ON_24 = [0] * 23 + [1, 0]  # one checker on the player's own 24 point
ON_1 = [1] + [0] * 24  # one checker on his 1 point: the other player's 24


@pytest.mark.parametrize(
    ("pid", "reason"),
    [
        ("4HPwATDgc/ABM", "characters"),
        ("4HPwATDgc/ABMAA", "characters"),
        ("4HPwATDgc/AB!A", "base64"),
        ("//////////////", "more than 30"),
        (key_text(unary([16] + [0] * 24, EMPTY), 10), "16 checkers"),
        (key_text(unary(ON_24, ON_1) + [0] * 10 + [1], 10), "after the last point"),
        (key_text(unary(ON_24, ON_1), 10), "White's point 1 holds checkers of both sides"),
    ],
)
def test_bad_position_ids(pid: str, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        decode_position_id(pid)
    assert caught.value.field == "position id"
    assert reason in caught.value.reason


def test_a_position_id_is_read_for_white_or_black_to_act_only() -> None:
    with pytest.raises(NotationError) as caught:
        decode_position_id("4HPwATDgc/ABMA", side=2)
    assert (caught.value.field, caught.value.value) == ("side", "2")
    assert caught.value.reason == "expected 0 (White) or 1 (Black)"


def test_the_bad_id_helpers_make_good_ids_when_asked() -> None:
    assert key_text(unary(ON_24, ON_24), 10) == encode_position_id(
        BackgammonPosition((-1,) + (0,) * 22 + (1,), off=(14, 14))
    )
    assert match_key() == encode_match_id(MatchInfo())


@pytest.mark.parametrize(
    ("mid", "reason"),
    [
        ("cAgAAAAAAAA", "characters"),
        ("cAgAAAAAAA=A", "base64"),
        (match_key(owner=2), "cube owner"),
        (match_key(dice=(0, 7)), "not a roll"),
        (match_key(dice=(4, 0)), "not a roll"),
        (match_key(state=6), "game state"),
        (match_key(extra=1), "after the 67-bit key"),
    ],
)
def test_bad_match_ids(mid: str, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        decode_match_id(mid)
    assert caught.value.field == "match id"
    assert reason in caught.value.reason


CUBE_VALUES = "expected a power of two from 1 to 32768"
PLAYER = "expected player 0 or 1"
SCORES = "expected two scores 0-32767"


@pytest.mark.parametrize(
    ("fields", "field", "value", "reason"),
    [
        ({"cube_value": 3}, "cube", "3", CUBE_VALUES),
        ({"cube_value": 65536}, "cube", "65536", CUBE_VALUES),
        ({"cube_owner": 2}, "cube owner", "2", "expected 0, 1 or None (centred)"),
        ({"dice_owner": 2}, "dice owner", "2", PLAYER),
        ({"turn": 2}, "turn", "2", PLAYER),
        ({"game_state": 5}, "game state", "5", "expected 0-4"),
        ({"resign": 4}, "resignation", "4", "expected 0-3 (none, 1, 2 or 3 points)"),
        ({"dice": (0, 3)}, "dice", "(0, 3)", "expected two dice 1-6 or None"),
        ({"dice": (7, 1)}, "dice", "(7, 1)", "expected two dice 1-6 or None"),
        ({"match_length": 32768}, "match length", "32768", "expected 0-32767"),
        ({"score": (-1, 0)}, "score", "(-1, 0)", SCORES),
        ({"score": (32768, 0)}, "score", "(32768, 0)", SCORES),
        ({"score": (1, 2, 3)}, "score", "(1, 2, 3)", SCORES),
    ],
)
def test_bad_match_fields(fields: dict[str, Any], field: str, value: str, reason: str) -> None:
    """The fields of a Match ID are checked one by one, each refusal naming its field."""
    with pytest.raises(NotationError) as caught:
        MatchInfo(**fields)
    assert (caught.value.field, caught.value.value, caught.value.reason) == (field, value, reason)


def test_the_largest_match_fields_fit_a_match_id() -> None:
    """15 bits each: a match to 32767 at 32767 all is written and read back."""
    info = MatchInfo(match_length=32767, score=(32767, 32767), cube_value=32768, cube_owner=0)
    assert decode_match_id(encode_match_id(info)) == info


@pytest.mark.parametrize(
    ("dice", "reason"),
    [
        ((7, 3), "dice 7 and 3 are not a roll"),
        ((3, 7), "dice 3 and 7 are not a roll"),
        ((0, 7), "dice 0 and 7 are not a roll"),
        ((4, 0), "dice 4 and 0 are not a roll"),
    ],
)
def test_a_match_id_with_a_die_that_is_no_die_is_refused_whole(dice: tuple[int, int], reason: str) -> None:
    """A die field of 7 is refused even when the other die is a good one."""
    mid = match_key(dice=dice)
    with pytest.raises(NotationError) as caught:
        decode_match_id(mid)
    assert (caught.value.field, caught.value.value, caught.value.reason) == ("match id", mid, reason)


def test_a_bad_field_inside_a_match_id_is_reported_with_the_whole_id() -> None:
    mid = match_key(state=6)
    with pytest.raises(NotationError) as caught:
        decode_match_id(mid)
    assert (caught.value.field, caught.value.value, caught.value.reason) == (
        "match id",
        mid,
        "game state 6: expected 0-4",
    )


def test_a_position_id_read_for_a_game_without_the_tabla_board_is_refused() -> None:
    pid = encode_position_id(BackgammonPosition.start())
    with pytest.raises(NotationError) as caught:
        decode_position_id(pid, game="abluka")
    assert (caught.value.field, caught.value.value, caught.value.reason) == (
        "game",
        "abluka",
        "Position IDs describe tabla, antitabla, chelebi only",
    )


def test_dice_that_are_no_roll_to_play_stay_out_of_the_position() -> None:
    offered = encode_match_id(MatchInfo(double_offered=True, turn=0, dice=(3, 1)))
    position, info = from_gnubg_ids("4HPwATDgc/ABMA", offered)
    assert position.dice is None and info.dice == (3, 1)
    over = encode_match_id(MatchInfo(game_state=GAME_OVER, dice=(6, 6)))
    assert from_gnubg_ids("4HPwATDgc/ABMA", over)[0].dice is None
    playing = encode_match_id(MatchInfo(dice=(6, 6)))
    assert from_gnubg_ids("4HPwATDgc/ABMA", playing)[0].dice == (6, 6)


# ---------------------------------------------------------------- round trips
@st.composite
def positions(draw: st.DrawFn) -> BackgammonPosition:
    """Any arrangement of 15 checkers a side: points (never shared), bar and off."""
    owners = draw(st.lists(st.sampled_from([None, WHITE, BLACK]), min_size=24, max_size=24))
    counts = {WHITE: [0] * 26, BLACK: [0] * 26}  # 24 points (White's numbering), bar, off
    for player in (WHITE, BLACK):
        places = [index for index, owner in enumerate(owners) if owner == player] + [24, 25]
        for place in draw(st.lists(st.sampled_from(places), min_size=15, max_size=15)):
            counts[player][place] += 1
    points = tuple(counts[WHITE][i] - counts[BLACK][i] for i in range(24))
    return BackgammonPosition(
        points,
        bar=(counts[WHITE][24], counts[BLACK][24]),
        off=(counts[WHITE][25], counts[BLACK][25]),
        side=draw(st.sampled_from([WHITE, BLACK])),
    )


match_infos = st.builds(
    MatchInfo,
    cube_value=st.integers(0, 15).map(lambda log: 1 << log),
    cube_owner=st.sampled_from([None, 0, 1]),
    dice_owner=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.integers(0, 4),
    turn=st.integers(0, 1),
    double_offered=st.booleans(),
    resign=st.integers(0, 3),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    match_length=st.integers(0, 32767),
    score=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
    jacoby=st.none() | st.booleans(),
)


@given(positions())
def test_position_id_round_trip(position: BackgammonPosition) -> None:
    pid = encode_position_id(position)
    assert len(pid) == 14
    assert decode_position_id(pid, side=position.side) == position


@given(match_infos)
def test_match_id_round_trip(info: MatchInfo) -> None:
    mid = encode_match_id(info)
    assert len(mid) == 12
    assert decode_match_id(mid) == info


@given(positions(), st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_gnubg_ids_round_trip_with_dice(position: BackgammonPosition, dice: tuple[int, int]) -> None:
    if position.outcome() is None:
        position = position.with_roll(dice)
    pid, mid = to_gnubg_ids(position)
    back = from_gnubg_ids(pid, mid)[0]
    if position.dice is not None:  # a Match ID holds the higher die first
        position = replace(position, dice=(max(dice), min(dice)))
    assert back == position


# ------------------------------------------------------------------------ live
@pytest.mark.gnubg
@pytest.mark.skipif(shutil.which(GNUBG) is None, reason="GNU Backgammon is not installed")
def test_live_ids_agree_with_gnubg(tmp_path: Path) -> None:
    """Ask gnubg again (another seed) and compare the same way."""
    out = tmp_path / "ids.json"
    command = [sys.executable, "-m", "tests.oracle.make_fixtures", "ids", "--seed", "7", "--out", str(out)]
    subprocess.run(command, cwd=REPO, check=True, capture_output=True, timeout=300)
    fresh = load(out)
    test_position_ids_agree_with_gnubg(fresh)
    test_match_ids_agree_with_gnubg(fresh)
    test_real_gnubg_states_map_to_our_positions(fresh)
