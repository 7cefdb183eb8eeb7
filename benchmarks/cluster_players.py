"""The load generators of benchmarks/cluster_load.py: each a process of its own,
playing its share of the games over websockets (asyncio) until told to stop."""

from __future__ import annotations

import asyncio
import random
import resource
import sys
from dataclasses import asdict, dataclass
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# The one-process benchmark's players and their statistics.
from benchmarks import server_load
from benchmarks.server_load import COOKIE, Account, Stats, new_game, play_seat


@dataclass
class Plan:
    """One generator's share: its games, each with the process that plays it."""

    index: int
    games: list[tuple[int, int]]  # (game index, server port)
    accounts: list[tuple[str, str, str]]
    balancer_port: int
    via_balancer: bool
    think_s: float


@dataclass
class Tally:
    latencies_ms: list[float]
    acks: int
    refused: dict[str, int]
    finished: int
    broken: int
    why_broken: dict[str, int]


def generate(
    plan: Plan, ready: Any, acks: Any, events: tuple[EventType, EventType, EventType], out: Any
) -> None:
    """The entry of a generator process: play the plan's games until ``stop``."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    server_load.THINK_S[0] = plan.think_s
    out.put(asdict(asyncio.run(_generate(plan, ready, acks, *events))))


async def _generate(
    plan: Plan, ready: Any, acks: Any, playing: EventType, measuring: EventType, stop: EventType
) -> Tally:
    stats, go, stopping = Stats(), asyncio.Event(), asyncio.Event()
    why_broken: dict[str, int] = {}
    accounts = [Account(*fields) for fields in plan.accounts]
    clients = {
        port: httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", timeout=120, limits=httpx.Limits(max_connections=8)
        )
        for port in {port for _, port in plan.games}
    }

    async def follow() -> None:
        # The coordinator's events, seen from asyncio; the acks counted for its progress bar.
        while not stop.is_set():
            if playing.is_set():
                go.set()
            stats.measuring = measuring.is_set()
            acks[plan.index] = stats.acks
            await asyncio.sleep(0.1)
        stats.measuring = False
        acks[plan.index] = stats.acks
        stopping.set()

    async def slot(index: int, port: int) -> None:
        rng, first = random.Random(index), True
        ws_port = plan.balancer_port if plan.via_balancer else port
        while not stopping.is_set():
            maker = accounts[index % len(accounts)]
            taker = accounts[(index + 1 + rng.randrange(len(accounts) - 1)) % len(accounts)]
            try:
                game_id = await new_game(clients[port], maker, taker)
                url = f"ws://127.0.0.1:{ws_port}/ws/game/{game_id}"
                async with (
                    connect(
                        url, additional_headers={"Cookie": f"{COOKIE}={maker.token}"}, max_queue=None
                    ) as one,
                    connect(
                        url, additional_headers={"Cookie": f"{COOKIE}={taker.token}"}, max_queue=None
                    ) as two,
                ):
                    if first:
                        first = False
                        with ready.get_lock():
                            ready.value += 1
                        # Nobody plays until every game is up, as in server_load.py: the
                        # setup is not slowed by the play, nor the play by the setup.
                        await go.wait()
                    await asyncio.gather(
                        play_seat(one, stats, random.Random(rng.random()), stopping),
                        play_seat(two, stats, random.Random(rng.random()), stopping),
                    )
            except Exception as error:
                stats.broken += 1
                reason = f"{type(error).__name__}: {str(error)[:80]}"
                why_broken[reason] = why_broken.get(reason, 0) + 1
                if first:  # counted as ready, so that one refusal cannot stall the start
                    first = False
                    with ready.get_lock():
                        ready.value += 1
                await asyncio.sleep(1)
                continue
            if not stopping.is_set():
                stats.finished += 1

    follower = asyncio.create_task(follow())
    tasks = [asyncio.create_task(slot(index, port)) for index, port in plan.games]
    await follower
    await asyncio.sleep(0.5)  # the intents in flight are answered (and not counted)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for client in clients.values():
        await client.aclose()
    return Tally(stats.latencies_ms, stats.acks, stats.refused, stats.finished, stats.broken, why_broken)
