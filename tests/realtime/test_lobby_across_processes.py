"""Two servers on one database and one Redis (docs/API.md 8): the lobby is one.

Two ``create_app`` with the same SQLite file and the same ``TAVLA_REDIS_URL`` stand
for two processes behind a balancer; a player may be connected to either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import itertools

from fastapi.testclient import TestClient
from tests.realtime.conftest import RedisServer
from tests.server.conftest import Site, make_settings
from tests.server.test_lobby import MAX_MESSAGES, lobby_until, make_offer, offer_ids

from tavla.realtime.hub import Hub
from tavla.realtime.redis_hub import RedisHub
from tavla.server.app import create_app
from tavla.server.settings import Settings

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def two_sites(tmp_path: Path, redis_server: RedisServer) -> Iterator[tuple[Site, Site]]:
    settings = make_settings(f"sqlite:///{tmp_path / 'tavla.db'}", redis_url=redis_server.url)
    with (
        TestClient(create_app(settings), base_url="http://testserver") as first,
        TestClient(create_app(settings), base_url="http://testserver") as second,
    ):
        yield Site(first), Site(second)


def test_an_offer_made_on_one_server_appears_on_a_lobby_connected_to_the_other(
    two_sites: tuple[Site, Site],
) -> None:
    first, second = two_sites
    assert isinstance(first.platform.hub, RedisHub)
    ayse = first.register("ayse")
    mehmet = second.register("mehmet")
    with second.as_(mehmet).websocket_connect("/ws/lobby") as watching:
        assert lobby_until(watching, lambda m: True)["offers"] == []
        offer = make_offer(first, ayse)
        shown = lobby_until(watching, lambda m: offer in offer_ids(m))
        assert next(row for row in shown["offers"] if row["id"] == offer)["by"] == "ayse"
        assert first.delete(ayse, f"/api/offers/{offer}").status_code == 200
        lobby_until(watching, lambda m: offer not in offer_ids(m))


def test_an_offer_accepted_on_one_server_tells_its_maker_on_the_other(two_sites: tuple[Site, Site]) -> None:
    first, second = two_sites
    ayse, mehmet = second.register("ayse"), first.register("mehmet")
    offer = make_offer(second, ayse)
    with second.as_(ayse).websocket_connect("/ws/lobby") as own:
        lobby_until(own, lambda m: offer in offer_ids(m))
        accepted = first.post(mehmet, f"/api/offers/{offer}/accept", {})
        assert accepted.status_code == 200, accepted.text
        game_id = accepted.json()["game_id"]
        for _ in range(MAX_MESSAGES):
            message = own.receive_json()
            if message["type"] == "started":
                assert message["game_id"] == game_id
                break
        else:
            raise AssertionError("the maker never heard that the game started")


def test_the_hub_stays_in_memory_unless_a_redis_url_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = f"sqlite:///{tmp_path / 'tavla.db'}"
    assert type(create_app(make_settings(database)).state.platform.hub) is Hub
    monkeypatch.setenv("TAVLA_REDIS_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("TAVLA_REDIS_PREFIX", "site2:")
    settings = Settings(database_url=database)
    hub = create_app(settings).state.platform.hub
    assert isinstance(hub, RedisHub)
    assert (hub.url, hub.prefix) == ("redis://127.0.0.1:6379/0", "site2:")


def test_each_server_numbers_its_own_snapshots_and_lists_the_games_of_the_other(
    two_sites: tuple[Site, Site],
) -> None:
    """A lobby connection hears one server only, in one sequence: every snapshot's ``v``
    is above the one before. A game begun on the first server, which the second has
    never loaded, is listed on the second from the database, in every snapshot."""
    first, second = two_sites
    ayse, mehmet = first.register("ayse"), second.register("mehmet")
    with second.as_(mehmet).websocket_connect("/ws/lobby") as watching:
        heard: list[dict[str, Any]] = []

        def hear_until(done: Callable[[dict[str, Any]], bool]) -> None:
            for _ in range(MAX_MESSAGES):
                message = watching.receive_json()
                if message["type"] == "lobby":
                    heard.append(message)
                    if done(message):
                        return
            raise AssertionError("the awaited lobby never came")

        hear_until(lambda m: True)
        offer = make_offer(first, ayse)
        hear_until(lambda m: offer in offer_ids(m))
        game_id = first.bot_game(ayse, game="tabla")
        hear_until(lambda m: game_id in live_ids(m))
        later = make_offer(first, ayse)
        hear_until(lambda m: later in offer_ids(m))
        here = make_offer(second, mehmet)  # a snapshot the second server makes itself
        hear_until(lambda m: here in offer_ids(m))
        numbers = [message["v"] for message in heard]
        assert all(b > a for a, b in itertools.pairwise(numbers)), numbers
        since = next(n for n, message in enumerate(heard) if game_id in live_ids(message))
        assert all(game_id in live_ids(message) for message in heard[since:])
        entry = next(entry for entry in heard[-1]["live"] if entry["id"] == game_id)
        assert "ayse" in entry["players"] and entry["game"] == "tabla"
        assert game_id not in second.platform.rooms.rooms


def live_ids(message: dict[str, Any]) -> set[str]:
    return {entry["id"] for entry in message["live"]}
