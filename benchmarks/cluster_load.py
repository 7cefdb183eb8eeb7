"""Load on a site of several ``tavla serve`` processes behind nginx (``tavla cluster``).

    nice .venv/bin/python benchmarks/cluster_load.py [--processes 1 2 4] [--players 2000]
        [--seconds 30] [--think-ms 2000] [--generators 2] [--via-balancer] [--json FILE]

For each process count P a fresh cluster is started on loopback (PostgreSQL, Redis, P
processes, nginx; docs/deploy.md). ``--players`` simulated players play ``players / 2``
concurrent games of tabla to one point over websockets, one intent in flight each,
thinking ``--think-ms`` on average before each action; a finished game is replaced by
a new one. Nobody plays until every game is up (or ``--setup-timeout`` has passed).
Registering is slow on purpose (argon2), so a few accounts share the seats (one
account per four games): a "player" here is one seat, one websocket.

Game i is offered and accepted on process i mod P, which owns it (docs/API.md 8), and
by default both its players connect to that process directly, by its port: what the
processes themselves do. ``--via-balancer`` connects them through nginx instead, which
may pick another process, which then relays the game's messages to the owner through
Redis. Plain HTTP (the accounts) goes through nginx either way.

The players are split over ``--generators`` processes (asyncio each; thousands of
websockets are more than one Python process drives on two cores), and every one of
them is measured. Reported per P, over the measured window: acknowledged intents per
second and the ratio to P=1, intent -> ack latency p50/p99, refused intents, finished
games; per server process its CPU (share of one core) and RSS now and at its peak;
the CPU of nginx, PostgreSQL and Redis (each one's process tree, from /proc); Redis's
``INFO stats`` (instantaneous ops/s at the end, commands processed in the window);
PostgreSQL's ``pg_stat_database`` deltas (transactions committed, rows inserted and
updated); and the load generators' own CPU (theirs and this coordinator's).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import resource
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.cluster_players import Plan, generate
from benchmarks.server_load import Account, percentile, register

from tavla.cluster import Cluster, ClusterOptions
from tavla.cluster.process import free_port, tree_cpu_seconds

SETTINGS = {
    "TAVLA_BOT_DELAY_MS": "0",
    "TAVLA_MESSAGES_PER_SECOND": "100000",
    "TAVLA_LOGIN_ATTEMPTS_PER_MINUTE": "100000",
    # A few accounts play every seat from one address: the limits meant for one person
    # (docs/API.md 9) would refuse them.
    "TAVLA_ACTIONS_PER_SECOND_PER_ACCOUNT": "100000",
    "TAVLA_CHANGES_PER_MINUTE": "1000000",
    "TAVLA_CONNECTIONS_PER_MINUTE_PER_ADDRESS": "1000000",
    "TAVLA_CONNECTIONS_PER_MINUTE_PER_ACCOUNT": "1000000",
}


# ------------------------------------------------------------------ the coordinator
@dataclass
class Result:
    processes: int
    players: int
    games_connected: int
    seconds: float
    acks: int
    acks_per_s: float
    ratio_to_one: float | None
    p50_ms: float
    p99_ms: float
    refused: int
    refused_codes: dict[str, int]
    finished: int
    broken: int
    why_broken: dict[str, int]
    server_cpu_share: list[float]
    server_rss_mib: list[float]
    server_peak_mib: list[float]
    nginx_cpu_share: float
    postgres_cpu_share: float
    redis_cpu_share: float
    generators_cpu_share: list[float]
    coordinator_cpu_share: float
    redis_ops_per_s: int
    redis_commands: int
    pg_xact_commit: int
    pg_tup_inserted: int
    pg_tup_updated: int
    via_balancer: bool
    extra: dict[str, Any] = field(default_factory=dict)


def memory_mib(pid: int) -> tuple[float, float]:
    values = {"VmRSS": 0.0, "VmHWM": 0.0}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in values:
            values[key] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


def redis_stats(cluster: Cluster) -> dict[str, Any]:
    import redis

    client = redis.Redis.from_url(cluster.redis_url)
    try:
        stats: dict[str, Any] = client.info("stats")
    finally:
        client.close()
    return stats


def pg_stats(cluster: Cluster) -> tuple[int, int, int]:
    import psycopg

    with psycopg.connect(cluster.database_url) as connection:
        row = connection.execute(
            "SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database"
            " WHERE datname = current_database()"
        ).fetchone()
    if row is None:
        raise SystemExit("pg_stat_database has no row for the database")
    return int(row[0]), int(row[1]), int(row[2])


def cpu_snapshot(
    cluster: Cluster, generators: Sequence[multiprocessing.process.BaseProcess]
) -> dict[str, Any]:
    def cpu(pid: int | None) -> float:
        return tree_cpu_seconds(pid) if pid is not None else 0.0

    return {
        "servers": [cpu(server.pid) for server in cluster.servers],
        "nginx": cpu(cluster.nginx.pid),
        "postgres": cpu(cluster.postgres.pid if cluster.postgres else None),
        "redis": cpu(cluster.redis.pid if cluster.redis else None),
        "generators": [cpu(process.pid) for process in generators],
        "coordinator": time.process_time(),
    }


async def make_accounts(url: str, count: int, progress: Progress, label: str) -> list[tuple[str, str, str]]:
    """``count`` registered accounts, eight at a time (argon2 makes each slow on purpose)."""
    task = progress.add_task(f"{label}: registering {count} accounts", total=count)
    waiting = list(range(count))
    accounts: list[Account] = []

    async def worker() -> None:
        # A client each: a registration's cookie, kept by a shared client, would make
        # the next one a signed-in request without its CSRF token.
        async with httpx.AsyncClient(base_url=url, timeout=120) as http:
            while waiting:
                accounts.append(await register(http, f"load{waiting.pop()}"))
                progress.advance(task)

    await asyncio.gather(*(worker() for _ in range(8)))
    return [(a.name, a.token, a.csrf) for a in accounts]


def run_configuration(cluster: Cluster, arguments: argparse.Namespace, progress: Progress) -> Result:
    processes = len(cluster.servers)
    label = f"P={processes}"
    games = max(1, arguments.players // 2)
    account_count = max(arguments.accounts, -(-games // 4))
    accounts = asyncio.run(make_accounts(cluster.url, account_count, progress, label))
    ports = [server.port for server in cluster.servers]
    context = multiprocessing.get_context("spawn")
    count = min(arguments.generators, games)
    ready, acks = context.Value("i", 0), context.Array("q", count)
    playing, measuring, stop, out = context.Event(), context.Event(), context.Event(), context.Queue()
    plans = [
        Plan(
            share,
            [(index, ports[index % processes]) for index in range(share, games, count)],
            accounts,
            cluster.nginx.port,
            arguments.via_balancer,
            arguments.think_ms / 1000,
        )
        for share in range(count)
    ]
    generators = [
        context.Process(target=generate, args=(plan, ready, acks, (playing, measuring, stop), out))
        for plan in plans
    ]
    for process in generators:
        process.start()
    try:
        setup = progress.add_task(f"{label}: {games} games connecting", total=games)
        deadline = time.monotonic() + arguments.setup_timeout
        while ready.value < games and time.monotonic() < deadline:
            progress.update(setup, completed=ready.value)
            time.sleep(0.2)
        progress.update(setup, completed=ready.value)
        connected = ready.value
        playing.set()
        time.sleep(2.0)  # the first states and intents settle
        before, redis0, pg0 = cpu_snapshot(cluster, generators), redis_stats(cluster), pg_stats(cluster)
        measuring.set()
        started = time.monotonic()
        window = progress.add_task(f"{label}: playing", total=arguments.seconds)
        while (elapsed := time.monotonic() - started) < arguments.seconds:
            progress.update(window, completed=elapsed, description=f"{label}: playing, {sum(acks[:])} acks")
            time.sleep(0.25)
        measuring.clear()
        elapsed = time.monotonic() - started
        after, redis1, pg1 = cpu_snapshot(cluster, generators), redis_stats(cluster), pg_stats(cluster)
        memory = [memory_mib(server.pid) for server in cluster.servers if server.pid is not None]
        stop.set()
        tallies = [out.get(timeout=120) for _ in generators]
    finally:
        stop.set()
        for process in generators:
            process.join(30)
            if process.is_alive():
                process.kill()
    latencies = [value for tally in tallies for value in tally["latencies_ms"]]
    total = sum(tally["acks"] for tally in tallies)

    def share(key: str) -> float:
        return float((after[key] - before[key]) / elapsed)

    return Result(
        processes=processes,
        players=2 * games,
        games_connected=connected,
        seconds=elapsed,
        acks=total,
        acks_per_s=total / elapsed,
        ratio_to_one=None,
        p50_ms=percentile(latencies, 0.50),
        p99_ms=percentile(latencies, 0.99),
        refused=sum(sum(tally["refused"].values()) for tally in tallies),
        refused_codes=merged_counts([tally["refused"] for tally in tallies]),
        finished=sum(tally["finished"] for tally in tallies),
        broken=sum(tally["broken"] for tally in tallies),
        why_broken=merged_counts([tally["why_broken"] for tally in tallies]),
        server_cpu_share=[
            (b - a) / elapsed for a, b in zip(before["servers"], after["servers"], strict=True)
        ],
        server_rss_mib=[rss for rss, _ in memory],
        server_peak_mib=[peak for _, peak in memory],
        nginx_cpu_share=share("nginx"),
        postgres_cpu_share=share("postgres"),
        redis_cpu_share=share("redis"),
        generators_cpu_share=[
            (b - a) / elapsed for a, b in zip(before["generators"], after["generators"], strict=True)
        ],
        coordinator_cpu_share=share("coordinator"),
        redis_ops_per_s=int(redis1["instantaneous_ops_per_sec"]),
        redis_commands=int(redis1["total_commands_processed"]) - int(redis0["total_commands_processed"]),
        pg_xact_commit=pg1[0] - pg0[0],
        pg_tup_inserted=pg1[1] - pg0[1],
        pg_tup_updated=pg1[2] - pg0[2],
        via_balancer=arguments.via_balancer,
    )


def merged_counts(counts: list[dict[str, int]]) -> dict[str, int]:
    merged: dict[str, int] = {}
    for one in counts:
        for key, value in one.items():
            merged[key] = merged.get(key, 0) + value
    return merged


def percent(share: float) -> str:
    return f"{100 * share:.1f}%" if share < 0.1 else f"{100 * share:.0f}%"


def report(console: Console, results: list[Result], arguments: argparse.Namespace) -> None:
    pace = (
        f"players think {arguments.think_ms:.0f} ms on average"
        if arguments.think_ms
        else "players act at once"
    )
    route = "through nginx" if arguments.via_balancer else "to the game's process directly"
    table = Table(
        title=f"tavla cluster under load ({arguments.seconds:.0f} s windows, {pace}, websockets {route})"
    )
    for heading in (
        "P",
        "players (games up)",
        "intents/s",
        "vs P=1",
        "p50 / p99 ms",
        "refused",
        "finished",
        "servers: CPU, RSS MiB (peak)",
        "nginx",
        "PostgreSQL (commits, inserts)",
        "Redis (ops/s, commands)",
        "generators",
    ):
        table.add_column(heading, justify="right")
    for r in results:
        servers = "\n".join(
            f"{percent(cpu)}, {rss:.0f} ({peak:.0f})"
            for cpu, rss, peak in zip(r.server_cpu_share, r.server_rss_mib, r.server_peak_mib, strict=True)
        )
        generators = (
            " + ".join(percent(cpu) for cpu in r.generators_cpu_share)
            + f" + {percent(r.coordinator_cpu_share)}"
        )
        table.add_row(
            str(r.processes),
            f"{r.players} ({r.games_connected})",
            f"{r.acks_per_s:.0f}",
            "-" if r.ratio_to_one is None else f"{r.ratio_to_one:.2f} x",
            f"{r.p50_ms:.1f} / {r.p99_ms:.1f}",
            str(r.refused),
            str(r.finished) + (f" ({r.broken} broken)" if r.broken else ""),
            servers,
            percent(r.nginx_cpu_share),
            f"{percent(r.postgres_cpu_share)} ({r.pg_xact_commit}, {r.pg_tup_inserted})",
            f"{percent(r.redis_cpu_share)} ({r.redis_ops_per_s}, {r.redis_commands})",
            generators,
        )
    console.print(table)
    console.print("CPU as a share of one core over the window; generators: each process + the coordinator.")
    for r in results:
        for reason, count in sorted(r.why_broken.items(), key=lambda item: -item[1])[:5]:
            console.print(f"P={r.processes}: {count} games broken by {reason}")
        if r.refused_codes:
            console.print(f"P={r.processes}: intents refused, by code: {r.refused_codes}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument(
        "--players", type=int, default=2000, help="concurrent simulated players (two per game)"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="the measured window per configuration")
    parser.add_argument(
        "--think-ms", type=float, default=2000.0, help="mean time before each action (0: at once)"
    )
    parser.add_argument("--generators", type=int, default=2, help="load-generator processes")
    parser.add_argument(
        "--accounts", type=int, default=20, help="registered accounts (at least one per four games)"
    )
    parser.add_argument(
        "--setup-timeout", type=float, default=600.0, help="most seconds to connect the games"
    )
    parser.add_argument("--via-balancer", action="store_true", help="game websockets through nginx too")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    arguments = parser.parse_args()
    if arguments.players < 2 or arguments.seconds <= 0 or arguments.generators < 1:
        parser.error("--players at least 2, --seconds above 0, --generators at least 1")
    if any(count < 1 or count > 64 for count in arguments.processes):
        parser.error("--processes between 1 and 64")
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    console = Console(width=max(Console().width, 160))
    results: list[Result] = []
    columns = (TextColumn("{task.description}"), BarColumn(), TimeRemainingColumn())
    for processes in arguments.processes:
        # Started before the progress bar: its refreshing thread must not run while the
        # cluster forks its children.
        console.print(f"P={processes}: starting PostgreSQL, Redis, {processes} processes and nginx ...")
        with (
            Cluster(ClusterOptions(processes=processes, port=free_port(), settings=SETTINGS)) as cluster,
            Progress(*columns, console=console, transient=True) as progress,
        ):
            result = run_configuration(cluster, arguments, progress)
        one = next((r for r in results if r.processes == 1), None)
        if one is not None and one.acks_per_s:
            result.ratio_to_one = result.acks_per_s / one.acks_per_s
        elif processes == 1:
            result.ratio_to_one = 1.0
        results.append(result)
        console.print(f"P={processes}: {result.acks_per_s:.0f} intents/s, p99 {result.p99_ms:.1f} ms")
    report(console, results, arguments)
    if arguments.json is not None:
        arguments.json.write_text(json.dumps([asdict(r) for r in results], indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
