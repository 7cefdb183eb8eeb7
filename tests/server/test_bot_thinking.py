"""The bots think in worker processes (tavla.server.live.thinking, docs/deploy.md).

What is checked: a worker gives the answer the engine gives in the server's own
process, from another process, at a lower CPU priority; a worker killed mid-life is
replaced and the bot plays on; stopping ends the workers, and so does a server killed
outright; a site's bot game is played to its end through them, and analysed there.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.cluster.test_cluster import alive
from tests.server.conftest import Site, make_settings
from tests.server.play import Seat
from tests.server.test_live import play_out

import tavla
import tavla.engine.builtin
from tavla.analysis.report import analyze
from tavla.bots.network import Network
from tavla.bots.search import SearchSettings
from tavla.engine.registry import engine_for
from tavla.match.record import MatchRecord
from tavla.server.analysis import analysis_json
from tavla.server.app import create_app
from tavla.server.live import thinking as thinking_module
from tavla.server.live.thinking import (
    MOST_BY_DEFAULT,
    SERVER_CHECK_S,
    WORKER_NICENESS,
    BotThinking,
    default_processes,
)

pytestmark = pytest.mark.timeout(120)


def tapa_position() -> Any:
    return tavla.find_game("tapa").start().with_side(0).with_roll((6, 4))


def middle_game() -> Any:
    """A tapa position 30 random turns in, dice rolled: level ``max`` searches it for
    some seconds."""
    rng = random.Random(5)
    position = tavla.find_game("tapa").start().with_side(0)
    for _ in range(30):
        position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
        position = rng.choice(position.legal_turns()).after
    return position.with_roll((3, 1))


async def worker_facts(thinking: BotThinking) -> tuple[int, int]:
    """(pid, niceness) of a worker, asked through the pool itself."""
    loop = asyncio.get_running_loop()
    pool = thinking._pool()
    pid = await loop.run_in_executor(pool, os.getpid)
    niceness = await loop.run_in_executor(pool, os.nice, 0)
    return pid, niceness


def test_a_worker_answers_as_the_engine_does_from_another_process_at_a_lower_priority() -> None:
    async def scenario() -> tuple[dict[str, Any], int, int]:
        thinking = BotThinking(1)
        try:
            reply = await thinking.call("move", "tapa", middle_game(), "medium", 1000)
            pid, niceness = await worker_facts(thinking)
        finally:
            await thinking.aclose()
        return reply, pid, niceness

    reply, pid, niceness = asyncio.run(scenario())
    here = engine_for("tapa").move(middle_game(), "medium", 1000)
    assert reply["move"] == here["move"] and reply["after"] == here["after"]
    assert reply["equity"] == here["equity"]
    assert pid != os.getpid()
    assert niceness == min(19, os.nice(0) + WORKER_NICENESS)


MARKER_IN_THE_WORKER = (
    "getattr(__import__('sys').modules.get('tavla.server.live.thinking'), 'marker_of_a_test', None)"
)
"""Read in the worker by ``eval``: a worker process cannot import this test module."""


def test_the_workers_start_afresh_and_copy_nothing_of_the_server_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Spawned, not forked: a fork would copy the server's memory, its threads' locks
    held in mid-step among it, into every worker."""
    monkeypatch.setattr(thinking_module, "marker_of_a_test", "the server's", raising=False)

    async def scenario() -> object:
        thinking = BotThinking(1)
        try:
            return await thinking.run(eval, MARKER_IN_THE_WORKER)
        finally:
            await thinking.aclose()

    assert eval(MARKER_IN_THE_WORKER) == "the server's"
    assert asyncio.run(scenario()) is None


def test_a_thread_when_asked_for_no_processes() -> None:
    async def scenario() -> int:
        thinking = BotThinking(0)
        try:
            start = tavla.find_game("tabla").start().with_side(0)
            await thinking.call("double", "tabla", start, None, "medium")
            return await asyncio.get_running_loop().run_in_executor(thinking._pool(), os.getpid)
        finally:
            await thinking.aclose()

    assert asyncio.run(scenario()) == os.getpid()
    with pytest.raises(ValueError):
        BotThinking(-1)


def _held(release: threading.Event, ran: list[str], name: str) -> str:
    release.wait(10)
    ran.append(name)
    return name


