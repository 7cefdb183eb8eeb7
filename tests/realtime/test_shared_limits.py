"""Rate limits shared through Redis (docs/API.md 9): two processes on one Redis give an
attacker no more than one would; without Redis, or while it is away, each process
counts alone."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.realtime.conftest import RedisServer
from tests.server.conftest import Site, make_settings

from tavla.server import limits as limits_module
from tavla.server.app import create_app
from tavla.server.limits import Limits, LocalLimit, RedisLimit
from tavla.server.settings import Settings
from tavla.server.ws_guard import RATE_LIMITED

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def two_sites(tmp_path: Path, redis_server: RedisServer) -> Iterator[tuple[Site, Site]]:
    settings = make_settings(
        f"sqlite:///{tmp_path / 'tavla.db'}",
        redis_url=redis_server.url,
        connections_per_minute_per_address=4,
        login_attempts_per_minute=1,
    )
    with (
        TestClient(create_app(settings), base_url="http://testserver") as first,
        TestClient(create_app(settings), base_url="http://testserver") as second,
    ):
        yield Site(first), Site(second)


def test_connections_from_one_address_count_once_over_both_processes(two_sites: tuple[Site, Site]) -> None:
    first, second = two_sites
    for site in (first, second, first, second):
        with site.as_(None).websocket_connect("/ws/lobby") as socket:
            assert socket.receive_json()["type"] == "lobby"
    for site in (first, second):
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            site.as_(None).websocket_connect("/ws/lobby") as socket,
        ):
            socket.receive_json()
        assert refused.value.code == RATE_LIMITED


def test_login_attempts_count_once_over_both_processes(two_sites: tuple[Site, Site]) -> None:
    first, second = two_sites
    codes = []
    for number in range(5):
        site = (first, second)[number % 2]
        answer = site.as_(None).post("/api/login", json={"name": f"x{number}", "password": "wrong one"})
        codes.append(answer.status_code)
    # Three attempts per address a minute (three times the per-name limit of one).
    assert codes == [401, 401, 401, 429, 429]


def test_the_limits_live_in_redis_only_when_a_redis_url_is_set(tmp_path: Path) -> None:
    limits = Limits(Settings(database_url=f"sqlite:///{tmp_path / 't.db'}"))
    assert not limits.shared and isinstance(limits.connections_by_address, LocalLimit)


def test_a_shared_limit_counts_in_this_process_while_redis_is_away(redis_server: RedisServer) -> None:
    async def run() -> tuple[list[int], list[int]]:
        settings = Settings(database_url="sqlite://", redis_url=redis_server.url, login_attempts_per_minute=2)
        one, other = Limits(settings), Limits(settings)
        try:
            limit = one.login_by_name
            assert isinstance(limit, RedisLimit)
            shared = [await limit.retry_after("ayse"), await other.login_by_name.retry_after("ayse")]
            shared.append(await limit.retry_after("ayse"))
            redis_server.kill()
            alone = [await other.login_by_name.retry_after("ivan") for _ in range(3)]
            # Each name keeps its own count meanwhile: ivan's tries do not stop elif.
            alone.append(await other.login_by_name.retry_after("elif"))
            return shared, alone
        finally:
            await one.close()
            await other.close()

    shared, alone = asyncio.run(run())
    assert shared[:2] == [0, 0] and shared[2] >= 1
    assert alone[:2] == [0, 0] and alone[2] >= 1 and alone[3] == 0


def test_a_shared_limit_waits_two_seconds_at_most_for_a_redis_that_never_answers(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A frozen Redis (SIGSTOP: the connection open, nothing said) holds no sign-in up
    for longer than the limits' timeout: the process counts alone meanwhile."""

    async def run() -> tuple[int, float]:
        settings = Settings(database_url="sqlite://", redis_url=redis_server.url, login_attempts_per_minute=2)
        limits = Limits(settings)
        loop = asyncio.get_running_loop()
        try:
            assert await limits.login_by_name.retry_after("ayse") == 0  # connected, and counted
            redis_server.pause()
            try:
                began = loop.time()
                answer = await asyncio.wait_for(limits.login_by_name.retry_after("ayse"), 10)
                return answer, loop.time() - began
            finally:
                redis_server.resume()
        finally:
            await limits.close()

    answer, waited = asyncio.run(run())
    assert answer == 0 and waited < 4
    # The operator is told which limit counts alone, and why.
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warned == ["rate limit tavla:limit:login:name counted in this process only: Timeout reading from "
                      f"127.0.0.1:{redis_server.port}"]  # fmt: skip


def test_a_burst_across_the_boundary_of_two_windows_is_counted_whole(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [60.0 * 29_000_000 - 0.5]  # half a second before a minute's window ends
    monkeypatch.setattr(limits_module, "time", SimpleNamespace(time=lambda: clock[0]))

    async def run() -> tuple[list[int], int, int, int]:
        settings = Settings(database_url="sqlite://", redis_url=redis_server.url, login_attempts_per_minute=3)
        limits = Limits(settings)
        try:
            limit = limits.login_by_name
            burst = [await limit.retry_after("ayse") for _ in range(3)]
            clock[0] += 1.0  # the next window has begun
            refused = await limit.retry_after("ayse")
            # 45 s on, the burst weighs what is left of its window's minute (a quarter):
            # 3 x 0.24 with the two of this window, within the 3 allowed.
            clock[0] += 45.0
            fading = await limit.retry_after("ayse")
            clock[0] += 60.0  # a minute later the burst is forgotten
            allowed = await limit.retry_after("ayse")
            return burst, refused, fading, allowed
        finally:
            await limits.close()

    burst, refused, fading, allowed = asyncio.run(run())
    assert burst == [0, 0, 0]
    assert refused == 60  # the wait until this window ends, rounded up: 59.5 s
    assert fading == 0
    assert allowed == 0
