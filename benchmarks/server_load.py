"""Load on one ``tavla serve`` process: N concurrent games played over websockets.

    .venv/bin/python benchmarks/server_load.py [--games 10 100 500] [--seconds 30]
                                               [--players 20] [--think-ms 0] [--signing-up 0]
                                               [--bot-games 0 --bot-level hard --bot-game tapa]
                                               [--bot-processes N]

For each N a fresh server process is started on loopback (SQLite in a temporary
folder, bots without delay, no message limit to speak of). N games of tabla to one
point are made over HTTP (an offer and its acceptance); a few registered players
share them, each playing many games at once, since registering (argon2) is slow.
Then one load-generator process (this one, asyncio) connects both players of every
game to ``/ws/game/{id}`` and plays random legal steps, one intent in flight per
player, for ``--seconds``; a finished game is replaced by a new one.

Reported per N: acknowledged intents per second, the latency of an intent (sent ->
its ``ack`` received) at p50 and p99, refused intents (``stale`` after a race with
the opponent's presence, etc.), games finished, the server's RSS at the end and its
peak (``/proc/<pid>/status``), its CPU time over the window (``/proc/<pid>/stat``,
as a share of one core) and the load generator's own CPU time. With ``--signing-up K``,
K visitors sign up new accounts one after another during the window (each password
hashed with argon2 at the site's cost): the intents' latency then shows what a
sign-up costs the games being played, and the table the sign-ups a second. With
``--bot-games K``, K more games are each one player against a server bot of
``--bot-level`` in ``--bot-game`` (the player moving at random as above): the table
then gives the bot's answers, from the player's last intent of a turn acknowledged
to the state in which the player is to act again (the bot's roll and turn, the
server's bot delay set to 0), at p50 and p99, and the answers a second. The server
runs its bots as ``--bot-processes`` says (``TAVLA_BOT_PROCESSES``; left out, the
server's default).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect

COOKIE = "tavla_session"
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# ------------------------------------------------------------------ the server
class Server:
    def __init__(self, folder: Path, env: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.extra_env = env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "TAVLA_BOT_DELAY_MS": "0",
            "TAVLA_MESSAGES_PER_SECOND": "100000",
            "TAVLA_LOGIN_ATTEMPTS_PER_MINUTE": "100000",
            "TAVLA_ACTIONS_PER_SECOND_PER_ACCOUNT": "100000",
            "TAVLA_CHANGES_PER_MINUTE": "100000",
            "TAVLA_CONNECTIONS_PER_MINUTE_PER_ADDRESS": "100000",
            "TAVLA_CONNECTIONS_PER_MINUTE_PER_ACCOUNT": "100000",
            **self.extra_env,
        }
        tavla = Path(sys.executable).with_name("tavla")
        command = [str(tavla), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--database", f"sqlite:///{self.folder / 'load.db'}"]
        with (self.folder / "server.log").open("ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise SystemExit(f"the server did not start; see {self.folder / 'server.log'}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def cpu_s(self) -> float:
        """User + system CPU seconds of the server process so far."""
        text = Path(f"/proc/{self.pid}/stat").read_text()
        fields = text[text.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15)

    def children_mib(self) -> float:
        """The resident size of the server's child processes (its bots' workers), in MiB."""
        total = 0.0
        for status in Path("/proc").glob("[0-9]*/status"):
            try:
                fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
            except OSError:
                continue  # a process that ended meanwhile
            if fields.get("PPid", "").strip() == str(self.pid) and "VmRSS" in fields:
                total += int(fields["VmRSS"].split()[0]) / 1024
        return total

    def memory_mib(self) -> tuple[float, float]:
        """(VmRSS, VmHWM) in MiB: the resident size now and at its peak."""
        values: dict[str, float] = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) / 1024
        return values["VmRSS"], values["VmHWM"]


# ------------------------------------------------------------------ the players
@dataclass
class Account:
    name: str
    token: str
    csrf: str

    def headers(self) -> dict[str, str]:
        return {"Cookie": f"{COOKIE}={self.token}", "X-CSRF-Token": self.csrf}


async def register(http: httpx.AsyncClient, name: str) -> Account:
    response = await http.post("/api/register", json={"name": name, "password": "load test password"})
    response.raise_for_status()
    http.cookies.clear()  # the sessions travel in explicit headers, one per player
    return Account(name, response.cookies[COOKIE], response.json()["csrf_token"])


async def new_game(http: httpx.AsyncClient, maker: Account, taker: Account) -> str:
    made = await http.post(
        "/api/offers", json={"game": "tabla", "length": 1, "cube": False}, headers=maker.headers()
    )
    made.raise_for_status()
    accepted = await http.post(f"/api/offers/{made.json()['id']}/accept", json={}, headers=taker.headers())
    accepted.raise_for_status()
    return str(accepted.json()["game_id"])


@dataclass
class Stats:
    measuring: bool = False
    latencies_ms: list[float] = field(default_factory=list)
    acks: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    broken: int = 0
    bot_answers_ms: list[float] = field(default_factory=list)


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    match = state["match"]
    if match["over"] or match["actor"] != state["seat"]:
        return None
    phase = match["phase"]
    if phase in ("roll", "raccoon"):
        return {"kind": "roll"}
    if phase == "move":
        steps = state["steps"]
        if steps is None:
            return None
        if steps["complete"]:
            return {"kind": "commit"}
        return {"kind": "step", "step": rng.choice(steps["legal"])["text"]}
    if phase == "double":
        return {"kind": "take"}
    if phase == "resign":
        return {"kind": "accept"}
    return None


THINK_S = [0.0]
"""How long a player thinks before each action, on average (``--think-ms``); 0: at once."""


async def play_seat(
    socket: ClientConnection,
    stats: Stats,
    rng: random.Random,
    stop: asyncio.Event,
    *,
    against_bot: bool = False,
) -> None:
    """One player: act whenever the latest state is theirs, one intent in flight.
    Against a bot, also times each of the bot's answers (``Stats.bot_answers_ms``)."""
    state: dict[str, Any] | None = None
    seq = 0
    sent_at: float | None = None
    bot_since: float | None = None  # when the bot's turn began: the player's last ack
    async for text in socket:
        message = json.loads(text)
        kind = message["type"]
        if kind == "state":
            if state is None:
                seq = message["last_seq"]
            state = message
            if message["match"]["over"]:
                return
            if bot_since is not None and message["match"]["actor"] == message["seat"]:
                if stats.measuring:
                    stats.bot_answers_ms.append((time.perf_counter() - bot_since) * 1000)
                bot_since = None
            elif (
                against_bot and bot_since is None and message["match"]["actor"] not in (None, message["seat"])
            ):
                bot_since = time.perf_counter()
        elif kind == "ack":
            if sent_at is not None and stats.measuring:
                stats.latencies_ms.append((time.perf_counter() - sent_at) * 1000)
                stats.acks += 1
            sent_at = None
            continue  # the state of the ack's version follows
        elif kind == "error":
            stats.refused[message["code"]] = stats.refused.get(message["code"], 0) + 1
            sent_at = None
            continue
        if stop.is_set():
            return
        if sent_at is None and state is not None:
            action = choose(state, rng)
            if action is not None:
                if THINK_S[0]:
                    # A person's pace: a moment's thought, between half and one and a half times the mean.
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * THINK_S[0])
                    if stop.is_set():
                        return
                seq += 1
                sent_at = time.perf_counter()
                await socket.send(
                    json.dumps({"type": "intent", "seq": seq, "v": state["v"], "action": action})
                )
    return


