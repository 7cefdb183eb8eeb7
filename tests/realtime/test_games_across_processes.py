"""One owner per live game across processes (docs/API.md 8): a player may be connected
to any process; the owner's lease and fence keep every change in one place.

Two ``create_app`` on one SQLite file and one Redis stand for two processes behind a
balancer; leases are short so that a takeover happens within the test.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import sqlite3
import time

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
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
    return str(site.platform.relay.node)


def new_game(site: Site, maker: Player, taker: Player) -> str:
    made = site.post(maker, "/api/offers", {"game": "tabla", "length": 1, "cube": False})
    assert made.status_code == 201, made.text
    accepted = site.post(taker, f"/api/offers/{made.json()['id']}/accept", {})
    assert accepted.status_code == 200, accepted.text
    return str(accepted.json()["game_id"])


def seated(sockets: ExitStack, site: Site, player: Player, game_id: str) -> Seat:
    """``player``'s socket to the game, closed with ``sockets`` (before the test clients:
    a client waits for its open sockets when it stops)."""
    return Seat(sockets.enter_context(site.as_(player).websocket_connect(f"/ws/game/{game_id}")))


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
        ExitStack() as stack,
    ):
        first, second = Site(one), Site(two)
        ayse, mehmet = first.register("ayse"), second.register("mehmet")
        game_id = new_game(first, ayse, mehmet)
        # The game belongs to the process that made it; mehmet's socket is on the other.
        assert stored_record(settings, game_id)[:2] == (node_of(first), 1)
        sockets = stack.enter_context(ExitStack())
        at_owner = seated(sockets, first, ayse, game_id)
        relayed = seated(sockets, second, mehmet, game_id)
        seats = {at_owner.state["seat"]: at_owner, relayed.state["seat"]: relayed}
        assert set(seats) == {0, 1}
        assert game_id not in second.platform.rooms.rooms
        play(seats, 3000)
        assert at_owner.match["over"] and relayed.match == at_owner.match
        owner, fence, count = stored_record(settings, game_id)
        assert (owner, fence) == (node_of(first), 1)
        # A repeated intent from the relayed socket is acknowledged again, not replayed.
        last = relayed.seq
        relayed.socket.send_json({"type": "intent", "seq": last, "v": 0, "action": {"kind": "roll"}})
        answer = relayed.answer()
        assert (answer["type"], answer["seq"]) == ("ack", last)
        # One older than the last (out of order): refused, and nothing stored either.
        relayed.socket.send_json({"type": "intent", "seq": last - 1, "v": 0, "action": {"kind": "roll"}})
        answer = relayed.answer()
        assert (answer["type"], answer["code"], answer["seq"]) == ("error", "old_seq", last - 1)
        assert stored_record(settings, game_id)[2] == count
        record = MatchRecord.from_json(first.as_(ayse).get(f"/api/games/{game_id}/record").text)
        assert len(record.actions) == count
        assert replay(record).score == tuple(at_owner.match["score"])
        # Coming back after the end, on the process that never ran the game: the match
        # as it ended, and every action refused as over, nothing stored.
        again = seated(sockets, second, mehmet, game_id)
        assert again.match == at_owner.match and again.state["seat"] == relayed.state["seat"]
        again.socket.send_json(
            {"type": "intent", "seq": again.seq + 1, "v": again.state["v"], "action": {"kind": "roll"}}
        )
        assert again.answer()["code"] == "over"
        assert stored_record(settings, game_id)[2] == count


def until(predicate: Any, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < deadline, "the awaited condition never came"
        time.sleep(0.02)


def closed_with(seat: Seat) -> int:
    """Read until the server closes the socket; its close code."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(200):
            seat.read()
    return int(closed.value.code)


