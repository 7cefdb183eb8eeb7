"""A real ``tavla serve`` process and players who talk to it over HTTP and websockets.

The in-process TestClient cannot be killed in mid-write; these helpers run the
server as a child process on loopback, so a test can SIGKILL it and start it again
on the same database, and play over real websockets (docs/API.md 3).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tavla.match.record import MatchRecord
from tavla.server.deps import SESSION_COOKIE

TAVLA = Path(sys.executable).with_name("tavla")
START_TIMEOUT_S = 30.0
READ_TIMEOUT_S = 15.0
CHEAP_PASSWORDS = (1, 64)
"""argon2's passes and KiB in the tests' servers: the site's cost is tested apart."""
QUICK_AND_UNLIMITED = {
    "TAVLA_PASSWORD_TIME_COST": str(CHEAP_PASSWORDS[0]),
    "TAVLA_PASSWORD_MEMORY_KIB": str(CHEAP_PASSWORDS[1]),
    "TAVLA_BOT_DELAY_MS": "0",
    "TAVLA_MESSAGES_PER_SECOND": "10000",
    "TAVLA_ACTIONS_PER_SECOND_PER_ACCOUNT": "10000",
    "TAVLA_CHANGES_PER_MINUTE": "10000",
    "TAVLA_CONNECTIONS_PER_MINUTE_PER_ADDRESS": "10000",
    "TAVLA_CONNECTIONS_PER_MINUTE_PER_ACCOUNT": "10000",
}
"""Settings of a server under test: bots act at once, and no limit slows the players."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Served:
    """``tavla serve`` on a port of loopback and a SQLite file that outlives it."""

    def __init__(self, database: Path | str, log: Path, env: dict[str, str] | None = None) -> None:
        self.database = database
        """A SQLite file, or a database URL (several processes may share it)."""
        self.log = log
        self.env = env or {}
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.launched = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start the process without waiting for it to answer (see :meth:`wait_ready`)."""
        env = {**os.environ, **QUICK_AND_UNLIMITED, **self.env}
        env.pop("TAVLA_DATABASE_URL", None)
        command = [
            str(TAVLA),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--database",
            self.database if isinstance(self.database, str) else f"sqlite:///{self.database}",
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.launched = time.monotonic()

    def wait_ready(self) -> None:
        """Wait until the launched process answers ``/api/health``."""
        assert self.process is not None
        deadline = self.launched + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"the server did not answer /api/health: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; what is stored is what survives."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.process = None

    def pause(self) -> None:
        """SIGSTOP: frozen, as by a long pause of its machine; its sockets stay open."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None


def start_together(*servers: Served) -> None:
    """Start the processes side by side, on a database already migrated: two
    processes migrating one empty database at once would race."""
    for server in servers:
        server.launch()
    for server in servers:
        server.wait_ready()


def serve_sqlite(directory: Path) -> Iterator[Served]:
    """A ``tavla serve`` process on a SQLite file of its own in ``directory``, stopped
    afterwards: the body of the ``served`` fixtures."""
    server = Served(directory / "tavla.db", directory / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Account:
    """A registered player: an HTTP client holding the session cookie and CSRF token."""

    def __init__(self, served: Served, name: str) -> None:
        self.served = served
        self.name = name
        response = httpx.post(f"{served.url}/api/register", json={"name": name, "password": "correct horse"})
        assert response.status_code == 200, response.text
        self.token = response.cookies[SESSION_COOKIE]
        self.csrf = str(response.json()["csrf_token"])

    def _headers(self) -> dict[str, str]:
        return {"Cookie": f"{SESSION_COOKIE}={self.token}", "X-CSRF-Token": self.csrf}

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return httpx.post(f"{self.served.url}{path}", json=body or {}, headers=self._headers(), timeout=10)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(f"{self.served.url}{path}", headers=self._headers(), timeout=10)

    def speaks(self, language: str) -> None:
        """Set the player's language (en, tr, bg): the pages he is shown are in it."""
        answer = httpx.put(
            f"{self.served.url}/api/me/preferences",
            json={"language": language},
            headers=self._headers(),
            timeout=10,
        )
        assert answer.status_code == 200, answer.text

    def connect(self, game_id: str, served: Served | None = None) -> WsSeat:
        """The player's socket to the game, on his own server or on ``served``."""
        socket = connect(
            f"ws://127.0.0.1:{(served or self.served).port}/ws/game/{game_id}",
            additional_headers={"Cookie": f"{SESSION_COOKIE}={self.token}"},
            max_queue=None,
        ).__enter__()  # the connection itself (websockets warns when it is not entered)
        return WsSeat(socket)


def offer_and_accept(maker: Account, taker: Account, **choice: Any) -> str:
    made = maker.post("/api/offers", choice)
    assert made.status_code == 201, made.text
    accepted = taker.post(f"/api/offers/{made.json()['id']}/accept", {})
    assert accepted.status_code == 200, accepted.text
    return str(accepted.json()["game_id"])


class WsSeat:
    """A player's game websocket: numbered intents, and the last state seen."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.state: dict[str, Any] = {}
        self.read_state()
        self.seq: int = self.state["last_seq"]

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=READ_TIMEOUT_S))
        return message

    def read_state(self) -> dict[str, Any]:
        while True:
            message = self.read()
            if message["type"] == "state":
                self.state = message
                return message

    def catch_up(self, version: int) -> None:
        """Read states until the one of ``version`` (or a later one) is seen."""
        while self.state["v"] < version:
            self.read_state()

    def send_raw(self, seq: int, version: int, action: dict[str, Any]) -> None:
        self.socket.send(json.dumps({"type": "intent", "seq": seq, "v": version, "action": action}))

    def send(self, action: dict[str, Any]) -> dict[str, Any]:
        """Send the next intent on the current version; the ack or error (state then fresh)."""
        self.seq += 1
        self.send_raw(self.seq, self.state["v"], action)
        return self.answer()

    def answer(self) -> dict[str, Any]:
        while True:
            message = self.read()
            if message["type"] == "state":
                self.state = message
            elif message["type"] in ("ack", "error"):
                if message["type"] == "ack":
                    self.catch_up(message["v"])
                return message

    def close(self) -> None:
        self.socket.close()

    @property
    def match(self) -> dict[str, Any]:
        match: dict[str, Any] = self.state["match"]
        return match


def first_legal(state: dict[str, Any]) -> dict[str, Any] | None:
    """The action a player playing "the first legal step" sends now, or None (not theirs)."""
    match = state["match"]
    if match["over"] or match["actor"] != state["seat"]:
        return None
    phase = match["phase"]
    if phase in ("roll", "raccoon"):
        return {"kind": "roll"}
    if phase == "move":
        steps = state["steps"]
        if steps["complete"]:
            return {"kind": "commit"}
        return {"kind": "step", "step": steps["legal"][0]["text"]}
    if phase == "double":
        return {"kind": "take"}
    if phase == "resign":
        return {"kind": "accept"}
    return None


def check_acked_once(record: MatchRecord, acked: list[tuple[int, int, dict[str, Any]]]) -> None:
    """Every acknowledged roll, turn, take, resignation and acceptance is in ``record``
    once, in order; each seat's sequence numbers go on from 1, each used once."""
    recorded = {"roll": "roll", "commit": "move", "take": "take", "resign": "resign", "accept": "accept"}
    by_players = [
        (action.seat, str(action.kind))
        for action in record.actions
        if action.seat is not None and str(action.kind) in recorded.values()
    ]
    intents = [(seat, recorded[action["kind"]]) for seat, _seq, action in acked if action["kind"] in recorded]
    assert by_players == intents
    for index in (0, 1):
        numbers = [seq for s, seq, _a in acked if s == index]
        assert numbers == list(range(1, len(numbers) + 1))