async def game_slot(
    server: Server,
    http: httpx.AsyncClient,
    players: list[Account],
    index: int,
    stats: Stats,
    stop: asyncio.Event,
    connected: asyncio.Event,
    ready: list[int],
    total: int,
) -> None:
    """Keeps one game going: two players play it; when it ends, a new one."""
    rng = random.Random(index)
    first = True
    while not stop.is_set():
        maker = players[index % len(players)]
        taker = players[(index + 1 + rng.randrange(len(players) - 1)) % len(players)]
        if taker is maker:
            taker = players[(index + 1) % len(players)]
        try:
            game_id = await new_game(http, maker, taker)
        except httpx.HTTPError:
            stats.broken += 1  # counted as ready, so that one refusal cannot stall the run
            if first:
                first = False
                ready[0] += 1
                if ready[0] == total:
                    connected.set()
            await asyncio.sleep(1)
            continue
        url = f"ws://127.0.0.1:{server.port}/ws/game/{game_id}"
        async with (
            connect(url, additional_headers={"Cookie": f"{COOKIE}={maker.token}"}, max_queue=None) as one,
            connect(url, additional_headers={"Cookie": f"{COOKIE}={taker.token}"}, max_queue=None) as two,
        ):
            if first:
                first = False
                ready[0] += 1
                if ready[0] == total:
                    connected.set()
                await connected.wait()
            try:
                await asyncio.gather(
                    play_seat(one, stats, random.Random(rng.random()), stop),
                    play_seat(two, stats, random.Random(rng.random()), stop),
                )
            except Exception:
                stats.broken += 1
                continue
        if not stop.is_set():
            stats.finished += 1