def test_the_games_of_a_stopped_process_are_taken_over_and_its_relayed_players_come_back(
    settings: Settings,
) -> None:
    with TestClient(create_app(settings), base_url="http://testserver") as two, ExitStack() as sockets:
        second = Site(two)
        with (
            TestClient(create_app(settings), base_url="http://testserver") as one,
            ExitStack() as first_sockets,
        ):
            first = Site(one)
            ayse, mehmet = first.register("ayse"), second.register("mehmet")
            game_id = new_game(first, ayse, mehmet)
            at_owner = seated(first_sockets, first, ayse, game_id)
            relayed = seated(sockets, second, mehmet, game_id)
            seats = {at_owner.state["seat"]: at_owner, relayed.state["seat"]: relayed}
            assert play(seats, 12) == 12
            shown = relayed.state["v"]
        # The owner stopped: it let go of its lease; its heartbeat stops, and the
        # socket relayed to it is told to come back (1012, "service restart").
        assert closed_with(relayed) == 1012
        until(lambda: stored_record(settings, game_id)[0] == node_of(second))
        assert stored_record(settings, game_id)[1] == 2
        again = seated(sockets, second, mehmet, game_id)
        ayse_again = seated(sockets, second, ayse, game_id)
        assert again.state["v"] >= shown
        assert again.match == ayse_again.match
        play({again.state["seat"]: again, ayse_again.state["seat"]: ayse_again}, 3000)
        assert again.match["over"]
        record = MatchRecord.from_json(second.as_(ayse).get(f"/api/games/{game_id}/record").text)
        assert len(record.actions) == stored_record(settings, game_id)[2]
        assert replay(record).score == tuple(again.match["score"])


def test_an_owner_that_lost_its_lease_stores_nothing_more_and_its_players_follow_the_game(
    settings: Settings,
) -> None:
    with (
        TestClient(create_app(settings), base_url="http://testserver") as one,
        TestClient(create_app(settings), base_url="http://testserver") as two,
        ExitStack() as sockets,
    ):
        first, second = Site(one), Site(two)
        ayse, mehmet = first.register("ayse"), first.register("mehmet")
        game_id = new_game(first, ayse, mehmet)
        seat_a = seated(sockets, first, ayse, game_id)
        seat_m = seated(sockets, first, mehmet, game_id)
        seats = {seat_a.state["seat"]: seat_a, seat_m.state["seat"]: seat_m}
        play(seats, 6)
        # The first process freezes (its renewals stop) until its lease runs out and the
        # second takes the game over; then it wakes up, unaware.
        first.portal.call(stop_renewing, first.platform.rooms)
        until(lambda: stored_record(settings, game_id)[:2] == (node_of(second), 2))
        before = stored_record(settings, game_id)[2]
        top = max(seat.state["v"] for seat in seats.values())
        for seat in seats.values():
            seat.read_state_until(top)
        actor = seats[seat_a.match["actor"]]
        action = first_legal(actor.state) or {"kind": "roll"}
        actor.socket.send_json(
            {"type": "intent", "seq": actor.seq + 1, "v": actor.state["v"], "action": action}
        )
        answers: list[dict[str, Any]] = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(200):
                answers.append(actor.read())
        # Its store was refused under the old fence: nothing stored, the player told so,
        # and then told to reconnect.
        assert [m["code"] for m in answers if m["type"] in ("ack", "error")] == ["unavailable"]
        assert closed.value.code == 1012
        assert stored_record(settings, game_id)[2] == before
        assert game_id not in first.platform.rooms.rooms
        # Coming back to the same process, the players reach the game through it.
        seat_a = seated(sockets, first, ayse, game_id)
        seat_m = seated(sockets, first, mehmet, game_id)
        play({seat_a.state["seat"]: seat_a, seat_m.state["seat"]: seat_m}, 3000)
        assert seat_a.match["over"] and seat_m.match == seat_a.match
        owner, fence, count = stored_record(settings, game_id)
        assert (owner, fence) == (node_of(second), 2)
        record = MatchRecord.from_json(second.as_(ayse).get(f"/api/games/{game_id}/record").text)
        assert len(record.actions) == count
        assert replay(record).score == tuple(seat_a.match["score"])


async def stop_renewing(rooms: Any) -> None:
    """As a frozen process: no renewal goes out (its lease then runs out)."""
    if rooms._keeper is not None:
        rooms._keeper.cancel()
    with database_of(rooms) as connection:
        connection.execute("UPDATE games SET lease_until_ms = 0 WHERE owner = ?", (rooms.leases.node,))


def database_of(rooms: Any) -> sqlite3.Connection:
    return sqlite3.connect(str(rooms.engine.url.database))
