"""The board model behind every picture: numbering and counts from TPN facts (RULES.md 1.1-1.2)."""

from __future__ import annotations

import pytest
from tests.cli.cli_helpers import START, tpn

from tavla.core.protocol import BLACK, WHITE
from tavla.render.board import (
    Checker,
    board_view,
    extra_lines,
    own_point,
    player_summary,
    status_line,
    white_point,
)


@pytest.mark.parametrize("same_direction", [False, True])
def test_own_point_inverts_white_point(same_direction: bool) -> None:
    for player in (WHITE, BLACK):
        for point in range(1, 25):
            assert own_point(white_point(point, player, same_direction), player, same_direction) == point


def test_gulbara_numbering_follows_rules_1_1() -> None:
    # RULES.md 1.1/6.1: my n is the opponent's ((n+11) mod 24)+1: my 12 is his 24.
    assert white_point(24, BLACK, same_direction=True) == 12
    assert own_point(12, BLACK, same_direction=True) == 24
    assert own_point(24, BLACK, same_direction=True) == 12  # White's start is Black's 12
    assert white_point(13, BLACK, same_direction=True) == 1


def test_gulbara_start_seen_by_black() -> None:
    view = board_view(tpn({12: "15b", 24: "15w"}, side="b", game="gulbara") + " r=1,0")
    assert view.points[23] == ((15, BLACK),)
    assert view.points[11] == ((15, WHITE),)
    assert view.pips == (15 * 24, 15 * 24)
    assert status_line(view) == "Black to roll"
    assert extra_lines(view) == ["rolls made: White 1, Black 0"]


def test_checkers_on_the_bar_count_25_pips_for_either_side() -> None:
    view = board_view(tpn({1: "1b", 6: "13w", 13: "12b"}, bar="1,2", off="1,0", side="b", dice="52"))
    # White's 1 is Black's 24, White's 13 his 12: pips are counted for each side in its own numbering.
    assert view.pips == (13 * 6 + 25, 24 + 12 * 12 + 2 * 25)


def test_opposite_directions_seen_by_black() -> None:
    view = board_view(START.replace(" w -", " b 31"))
    assert view.points[5] == ((5, BLACK),)  # Black's 6 is White's 19
    assert view.points[23] == ((2, BLACK),)
    assert view.points[0] == ((2, WHITE),)  # White's 24 is Black's 1
    assert view.pips == (167, 167)
    assert status_line(view) == "Black to play 3-1"


def test_tapa_pins_are_kept_in_the_stack() -> None:
    # RULES.md 5: 1b2w is a black checker pinned under two white ones.
    view = board_view(tpn({1: "1b2w", 6: "13w", 13: "14b"}, game="tapa", dice="52"))
    assert view.checkers(1) == [Checker(BLACK, True), Checker(WHITE, False), Checker(WHITE, False)]
    # Black's pinned checker is on his own 24: 24 + 14 * 12 pips.
    assert view.pips == (2 * 1 + 13 * 6, 24 + 14 * 12)


def test_indiyka_counts_checkers_not_yet_entered() -> None:
    # RULES.md 1.2/7: checkers neither on a point, the bar nor off are not yet entered.
    view = board_view(tpn({1: "3w", 2: "2w", 24: "2b"}, game="indiyka", dice="31"))
    assert view.not_entered == (10, 13)
    assert view.pips is None
    assert player_summary(view, WHITE) == "White: bar 0, off 0, not entered 10"
    assert view.points[0] == ((3, WHITE),)


def test_gulbara_completion_is_described() -> None:
    # RULES.md 6.3: c= names the dice the side to act must first play.
    view = board_view(tpn({1: "15w", 20: "15b"}, game="gulbara", side="w") + " c=5566 r=3,3")
    assert status_line(view) == "White to complete the opponent's double: 5 5 6 6"