async def bot_slot(
    server: Server,
    http: httpx.AsyncClient,
    player: Account,
    choice: dict[str, Any],
    index: int,
    stats: Stats,
    stop: asyncio.Event,
) -> None:
    """Keeps one game against a bot going, and a new one when it ends."""
    rng = random.Random(10_000 + index)
    while not stop.is_set():
        try:
            made = await http.post("/api/bot-games", json=choice, headers=player.headers())
            made.raise_for_status()
        except httpx.HTTPError:
            stats.broken += 1
            await asyncio.sleep(1)
            continue
        url = f"ws://127.0.0.1:{server.port}/ws/game/{made.json()['game_id']}"
        headers = {"Cookie": f"{COOKIE}={player.token}"}
        async with connect(url, additional_headers=headers, max_queue=None) as socket:
            try:
                await play_seat(socket, stats, random.Random(rng.random()), stop, against_bot=True)
            except Exception:
                stats.broken += 1
                continue
        if not stop.is_set():
            stats.finished += 1


@dataclass
class Result:
    games: int
    seconds: float
    acks: int
    p50_ms: float
    p99_ms: float
    refused: int
    finished: int
    broken: int
    rss_mib: float
    peak_mib: float
    server_cpu_s: float
    generator_cpu_s: float
    sign_ups: int = 0
    bot_answers_ms: list[float] = field(default_factory=list)
    workers_mib: float = 0.0


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def keep_signing_up(server: Server, prefix: str, stop: asyncio.Event, done: list[int]) -> None:
    """New accounts one after the other, as visitors signing up: each hashes its
    password with argon2 at the site's cost, tens of milliseconds of CPU."""
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        number = 0
        while not stop.is_set():
            await register(http, f"{prefix}{number}")
            number += 1
            done[0] += 1


@dataclass
class BotLoad:
    games: int = 0
    choice: dict[str, Any] = field(default_factory=dict)


