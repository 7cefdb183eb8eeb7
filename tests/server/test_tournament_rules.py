"""The Turkish tournament rules a federation's tournament games follow (RULES.md 8.3,
11.4; docs/tournaments.md): the breaks by match length, Abluka's sets under the
sudden-death clock, and a match lost by warnings reaching the tournament's result."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.server.play import Seat
from tests.server.test_tournaments import enter_people, only_board
from tests.server.tournament_world import World, build_world

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    yield from build_world(database_url)


def first_match(
    world: World, names: tuple[str, str], **choice: Any
) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """A tournament of ``names`` with ``choice``, its first round started: the tournament,
    its only board, and the match as the white player's board shows it."""
    tournament = world.create(format="swiss", rounds=1, **choice)
    enter_people(world, tournament, names)
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    board = only_board(world.view(tournament))
    with world.site.as_(world.people[board["white"]]).websocket_connect(
        f"/ws/game/{board['game_id']}"
    ) as socket:
        match = Seat(socket).state["match"]
    return tournament, board, match


def test_a_match_up_to_11_points_gives_one_break_each_and_from_13_two(world: World) -> None:
    """RULES.md 11.4: 1 break per player up to 11 points, 2 from 13; a break is 5
    minutes between games (the library's rule, tested in test_cube_resign_break.py)."""
    _, _, eleven = first_match(world, ("ali", "bora"), game="tabla", match_lengths=[11])
    assert eleven["settings"]["length"] == 11 and eleven["breaks_left"] == [1, 1]
    _, _, thirteen = first_match(world, ("cem", "deniz"), game="tabla", match_lengths=[13])
    assert thirteen["settings"]["length"] == 13 and thirteen["breaks_left"] == [2, 2]
    assert thirteen["settings"]["clock"]["reserve_ms"] == 13 * 2 * 60_000  # RULES.md 10


def test_an_abluka_round_is_three_sets_under_the_15_minute_sudden_death_clock(world: World) -> None:
    """RULES.md 8.3: by default a round is 3 sets, each player's 15 minutes for the whole
    match, a fallen flag losing it; a round's own number of sets is kept."""
    _, _, default = first_match(world, ("ali", "bora"), game="abluka")
    assert default["settings"]["game"] == "abluka" and default["settings"]["sets"] == 3
    assert default["settings"]["clock"] == {
        "move_ms": 0,
        "reserve_ms": 15 * 60_000,
        "per_game": False,
        "flag_loses": "match",
    }
    _, _, five = first_match(world, ("cem", "deniz"), game="abluka", match_lengths=[5])
    assert five["settings"]["sets"] == 5 and five["settings"]["clock"]["reserve_ms"] == 15 * 60_000


def test_a_match_lost_by_three_warnings_is_the_rounds_result(world: World) -> None:
    tournament, board, _ = first_match(world, ("ali", "bora"), game="tabla", match_lengths=[3])
    warned = board["white"]
    seat_of_warned = 0
    for who in ("arbiter", "admin", "arbiter"):
        given = world.ok("POST", who, f"/api/games/{board['game_id']}/warnings", {"seat": seat_of_warned})
    assert given["over"] is True and given["winner"] == 1 and given["warnings"] == [3, 0]
    shown = world.wait(tournament, lambda v: only_board(v)["result"] is not None, "the result")
    assert only_board(shown)["result"] == "black"
    world.ok("POST", "arbiter", f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm")
    final = world.view(tournament)
    assert final["state"] == "finished"
    ranks = {line["name"]: line["rank"] for line in final["standings"]}
    assert ranks[warned] == 2 and ranks[board["black"]] == 1
