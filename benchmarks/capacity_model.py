"""From measured load to a site of 100,000 concurrent games: what each part needs.

    .venv/bin/python benchmarks/capacity_model.py RUN.json [RUN.json ...] [--games 1000 10000 100000]
                                                  [--intents-per-game-s 0.5] [--png FILE]

RUN.json is what ``benchmarks/cluster_load.py --json`` wrote. The first one-process run gives
the measured cost of one acknowledged intent in each part:

- server CPU per intent (the processes' CPU over the window, divided by the intents),
- PostgreSQL CPU, commits and rows written per intent,
- Redis CPU and commands per intent,
- server memory per live game (the resident size above an idle process's).

The model multiplies them by the intents 100,000 games ask for and divides by what one
core (one process: the event loop is single-threaded), one PostgreSQL server and one
Redis shard may carry at a planned utilisation. Latency comes from a queue per process,
simulated (Poisson arrivals, service times drawn around the measured mean), and its
prediction is set beside the latency each measured run saw at its own utilisation.
docs/capacity.md reads the table this prints.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table


@dataclass(frozen=True)
class Costs:
    """What one acknowledged intent costs, as measured."""

    server_cpu_ms: float
    postgres_cpu_ms: float
    commits: float
    rows_written: float
    redis_cpu_ms: float
    redis_commands: float
    mib_per_game: float

    @classmethod
    def measured(cls, run: dict[str, Any], idle_rss_mib: float) -> Costs:
        rate = run["acks_per_s"]
        acks = max(1, run["acks"])
        games = max(1, run["games_connected"])
        return cls(
            server_cpu_ms=1000 * sum(run["server_cpu_share"]) / rate,
            postgres_cpu_ms=1000 * run["postgres_cpu_share"] / rate,
            commits=run["pg_xact_commit"] / acks,
            rows_written=(run["pg_tup_inserted"] + run["pg_tup_updated"]) / acks,
            redis_cpu_ms=1000 * run["redis_cpu_share"] / rate,
            redis_commands=run["redis_commands"] / acks,
            mib_per_game=max(0.0, sum(run["server_rss_mib"]) - idle_rss_mib * run["processes"]) / games,
        )


def simulated_p99_ms(service_ms: float, utilisation: float, samples: int = 200_000, seed: int = 1) -> float:
    """The 99th percentile of the time in a single-server queue (Lindley's recursion),
    with Poisson arrivals and service times exponential around ``service_ms``."""
    generator = np.random.default_rng(seed)
    gaps = generator.exponential(service_ms / utilisation, samples)
    service = generator.exponential(service_ms, samples)
    wait = np.zeros(samples)
    for index in range(1, samples):
        wait[index] = max(0.0, wait[index - 1] + service[index - 1] - gaps[index])
    return float(np.percentile(wait + service, 99))


@dataclass(frozen=True)
class Plan:
    games: int
    intents_per_s: float
    processes: int
    sockets_per_process: int
    mib_per_process: float
    postgres_cores: float
    postgres_servers: int
    commits_per_s: float
    redis_cores: float
    redis_shards: int
    redis_commands_per_s: float
    lobby_rows_per_s: float


def plan(games: int, costs: Costs, options: argparse.Namespace) -> Plan:
    rate = games * options.intents_per_game_s
    processes = max(1, math.ceil(rate * costs.server_cpu_ms / 1000 / options.utilisation))
    postgres_cores = rate * costs.postgres_cpu_ms / 1000 / options.utilisation
    redis_cores = rate * costs.redis_cpu_ms / 1000 / options.utilisation
    return Plan(
        games=games,
        intents_per_s=rate,
        processes=processes,
        sockets_per_process=math.ceil(2 * games / processes),
        mib_per_process=options.idle_rss_mib + costs.mib_per_game * games / processes,
        postgres_cores=postgres_cores,
        postgres_servers=max(1, math.ceil(postgres_cores / options.postgres_cores)),
        commits_per_s=rate * costs.commits,
        redis_cores=redis_cores,
        # Redis runs a shard's commands on one thread: one core per shard.
        redis_shards=max(1, math.ceil(redis_cores)),
        redis_commands_per_s=rate * costs.redis_commands,
        # Every process redraws its lobby up to four times a second from every live game.
        lobby_rows_per_s=4.0 * processes * games,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "runs",
        type=Path,
        nargs="+",
        help="cluster_load.py --json outputs; costs from the first one-process run",
    )
    parser.add_argument("--games", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--intents-per-game-s", type=float, default=0.5, help="what one game asks for")
    parser.add_argument("--utilisation", type=float, default=0.6, help="planned load of each core")
    parser.add_argument("--idle-rss-mib", type=float, default=110.0, help="an idle server process's size")
    parser.add_argument("--postgres-cores", type=int, default=32, help="cores of one PostgreSQL server")
    parser.add_argument("--png", type=Path, help="also draw the plan and the latency model")
    options = parser.parse_args()
    runs: list[dict[str, Any]] = [
        run for path in options.runs for run in json.loads(path.read_text(encoding="utf-8"))
    ]
    one = next(run for run in runs if run["processes"] == 1)
    costs = Costs.measured(one, options.idle_rss_mib)
    console = Console()
    console.print(
        f"Measured per intent ({one['players']} players, 1 process, {one['acks_per_s']:.0f} intents/s):"
    )
    for name, value in vars(costs).items():
        console.print(f"  {name}: {value:.3f}")

    table = Table(
        title=f"Plan at {options.intents_per_game_s} intents/s per game, cores at {options.utilisation:.0%}"
    )
    for header in (
        "games",
        "intents/s",
        "processes",
        "sockets/process",
        "MiB/process",
        "PostgreSQL cores",
        "PG servers",
        "commits/s",
        "Redis shards",
        "Redis cmds/s",
        "lobby rows/s",
    ):
        table.add_column(header, justify="right")
    plans = [plan(games, costs, options) for games in options.games]
    for item in plans:
        table.add_row(
            f"{item.games:,}",
            f"{item.intents_per_s:,.0f}",
            f"{item.processes:,}",
            f"{item.sockets_per_process:,}",
            f"{item.mib_per_process:,.0f}",
            f"{item.postgres_cores:,.1f}",
            f"{item.postgres_servers}",
            f"{item.commits_per_s:,.0f}",
            f"{item.redis_shards}",
            f"{item.redis_commands_per_s:,.0f}",
            f"{item.lobby_rows_per_s:,.0f}",
        )
    console.print(table)

    latency = Table(title="p99 of an intent in one process: the queue model against the runs")
    for header in ("run", "processes", "server utilisation", "measured p99 ms", "model p99 ms"):
        latency.add_column(header, justify="right")
    points = []
    for index, run in enumerate(runs):
        shares = run["server_cpu_share"]
        utilisation = min(0.95, sum(shares) / len(shares))
        modelled = simulated_p99_ms(costs.server_cpu_ms, utilisation)
        points.append((utilisation, run["p99_ms"], modelled))
        latency.add_row(
            str(index + 1),
            str(run["processes"]),
            f"{utilisation:.0%}",
            f"{run['p99_ms']:.0f}",
            f"{modelled:.0f}",
        )
    planned = simulated_p99_ms(costs.server_cpu_ms, options.utilisation)
    latency.add_row("plan", "", f"{options.utilisation:.0%}", "", f"{planned:.0f}")
    console.print(latency)
    if options.png is not None:
        draw(options.png, plans, costs, points)
        console.print(f"wrote {options.png}")


def draw(path: Path, plans: list[Plan], costs: Costs, points: list[tuple[float, float, float]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    games = [item.games for item in plans]
    left.loglog(games, [item.processes for item in plans], "o-", label="server processes (cores)")
    left.loglog(games, [item.postgres_cores for item in plans], "s-", label="PostgreSQL cores")
    left.loglog(games, [max(item.redis_cores, 1e-3) for item in plans], "^-", label="Redis cores")
    left.set_xlabel("concurrent games")
    left.set_ylabel("cores at the planned utilisation")
    left.set_title("What the site needs")
    left.grid(True, which="both", alpha=0.3)
    left.legend()
    grid = np.linspace(0.05, 0.9, 18)
    right.plot(grid, [simulated_p99_ms(costs.server_cpu_ms, u, 50_000) for u in grid], label="queue model")
    right.scatter([p[0] for p in points], [p[1] for p in points], color="red", label="measured runs")
    right.set_yscale("log")
    right.set_xlabel("a process's CPU utilisation")
    right.set_ylabel("p99 of an intent, ms")
    right.set_title("Latency against load")
    right.grid(True, alpha=0.3)
    right.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
