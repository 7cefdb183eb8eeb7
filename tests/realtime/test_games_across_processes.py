"""One owner per live game across processes (docs/API.md 8): a player may be connected
to any process; the owner's lease and fence keep every change in one place.

Two ``create_app`` on one SQLite file and one Redis stand for two processes behind a
balancer; leases are short so that a takeover happens within the test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import sqlite3

from fastapi.testclient import TestClient
from tests.realtime.conftest import RedisServer
from tests.server.conftest import Player, Site, make_settings
from tests.server.play import Seat
from tests.server.served import first_legal

from tavla.match.record import MatchRecord, replay
from tavla.server.app import create_app
from tavla.server.settings import Settings

pytestmark = pytest.mark.timeout(90)

LEASE_MS = 1000


@pytest.fixture
def settings(tmp_path: Path, redis_server: RedisServer) -> Settings:
    return make_settings(f"sqlite:///{tmp_path / 'tavla.db'}", redis_url=redis_server.url, lease_ms=LEASE_MS)


def database(settings: Settings) -> sqlite3.Connection:
    return sqlite3.connect(settings.database_url.removeprefix("sqlite:///"))


def node_of(site: Site) -> str:
    return str(site.client.app.state.platform.relay.node)


def new_game(site: Site, maker: Player, taker: Player) -> str:
    made = site.post(maker, "/api/offers", {"game": "tabla", "length": 3, "cube": False})
    assert made.status_code == 201, made.text
    accepted = site.post(taker, f"/api/offers/{made.json()['id']}/accept", {})
    assert accepted.status_code == 200, accepted.text
    return str(accepted.json()["game_id"])


def seated(site: Site, player: Player, game_id: str) -> tuple[Any, Seat]:
    context = site.as_(player).websocket_connect(f"/ws/game/{game_id}")
    socket = context.__enter__()
    return context, Seat(socket)


def play(seats: dict[int, Seat], turns: int) -> int:
    """Play the first legal action in turn, ``turns`` intents at most or to the end;
    the intents acknowledged."""
    acked = 0
    for _ in range(turns):
        top = max(seat.state["v"] for seat in seats.values())
        for seat in seats.values():
            seat.read_state_until(top)
        match = seats[0].match
        if match["over"]:
            break
        actor = match["actor"]
        if actor is None:
            seats[0].read_state()
            continue
        action = first_legal(seats[actor].state)
        assert action is not None, seats[actor].state
        answer = seats[actor].send(action)
        assert answer["type"] == "ack", answer
        acked += 1
    return acked


def stored_record(settings: Settings, game_id: str) -> tuple[str, int, int]:
    """(owner, fence, number of actions) as stored."""
    with database(settings) as connection:
        owner, fence = connection.execute(
            "SELECT owner, fence FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        (count,) = connection.execute(
            "SELECT count(*) FROM game_actions WHERE game_id = ?", (game_id,)
        ).fetchone()
    return owner, fence, count


def test_players_on_two_processes_play_a_match_the_owner_runs(settings: Settings) -> None:
    with (
        TestClient(create_app(settings), base_url="http://testserver") as one,
        TestClient(create_app(settings), base_url="http://testserver") as two,
    ):
        first, second = Site(one), Site(two)
        ayse, mehmet = first.register("ayse"), second.register("mehmet")
        game_id = new_game(first, ayse, mehmet)
        # The game belongs to the process that made it; mehmet's socket is on the other.
        assert stored_record(settings, game_id)[:2] == (node_of(first), 1)
        context0, at_owner = seated(first, ayse, game_id)
        context1, relayed = seated(second, mehmet, game_id)
        seats = {at_owner.state["seat"]: at_owner, relayed.state["seat"]: relayed}
        assert set(seats) == {0, 1}
        assert game_id not in two.app.state.platform.rooms.rooms
        play(seats, 3000)
        assert at_owner.match["over"] and relayed.match == at_owner.match
        owner, fence, count = stored_record(settings, game_id)
        assert (owner, fence) == (node_of(first), 1)
        # A repeated intent from the relayed socket is acknowledged again, not replayed.
        last = relayed.seq
        relayed.socket.send_json({"type": "intent", "seq": last, "v": 0, "action": {"kind": "roll"}})
        answer = relayed.answer()
        assert (answer["type"], answer["seq"]) == ("ack", last)
        assert stored_record(settings, game_id)[2] == count
        record = MatchRecord.from_json(first.as_(ayse).get(f"/api/games/{game_id}/record").text)
        assert len(record.actions) == count
        assert replay(record).score == tuple(at_owner.match["score"])
        context1.__exit__(None, None, None)
        context0.__exit__(None, None, None)