async def run_load(
    server: Server,
    games: int,
    seconds: float,
    player_count: int,
    progress: Progress,
    signing_up: int = 0,
    bots: BotLoad | None = None,
) -> Result:
    limits = httpx.Limits(max_connections=16)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        setup = progress.add_task(f"N={games}: players and games", total=games)
        # A player may have only a few open offers at once (the lobby's limit): one
        # player per four games keeps every game's offer within it.
        player_count = max(player_count, -(-games // 4))
        players = [await register(http, f"load{index}") for index in range(player_count)]
        stats, stop, connected = Stats(), asyncio.Event(), asyncio.Event()
        ready = [0]

        async def counted() -> None:
            while not connected.is_set():
                progress.update(setup, completed=ready[0])
                await asyncio.sleep(0.2)
            progress.update(setup, completed=games)

        watcher = asyncio.create_task(counted())
        tasks = [
            asyncio.create_task(game_slot(server, http, players, i, stats, stop, connected, ready, games))
            for i in range(games)
        ]
        await connected.wait()
        await watcher
        if bots is not None and bots.games:
            # Their own players: a player may hold only so many live games at once.
            bot_players = [await register(http, f"botload{index}") for index in range(-(-bots.games // 4))]
            tasks += [
                asyncio.create_task(bot_slot(server, http, bot_players[i // 4], bots.choice, i, stats, stop))
                for i in range(bots.games)
            ]
        await asyncio.sleep(1.0)  # the first states and intents settle
        window = progress.add_task(f"N={games}: playing", total=seconds)
        stats.measuring = True
        sign_ups, signed_up = asyncio.Event(), [0]
        visitors = [
            asyncio.create_task(keep_signing_up(server, f"visitor{index}x", sign_ups, signed_up))
            for index in range(signing_up)
        ]
        server_cpu0, own_cpu0, started = server.cpu_s(), time.process_time(), time.monotonic()
        while (elapsed := time.monotonic() - started) < seconds:
            progress.update(window, completed=elapsed)
            await asyncio.sleep(0.25)
        stats.measuring = False
        elapsed = time.monotonic() - started
        sign_ups.set()
        await asyncio.gather(*visitors)
        server_cpu, own_cpu = server.cpu_s() - server_cpu0, time.process_time() - own_cpu0
        rss, peak = server.memory_mib()
        workers = server.children_mib()
        progress.update(window, completed=seconds)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return Result(
        games,
        elapsed,
        stats.acks,
        percentile(stats.latencies_ms, 0.50),
        percentile(stats.latencies_ms, 0.99),
        sum(stats.refused.values()),
        stats.finished,
        stats.broken,
        rss,
        peak,
        server_cpu,
        own_cpu,
        signed_up[0],
        stats.bot_answers_ms,
        workers,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 100, 500])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--players",
        type=int,
        default=20,
        help="registered players sharing the games (at least one per four games)",
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="mean time a player takes before each action (0: none, the server's ceiling)",
    )
    parser.add_argument(
        "--signing-up",
        type=int,
        default=0,
        help="visitors signing up one account after another while the games are played "
        "(argon2 at the site's cost): how much a sign-up holds up the games",
    )
    parser.add_argument("--bot-games", type=int, default=0, help="games of one player against a bot, besides")
    parser.add_argument("--bot-level", default="hard", help="the bots' level (docs/bots.md, Levels)")
    parser.add_argument("--bot-game", default="tapa", help="the game played against the bots")
    parser.add_argument(
        "--bot-processes",
        type=int,
        default=None,
        help="TAVLA_BOT_PROCESSES for the server (0: the bots think on a thread of the server's own process)",
    )
    arguments = parser.parse_args()
    bots = BotLoad(
        arguments.bot_games,
        {"game": arguments.bot_game, "level": arguments.bot_level, "length": 1, "cube": False},
    )
    server_env = (
        {} if arguments.bot_processes is None else {"TAVLA_BOT_PROCESSES": str(arguments.bot_processes)}
    )
    THINK_S[0] = arguments.think_ms / 1000
    console = Console(width=max(Console().width, 130))
    results: list[Result] = []
    columns = (TextColumn("{task.description}"), BarColumn(), TimeRemainingColumn())
    for games in arguments.games:
        with tempfile.TemporaryDirectory(prefix="tavla-load-") as folder:
            server = Server(Path(folder), server_env)
            server.start()
            try:
                with Progress(*columns, console=console, transient=True) as progress:
                    result = asyncio.run(
                        run_load(
                            server,
                            games,
                            arguments.seconds,
                            arguments.players,
                            progress,
                            arguments.signing_up,
                            bots,
                        )
                    )
            finally:
                server.stop()
        results.append(result)
        console.print(f"N={games}: {result.acks / result.seconds:.0f} intents/s")
    pace = (
        f", players think {arguments.think_ms:.0f} ms on average"
        if arguments.think_ms
        else ", players act at once"
    )
    if arguments.signing_up:
        pace += f", {arguments.signing_up} visitors signing up meanwhile"
    if bots.games:
        where = "" if arguments.bot_processes is None else f", bot processes {arguments.bot_processes}"
        pace += f", {bots.games} more games against {arguments.bot_game} bots at {arguments.bot_level}{where}"
    table = Table(title=f"tavla serve under load ({arguments.seconds:.0f} s per N, one server process{pace})")
    for heading in (
        "games",
        "intents/s",
        "p50 ms",
        "p99 ms",
        "refused",
        "finished",
        "sign-ups/s",
        "bot answers/s",
        "bot p50 ms",
        "bot p99 ms",
        "server RSS MiB (peak)",
        "bot workers' RSS MiB",
        "server CPU",
        "generator CPU",
    ):
        table.add_column(heading, justify="right")
    for r in results:
        table.add_row(
            str(r.games),
            f"{r.acks / r.seconds:.0f}",
            f"{r.p50_ms:.1f}",
            f"{r.p99_ms:.1f}",
            str(r.refused),
            str(r.finished) + (f" ({r.broken} broken)" if r.broken else ""),
            f"{r.sign_ups / r.seconds:.1f}",
            f"{len(r.bot_answers_ms) / r.seconds:.1f}",
            f"{percentile(r.bot_answers_ms, 0.50):.0f}",
            f"{percentile(r.bot_answers_ms, 0.99):.0f}",
            f"{r.rss_mib:.0f} ({r.peak_mib:.0f})",
            f"{r.workers_mib:.0f}",
            f"{r.server_cpu_s:.1f} s ({100 * r.server_cpu_s / r.seconds:.0f}%)",
            f"{r.generator_cpu_s:.1f} s ({100 * r.generator_cpu_s / r.seconds:.0f}%)",
        )
    console.print(table)


if __name__ == "__main__":
    main()
