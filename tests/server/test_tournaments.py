"""Tournaments on the server (docs/tournaments.md): run through the API to their final
standings with bot entrants, results confirmed by both players or an arbiter, and
every forbidden action refused with nothing changed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.server.tournament_world import World, build_world


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    yield from build_world(database_url)


def run_to_the_end(world: World, tournament: int, bots: int, level: str = "beginner") -> dict[str, Any]:
    """Open registration, enter ``bots`` bots, open check-in and play every round."""
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/registration")
    for _ in range(bots):
        world.ok("POST", "admin", f"/api/tournaments/{tournament}/bots", {"level": level})
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/check-in")
    number = 0
    while True:
        number = world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")["round"]
        shown = world.wait_round_official(tournament, number)
        if shown["state"] == "finished":
            return shown


def test_a_six_player_swiss_abluka_tournament_of_bots_runs_to_its_final_standings(world: World) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=3, match_lengths=[1])
    final = run_to_the_end(world, tournament, bots=6)
    assert final["state"] == "finished" and final["current_round"] == 3 and final["rounds"] == 3
    rounds = final["played_rounds"]
    assert [len(r["pairings"]) for r in rounds] == [3, 3, 3]
    met = set()
    for played in rounds:
        boards = played["pairings"]
        assert sorted(n for p in boards for n in (p["white_number"], p["black_number"])) == [1, 2, 3, 4, 5, 6]
        for pairing in boards:
            assert pairing["official"] and pairing["white_confirmed"] and pairing["black_confirmed"]
            assert pairing["result"] in ("white", "black")
            assert pairing["game_url"] == f"/game/{pairing['game_id']}"
            pair = frozenset((pairing["white_number"], pairing["black_number"]))
            assert pair not in met  # no pair meets twice (RULES 11.3)
            met.add(pair)
    # The games are the federation's, finished; one match point per game.
    games = world.games(tournament)
    assert len(games) == 9 and {status for _, status in games.values()} == {"finished"}
    assert len({federation for federation, _ in games.values()}) == 1
    standings = final["standings"]
    assert sum(line["points"] for line in standings) == 9
    assert [line["rank"] for line in standings] == sorted(line["rank"] for line in standings)
    assert standings[0]["points"] >= standings[-1]["points"]
    ranks = {e["start_number"]: e["final_rank"] for e in final["entrants"]}
    assert ranks == {line["number"]: line["rank"] for line in standings}
