"""A tournament run from two processes at once (docs/API.md 8): a round is paired once,
and every board gets exactly one game, whichever process makes it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select
from tests.realtime.conftest import RedisServer
from tests.server.conftest import DATABASES, Site, _postgres_database, make_settings
from tests.server.federation_world import sync_url
from tests.server.test_tournaments import enter_people
from tests.server.tournament_world import World, build_world

from tavla.server.app import create_app
from tavla.storage.models import LiveGame, TournamentPairing

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(params=DATABASES)
def worlds(
    request: pytest.FixtureRequest, tmp_path: Path, redis_server: RedisServer
) -> Iterator[tuple[World, World]]:
    """One federation's world served by two processes on one database and one Redis."""
    url = _postgres_database() if request.param == "postgresql" else f"sqlite:///{tmp_path / 'tavla.db'}"
    for first in build_world(url, redis_url=redis_server.url, lease_ms=1000):
        settings = make_settings(url, redis_url=redis_server.url, lease_ms=1000)
        with TestClient(create_app(settings), base_url="http://testserver") as other:
            yield first, World(Site(other), url, first.people)


def boards_and_games(url: str, tournament: int) -> tuple[list[tuple[int, str | None]], int]:
    """Each board of the tournament with its game; and how many games the federation has."""
    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as connection:
            boards = connection.execute(
                select(TournamentPairing.round, TournamentPairing.game_id)
                .where(TournamentPairing.tournament_id == tournament)
                .order_by(TournamentPairing.id)
            ).all()
            games = connection.execute(select(func.count()).select_from(LiveGame)).scalar_one()
    finally:
        engine.dispose()
    return [(row[0], row[1]) for row in boards], int(games)


def test_a_round_started_on_two_processes_at_once_gets_one_game_per_board(
    worlds: tuple[World, World],
) -> None:
    first, second = worlds
    tournament = first.create(game="tabla", format="swiss", rounds=3, match_lengths=[3])
    enter_people(first, tournament, ("ali", "bora", "cem", "deniz"))
    _, games_before = boards_and_games(first.database_url, tournament)
    answers: list[Any] = []
    barrier = threading.Barrier(2)

    def start(world: World) -> None:
        barrier.wait()
        answers.append(world.send("POST", "admin", f"/api/tournaments/{tournament}/rounds"))

    threads = [threading.Thread(target=start, args=(world,)) for world in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    codes = sorted(answer.status_code for answer in answers)
    # Both made round 1's missing games, or the later one found round 1 under way.
    assert codes in ([201, 201], [201, 409]), [answer.text for answer in answers]
    boards, games = boards_and_games(first.database_url, tournament)
    assert [number for number, _ in boards] == [1, 1]
    made = [game for _, game in boards]
    assert None not in made and len(set(made)) == 2
    # No game beyond the boards' own: a duplicate made by the race was discarded.
    assert games - games_before == 2
    view = first.view(tournament)
    assert view["current_round"] == 1