def test_stopping_lets_the_running_call_finish_and_drops_the_waiting_ones() -> None:
    # A server stopping waits for the bot that is thinking, not for every bot queued
    # behind it (their games are taken over by the next process).
    ran: list[str] = []

    async def scenario() -> None:
        thinking = BotThinking(0)
        release = threading.Event()
        running = asyncio.ensure_future(thinking.run(_held, release, ran, "running"))
        waiting = asyncio.ensure_future(thinking.run(_held, release, ran, "waiting"))
        await asyncio.sleep(0.1)
        stopping = asyncio.ensure_future(thinking.aclose())
        await asyncio.sleep(0.1)
        release.set()
        await asyncio.wait_for(stopping, 10)
        assert await running == "running"
        await asyncio.wait([waiting])
        assert waiting.cancelled()

    asyncio.run(scenario())
    assert ran == ["running"]


def test_a_killed_worker_is_replaced_and_the_bot_answers() -> None:
    thinking = BotThinking(1)

    async def scenario() -> tuple[int, int, dict[str, Any]]:
        try:
            first, _ = await worker_facts(thinking)
            os.kill(first, signal.SIGKILL)
            reply = await thinking.call("move", "tapa", tapa_position(), "medium", 1000)
            second, _ = await worker_facts(thinking)
        finally:
            await thinking.aclose()
        return first, second, reply

    first, second, reply = asyncio.run(scenario())
    assert second != first and thinking.replaced == 1
    assert reply["move"] == engine_for("tapa").move(tapa_position(), "medium", 1000)["move"]


def test_calls_cut_off_together_by_dead_workers_are_all_answered() -> None:
    """Both calls of a pool whose workers die mid-search come back through one new pool:
    the second to notice does not throw away the pool the first started."""

    position = middle_game()

    thinking = BotThinking(2)

    async def scenario() -> list[dict[str, Any]]:
        try:
            await asyncio.gather(worker_facts(thinking), worker_facts(thinking))  # the workers are up
            workers = list(thinking._pool()._processes)  # type: ignore[attr-defined]
            calls = [
                asyncio.ensure_future(thinking.call("move", "tapa", position, "max", 5000)) for _ in range(2)
            ]
            await asyncio.sleep(0.3)
            assert not any(call.done() for call in calls)  # both are searching
            for pid in workers:
                os.kill(pid, signal.SIGKILL)
            return list(await asyncio.gather(*calls))
        finally:
            await thinking.aclose()

    replies = asyncio.run(scenario())
    assert replies[0]["move"] == replies[1]["move"]
    assert thinking.replaced == 1


def test_stopping_ends_the_workers() -> None:
    async def scenario() -> int:
        thinking = BotThinking(1)
        pid, _ = await worker_facts(thinking)
        assert thinking.started
        await thinking.aclose()
        assert not thinking.started
        return pid

    pid = asyncio.run(scenario())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


SERVER_KILLED_OUTRIGHT = """
import asyncio, os, sys, time
from tavla.server.live.thinking import BotThinking

async def main():
    thinking = BotThinking(1)
    pid = await asyncio.get_running_loop().run_in_executor(thinking._pool(), os.getpid)
    print(pid, flush=True)
    time.sleep(60)

asyncio.run(main())
"""


def test_the_workers_of_a_server_killed_outright_end_too() -> None:
    """SIGKILL gives the server no time to stop its workers: they see it gone and leave."""
    command = [sys.executable, "-c", SERVER_KILLED_OUTRIGHT]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert alive(worker)
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 5 * SERVER_CHECK_S + 5
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(worker)


def test_one_worker_per_core_by_default_up_to_a_few(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert default_processes() == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(32)))
    assert default_processes() == MOST_BY_DEFAULT == 4


def test_a_site_plays_its_bots_in_worker_processes(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'bots.db'}", bot_processes=1)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        site = Site(client)
        health = site.as_(None).get("/api/health").json()
        assert health["bots"] == {"processes": 1, "started": False, "replaced": 0}
        player = site.register("ayse")
        game_id = site.bot_game(player, game="tabla", length=1, sets=1, level="medium")
        with site.as_(player).websocket_connect(f"/ws/game/{game_id}") as socket:
            final = play_out(Seat(socket))
        assert final["match"]["over"]
        platform = site.platform
        assert platform.thinking.processes == 1 and platform.thinking.started
        health = site.as_(None).get("/api/health").json()
        assert health["bots"] == {"processes": 1, "started": True, "replaced": 0}
        summary = site.as_(None).get(f"/api/games/{game_id}").json()
        assert summary["status"] == "finished"
        # The archive's analysis is made in the workers too, and is the library's.
        found = site.as_(None).get(f"/api/games/{game_id}/analysis").json()
        record = MatchRecord.from_json(site.as_(None).get(f"/api/games/{game_id}/record").text)
        network = Network.shipped("tabla")
        expected = analysis_json(analyze(record, lambda _: network, SearchSettings(plies=0)))
        assert {key: found[key] for key in expected} == expected
        assert platform.analyses.made == 1
