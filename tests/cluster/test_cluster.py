"""``tavla cluster`` (docs/deploy.md): PostgreSQL, Redis, server processes and nginx
started together on loopback, reachable through the balancer, and all gone at stop.

Skipped where PostgreSQL, redis-server or nginx is missing (``make test`` installs them).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

import httpx
from websockets.sync.client import connect
from websockets.typing import Origin

from tavla.cluster import Cluster, ClusterOptions
from tavla.cluster.process import ComponentError, children, free_port, wait_until
from tavla.server.deps import SESSION_COOKIE

pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.skipif(
        not (Path("/usr/lib/postgresql").exists() and shutil.which("redis-server") and shutil.which("nginx")),
        reason="needs PostgreSQL, redis-server and nginx (make test installs them)",
    ),
]


def register(url: str, name: str) -> dict[str, str]:
    response = httpx.post(f"{url}/api/register", json={"name": name, "password": "correct horse"}, timeout=30)
    assert response.status_code == 200, response.text
    return {
        "Cookie": f"{SESSION_COOKIE}={response.cookies[SESSION_COOKIE]}",
        "X-CSRF-Token": response.json()["csrf_token"],
    }


@pytest.fixture
def state_dir() -> Iterator[Path]:
    """Under /tmp rather than pytest's folder: as root, PostgreSQL runs as ``postgres``,
    who may not enter pytest's private folders."""
    folder = Path(tempfile.mkdtemp(prefix="tavla-cluster-test-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2] != "Z"


def every_pid(cluster: Cluster) -> set[int]:
    return {pid for component in cluster.components if component.pid for pid in children(component.pid)}


def test_two_processes_behind_nginx_share_sessions_and_lobby_and_stop_without_orphans(
    state_dir: Path,
) -> None:
    options = ClusterOptions(
        processes=2, port=free_port(), state_dir=state_dir, settings={"TAVLA_BOT_DELAY_MS": "0"}
    )
    cluster = Cluster(options)
    cluster.start()
    try:
        first, second = cluster.servers
        # Plain HTTP through nginx reaches both processes (their health says which answered).
        answered = set()
        for _ in range(20):
            health = httpx.get(f"{cluster.url}/api/health", timeout=10).json()
            answered.add(health["process"]["pid"])
        assert answered == {first.pid, second.pid}

        # One signing key and one database: a session opened on one process is valid on the other.
        ayse = register(first.url, "ayse")
        assert httpx.get(f"{second.url}/api/me", headers=ayse, timeout=10).json()["name"] == "ayse"

        # A websocket upgraded through nginx, with the browser's Origin (nginx passes the
        # Host on, so the server sees its own origin): the lobby's snapshot comes, then an
        # offer made on the other process arrives through Redis.
        mehmet = register(second.url, "mehmet")
        with connect(
            f"ws://127.0.0.1:{options.port}/ws/lobby",
            additional_headers={"Cookie": ayse["Cookie"]},
            origin=Origin(cluster.url),
            open_timeout=20,
        ) as lobby:
            snapshot = json.loads(lobby.recv(timeout=20))
            assert snapshot["type"] == "lobby" and snapshot["offers"] == []
            for server in (first, second):  # whichever process nginx chose, the other one too
                made = httpx.post(
                    f"{server.url}/api/offers",
                    json={"game": "tabla", "length": 1},
                    headers=mehmet,
                    timeout=10,
                )
                assert made.status_code == 201, made.text
                offer = made.json()["id"]
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    message = json.loads(lobby.recv(timeout=20))
                    if message["type"] == "lobby" and offer in {row["id"] for row in message["offers"]}:
                        break
                else:
                    raise AssertionError(f"the offer made on {server.name} never reached the lobby")

        pids = every_pid(cluster)
        assert len(pids) >= 6  # postgres and its helpers, redis, two servers, nginx and its worker
    finally:
        cluster.stop()
    assert [pid for pid in pids if alive(pid)] == []
    assert all(component.pid is None for component in cluster.components)
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"{cluster.url}/api/health", timeout=2)


def reaches_state(pid: int, stopped: bool) -> bool:
    """Whether ``pid`` is (or, within a few seconds, becomes) stopped or not: a signal
    is delivered a moment after it is sent."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        text = Path(f"/proc/{pid}/stat").read_text()
        if (text[text.rindex(")") + 2] == "T") == stopped:
            return True
        time.sleep(0.01)
    return False


def test_single_pieces_can_be_frozen_killed_and_restarted(state_dir: Path) -> None:
    with Cluster(ClusterOptions(processes=2, port=free_port(), state_dir=state_dir)) as cluster:
        first, second = cluster.servers
        ayse = register(cluster.url, "ayse")
        first_pid = first.pid
        assert first_pid is not None

        first.pause()
        assert reaches_state(first_pid, stopped=True)
        first.resume()
        assert reaches_state(first_pid, stopped=False)

        # A crash of one process: nginx sends everything to the other.
        first.kill()
        assert not alive(first_pid)
        for _ in range(6):
            assert httpx.get(f"{cluster.url}/api/health", timeout=10).json()["process"]["pid"] == second.pid
        first.start()
        assert first.pid != first_pid
        assert httpx.get(f"{first.url}/api/health", timeout=10).json()["process"]["pid"] == first.pid

        # The stores restart on their ports; the processes reconnect, the data is kept.
        assert cluster.redis is not None and cluster.postgres is not None
        redis_pid, postgres_pid = cluster.redis.pid, cluster.postgres.pid
        cluster.redis.restart()
        cluster.postgres.restart()
        assert cluster.redis.pid != redis_pid and cluster.postgres.pid != postgres_pid
        assert not alive(redis_pid or 0) and not alive(postgres_pid or 0)
        for server in (first, second):
            me = httpx.get(f"{server.url}/api/me", headers=ayse, timeout=30)
            if me.status_code == 503:
                # A pooled connection the restart cut is refused once, as a retry later;
                # the pool then starts afresh (connections are not pinged before use).
                assert me.json()["error"]["code"] == "unavailable" and me.headers["Retry-After"] == "1"
                time.sleep(1)
                me = httpx.get(f"{server.url}/api/me", headers=ayse, timeout=30)
            assert me.status_code == 200 and me.json()["name"] == "ayse", me.text


def test_the_command_prints_where_everything_runs_and_stops_on_sigterm(state_dir: Path) -> None:
    port = free_port()
    command = [sys.executable, "-c", "from tavla.cli.main import main; main()", "cluster"]
    command += ["--processes", "1", "--port", str(port), "--state-dir", str(state_dir)]
    env = {**os.environ, "COLUMNS": "200"}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    ) as running:
        assert running.stdout is not None
        lines = []
        for line in running.stdout:
            lines.append(line)
            if "Ctrl-C stops everything" in line:
                break
        printed = "".join(lines)
        assert running.poll() is None, printed
        for name in ("postgres", "redis", "server-1", "nginx"):
            assert name in printed
        assert f"http://127.0.0.1:{port}" in printed
        health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10).json()
        assert f"│ {health['process']['pid']} " in printed  # the server's pid, as the table shows it
        tree = children(running.pid)
        assert len(tree) >= 5
        running.send_signal(signal.SIGTERM)
        rest = running.stdout.read()
        assert running.wait(60) == 0, rest
    assert "stopped." in rest
    assert [pid for pid in tree if alive(pid)] == []


def test_a_database_that_does_not_answer_is_a_clear_error_and_leaves_nothing_running(state_dir: Path) -> None:
    from typer.testing import CliRunner

    from tavla.cli.main import app

    dead = f"postgresql://tavla@127.0.0.1:{free_port()}/tavla"
    before = set(children(os.getpid()))
    arguments = ["cluster", "--processes", "1", "--port", str(free_port()), "--state-dir", str(state_dir)]
    result = CliRunner().invoke(app, [*arguments, "--database-url", dead])
    assert result.exit_code == 1
    assert "could not migrate" in result.output and f"logs in {state_dir}" in result.output
    assert set(children(os.getpid())) - before == set()  # its Redis is stopped again
    assert (state_dir / "redis" / "redis.log").exists()


def test_the_processes_share_the_cores_among_their_bots(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One machine's processes divide its cores among their bots' workers, unless told."""
    monkeypatch.delenv("TAVLA_BOT_PROCESSES", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)))
    stores = {"database_url": "postgresql://tavla@127.0.0.1/tavla", "redis_url": "redis://127.0.0.1:1/0"}

    def workers(**options: object) -> str:
        cluster = Cluster(ClusterOptions(state_dir=state_dir, **stores, **options))  # type: ignore[arg-type]
        return cluster._server_env()["TAVLA_BOT_PROCESSES"]

    assert workers(processes=3) == "2" and workers(processes=2) == "4" and workers(processes=16) == "1"
    assert workers(processes=3, settings={"TAVLA_BOT_PROCESSES": "0"}) == "0"
    monkeypatch.setenv("TAVLA_BOT_PROCESSES", "5")
    assert workers(processes=3) == "5"


def test_a_piece_that_exits_while_starting_is_told_with_its_log_s_last_lines(tmp_path: Path) -> None:
    """The error carries the log's end: a test's state folder, and the log in it, is gone
    by the time someone reads the failure."""
    log = tmp_path / "server-1.log"
    log.write_text("".join(f"line {number}\n" for number in range(30)) + "OSError: address already in use\n")
    with pytest.raises(ComponentError) as raised:
        wait_until(lambda: False, 5, "server-1", lambda: False, log)
    message = str(raised.value)
    assert message.startswith("server-1 exited while starting:")
    assert message.endswith("address already in use")
    assert "line 19" in message and "line 18" not in message  # the last twelve lines
    with pytest.raises(ComponentError, match=r"^server-1 exited while starting$"):
        wait_until(lambda: False, 5, "server-1", lambda: False)
