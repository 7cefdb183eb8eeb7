"""The tournament's view reads one moment of the database: a round that finishes while
the view is being read shows wholly or not at all, never the standings of one moment
with the state of another (docs/tournaments.md, "Reading it")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, event, update
from tests.server.federation_world import sync_url
from tests.server.test_tournaments import enter_people, only_board, resign
from tests.server.tournament_world import World, build_world

from tavla.storage.models import Tournament, TournamentPairing


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    yield from build_world(database_url)


class FinishesMidRead:
    """Before the view reads the boards, another connection makes the last round official
    and finishes the tournament, as the director does when its last game ends."""

    def __init__(self, database_url: str, tournament: int) -> None:
        self.database_url = database_url
        self.tournament = tournament
        self.armed = False
        self.fired = 0

    def __call__(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        reads_boards = (
            statement.lstrip().upper().startswith("SELECT") and "FROM tournament_pairings" in statement
        )
        if not (self.armed and reads_boards):
            return
        self.armed = False
        self.fired += 1
        engine = create_engine(sync_url(self.database_url))
        try:
            with engine.begin() as other:
                other.execute(
                    update(TournamentPairing)
                    .where(TournamentPairing.tournament_id == self.tournament)
                    .values(white_confirmed=True, black_confirmed=True, official=True)
                )
                other.execute(
                    update(Tournament).where(Tournament.id == self.tournament).values(state="finished")
                )
        finally:
            engine.dispose()


@pytest.mark.timeout(120)
def test_a_round_finishing_while_the_view_is_read_is_not_half_shown(world: World) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=1, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    board = only_board(world.view(tournament))
    resign(world, board["game_id"], loser="bora", winner="ali")
    before = world.wait(tournament, lambda v: only_board(v)["result"] is not None, "the result")
    assert before["state"] == "running" and before["standings_after"] == 0

    engine = world.site.platform.sessions.kw["bind"].sync_engine
    finishing = FinishesMidRead(world.database_url, tournament)
    event.listen(engine, "before_cursor_execute", finishing)
    try:
        for path in (f"/api/tournaments/{tournament}", f"/tournaments/{tournament}"):
            finishing.armed = True
            shown = world.site.as_(None).get(path)
            assert shown.status_code == 200 and finishing.fired
            if path.startswith("/api"):
                view = shown.json()
                # As it was when the read began: still running, round 1 not yet official.
                assert (view["state"], view["standings_after"]) == ("running", 0), view
                assert not only_board(view)["official"]
            else:
                assert "Final standings" not in shown.text and "Standings after round 1" not in shown.text
            # Put it back for the page's turn.
            reset = create_engine(sync_url(world.database_url))
            with reset.begin() as other:
                other.execute(update(TournamentPairing).values(official=False))
                other.execute(update(Tournament).values(state="running"))
            reset.dispose()
    finally:
        event.remove(engine, "before_cursor_execute", finishing)
    assert finishing.fired == 2
