"""Rate limits on connections and actions, per address and per account (docs/API.md 9).

In one process the counts are kept in memory; tests/realtime/test_shared_limits.py
checks that several processes on one Redis share them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import Site, make_settings
from tests.server.play import Seat

from tavla.server.app import create_app
from tavla.server.limits import Limits, LocalLimit, client_address
from tavla.server.settings import Settings
from tavla.server.ws_guard import RATE_LIMITED

pytestmark = pytest.mark.timeout(60)


def limited_site(tmp_path: Path, **limits: Any) -> TestClient:
    return TestClient(
        create_app(make_settings(f"sqlite:///{tmp_path / 'tavla.db'}", **limits)),
        base_url="http://testserver",
    )


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[Site]:
    with limited_site(
        tmp_path, connections_per_minute_per_address=4, connections_per_minute_per_account=2
    ) as client:
        yield Site(client)


def refused(site: Site, url: str, **extra: Any) -> WebSocketDisconnect:
    with pytest.raises(WebSocketDisconnect) as caught, site.client.websocket_connect(url, **extra) as socket:
        socket.receive_json()
    return caught.value


def test_an_account_opening_too_many_sockets_is_refused_with_4429_and_a_reason_in_its_language(
    strict: Site,
) -> None:
    ayse = strict.register("ayse", language="tr")
    for _ in range(2):
        with strict.as_(ayse).websocket_connect("/ws/lobby") as socket:
            assert socket.receive_json()["type"] == "lobby"
    strict.as_(ayse)
    closed = refused(strict, "/ws/lobby")
    assert closed.code == RATE_LIMITED
    assert "çok fazla bağlantı" in closed.reason, closed.reason
    # Another account from the same address still connects: the account's count is its own.
    ivan = strict.register("ivan")
    with strict.as_(ivan).websocket_connect("/ws/lobby") as socket:
        assert socket.receive_json()["type"] == "lobby"


def test_an_address_opening_too_many_sockets_is_refused_and_a_forged_forwarded_for_does_not_help(
    strict: Site,
) -> None:
    strict.as_(None)
    for number in range(4):
        # The test client is no trusted proxy: the header it sends is not believed.
        headers = {"X-Forwarded-For": f"203.0.113.{number}"}
        with strict.client.websocket_connect("/ws/lobby", headers=headers) as socket:
            assert socket.receive_json()["type"] == "lobby"
    closed = refused(strict, "/ws/lobby", headers={"X-Forwarded-For": "198.51.100.7"})
    assert closed.code == RATE_LIMITED and "too many connections" in closed.reason


def test_behind_a_trusted_proxy_each_forwarded_address_counts_apart(tmp_path: Path) -> None:
    with limited_site(
        tmp_path, connections_per_minute_per_address=1, trusted_proxies=["testclient"]
    ) as client:
        site = Site(client)
        site.as_(None)
        for address in ("203.0.113.1", "203.0.113.2"):
            with client.websocket_connect("/ws/lobby", headers={"X-Forwarded-For": address}) as socket:
                assert socket.receive_json()["type"] == "lobby"
        closed = refused(site, "/ws/lobby", headers={"X-Forwarded-For": "203.0.113.1"})
        assert closed.code == RATE_LIMITED


def test_logins_from_one_untrusted_peer_count_together_whatever_it_forwards(tmp_path: Path) -> None:
    with limited_site(tmp_path, login_attempts_per_minute=2) as client:
        codes = []
        for number in range(8):
            response = client.post(
                "/api/login",
                json={"name": f"nobody{number}", "password": "wrong password"},
                headers={"X-Forwarded-For": f"203.0.113.{number}"},
            )
            codes.append(response.status_code)
        # Three times the per-name limit for one address, then 429 whatever the header says.
        assert codes[:6] == [401] * 6 and codes[6:] == [429, 429]
        assert int(response.headers["Retry-After"]) >= 1
        assert response.json()["error"]["code"] == "rate_limited"


def test_game_messages_count_per_account_over_all_its_sockets(tmp_path: Path) -> None:
    with limited_site(tmp_path, actions_per_second_per_account=6) as client:
        site = Site(client)
        host, guest = site.register("ayse"), site.register("ivan")
        offer = site.post(host, "/api/offers", {"game": "tabla"}).json()["id"]
        game = site.post(guest, f"/api/offers/{offer}/accept").json()["game_id"]
        with site.as_(host).websocket_connect(f"/ws/game/{game}") as first:
            one = Seat(first)
            with site.as_(host).websocket_connect(f"/ws/game/{game}") as second:
                two = Seat(second)
                with site.as_(guest).websocket_connect(f"/ws/game/{game}") as third:
                    opponent = Seat(third)
                    codes = []
                    for _ in range(5):  # 10 messages, 5 on each socket: over the account's 6
                        for seat in (one, two):
                            seat.socket.send_json({"type": "dance"})
                            codes.append(seat.answer()["code"])
                    assert codes.count("rate_limited") >= 3 and codes[0] == "malformed"
                    # The opponent's own account is not slowed down by it.
                    opponent.socket.send_json({"type": "dance"})
                    assert opponent.answer()["code"] == "malformed"


def test_client_address_believes_forwarded_for_only_from_a_trusted_proxy() -> None:
    forwarded = {"x-forwarded-for": "198.51.100.9, 10.0.0.5"}
    assert client_address("192.0.2.1", forwarded, ()) == "192.0.2.1"
    assert client_address("192.0.2.1", forwarded, ("10.0.0.5",)) == "192.0.2.1"
    assert client_address("10.0.0.5", forwarded, ("10.0.0.5",)) == "198.51.100.9"
    assert client_address("10.0.0.5", {}, ("10.0.0.5",)) == "10.0.0.5"
    assert client_address("10.0.0.5", {"x-forwarded-for": "not an address"}, ("10.0.0.5",)) == "10.0.0.5"
    assert client_address(None, forwarded, ()) == "?"


def test_a_local_limit_counts_each_key_apart() -> None:
    async def run() -> list[int]:
        limit = LocalLimit(2, 60)
        return [await limit.retry_after(key) for key in ("a", "a", "b", "a")]

    waits = asyncio.run(run())
    assert waits[:3] == [0, 0, 0] and waits[3] >= 1


def test_each_limit_allows_its_count_and_then_asks_to_wait_out_its_window() -> None:
    """The settings' counts per minute (per second for actions), one limit after another:
    the first refusal says how long until the window frees a place."""
    settings = Settings(
        database_url="sqlite://",
        login_attempts_per_minute=2,
        connections_per_minute_per_address=3,
        connections_per_minute_per_account=4,
        changes_per_minute=5,
        actions_per_second_per_account=6,
    )

    async def allowed_then_wait(limit: LocalLimit) -> tuple[int, int]:
        allowed = 0
        while (wait := await limit.retry_after("key")) == 0:
            allowed += 1
        return allowed, wait

    limits = Limits(settings)
    found = {
        name: asyncio.run(allowed_then_wait(limit))
        for name, limit in vars(limits).items()
        if isinstance(limit, LocalLimit)
    }
    assert found == {
        "login_by_name": (2, 60),
        "login_by_address": (6, 60),  # three names' worth from one address
        "connections_by_address": (3, 60),
        "connections_by_account": (4, 60),
        "changes": (5, 60),
        "actions_by_account": (6, 1),
    }


def test_changes_over_http_count_per_account_and_without_a_session_per_address(tmp_path: Path) -> None:
    with limited_site(tmp_path, changes_per_minute=3) as client:
        site = Site(client)
        ayse = site.register("ayse")  # the address's first change
        ivan = site.register("ivan")  # its second
        site.guest()  # its third
        client.cookies.clear()
        refused_guest = client.post("/api/guest", json={}, headers={"X-Forwarded-For": "203.0.113.9"})
        assert refused_guest.status_code == 429 and int(refused_guest.headers["Retry-After"]) >= 1
        assert refused_guest.json()["error"]["code"] == "rate_limited"
        codes = [site.post(ayse, "/api/offers", {"game": "tabla"}).status_code for _ in range(4)]
        assert codes == [201, 201, 201, 429]
        # Another account goes on: each counts its own.
        assert site.post(ivan, "/api/offers", {"game": "tapa"}).status_code == 201
        # Reading is not counted.
        assert site.as_(ayse).get("/api/lobby").status_code == 200


def test_binary_and_oversized_frames_count_against_the_socket_s_limit(tmp_path: Path) -> None:
    with limited_site(tmp_path, messages_per_second=3) as client:
        site = Site(client)
        player = site.register("ayse")
        with site.as_(player).websocket_connect(f"/ws/game/{site.bot_game(player, game='tapa')}") as socket:
            seat = Seat(socket)
            codes = []
            for number in range(6):
                if number % 2:
                    socket.send_bytes(b"\x00\x01")
                else:
                    socket.send_text("x" * 5000)
                codes.append(seat.answer()["code"])
            assert codes[:3] == ["malformed"] * 3 and "rate_limited" in codes[3:]
