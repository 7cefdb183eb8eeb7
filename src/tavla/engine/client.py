"""The client side of the engine protocol (docs/engine-protocol.md): an engine program
run as a subprocess and asked for its moves, so that two engines (``tavla engine`` with
other weights, or another program that speaks the protocol) can play each other
(``tavla duel``). Every reply is checked against the rules before it is played."""

from __future__ import annotations

import json
import queue
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from types import TracebackType
from typing import IO, Any

from tavla.core.errors import TavlaError
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn

ANSWER_MARGIN_S = 30.0
"""How long past its ``movetime_ms`` an engine may take to answer before it is given
up: loading its networks on the first request, or a machine busy with other work."""


class EngineFailure(TavlaError):
    """An engine that stopped, did not answer in time, refused a request or answered
    with a move the rules do not allow."""


class EngineProcess:
    """An engine program (``command``: its argument list) speaking the protocol on its
    standard input and output; ``hello`` holds its answer to the first request."""

    def __init__(
        self, command: Sequence[str], *, label: str | None = None, hello_timeout_s: float = ANSWER_MARGIN_S
    ) -> None:
        self.command = list(command)
        self.label = label or " ".join(self.command)
        # What it says on standard error, for a failure's message; closed by close().
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._errors,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
        except OSError as error:
            self._errors.close()
            raise EngineFailure(f"{self.label}: cannot start it ({error.strerror or error})") from None
        if self._process.stdin is None:  # never: stdin is a pipe; this tells mypy so
            raise EngineFailure(f"{self.label}: no pipe to its standard input")
        self._stdin = self._process.stdin
        self._lines: queue.Queue[str | None] = queue.Queue()
        # A thread reads the replies so that a silent engine is given up after a while
        # instead of blocking the duel for ever.
        threading.Thread(target=self._read, args=(self._process.stdout,), daemon=True).start()
        self._next_id = 0
        try:
            self.hello = self.request({"cmd": "hello"}, timeout_s=hello_timeout_s)
        except EngineFailure:
            self.close(grace_s=0.5)  # an engine that cannot say hello is not left running
            raise
        self.name = f"{self.hello.get('name', '?')} {self.hello.get('version', '')}".strip()
        weights = self.hello.get("weights")
        if isinstance(weights, dict) and weights:
            self.name += " (" + "; ".join(f"{game}: {source}" for game, source in weights.items()) + ")"

    def _read(self, stream: IO[str] | None) -> None:
        for line in stream or ():
            self._lines.put(line)
        self._lines.put(None)

    def request(self, message: dict[str, Any], *, timeout_s: float) -> dict[str, Any]:
        """The engine's reply to ``message``; EngineFailure for an error reply, a reply
        that is not a JSON object, none within ``timeout_s``, or an engine that stopped."""
        self._next_id += 1
        request_id = self._next_id
        try:
            self._stdin.write(json.dumps({"id": request_id, **message}) + "\n")
            self._stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._stopped() from None
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                waited = f"no answer to {message['cmd']} within {timeout_s:.0f} s"
                raise EngineFailure(f"{self.label}: {waited}") from None
            if line is None:
                raise self._stopped()
            try:
                reply = json.loads(line)
            except ValueError:
                raise EngineFailure(f"{self.label}: a reply that is not JSON: {line.strip()[:200]}") from None
            if not isinstance(reply, dict):
                raise EngineFailure(f"{self.label}: a reply that is not a JSON object: {line.strip()[:200]}")
            if reply.get("id") is None and "error" in reply:
                # The engine could not read a request, and only this one is waiting.
                raise EngineFailure(f"{self.label}: refused {message['cmd']}: {reply['error']}")
            if reply.get("id") != request_id:
                continue  # a late answer to a request given up on
            if "error" in reply:
                raise EngineFailure(f"{self.label}: refused {message['cmd']}: {reply['error']}")
            return reply

    def _stopped(self) -> EngineFailure:
        status = self._process.wait(timeout=5)
        self._errors.seek(0)
        said = self._errors.read().decode("utf-8", "replace").strip().splitlines()
        tail = f": {said[-1]}" if said else ""
        return EngineFailure(f"{self.label}: stopped (exit status {status}){tail}")

    def close(self, grace_s: float = 5.0) -> None:
        """Ask the engine to quit; end it if it does not within ``grace_s`` seconds."""
        if self._process.poll() is None:
            try:
                self._stdin.write('{"cmd": "quit"}\n')
                self._stdin.close()
                self._process.wait(timeout=grace_s)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        self._errors.close()

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


class EnginePlayer:
    """A player (``choose(position)``, as every player of ``tavla.bots``) whose turns an
    engine chooses at ``level``. Its move is read by the rules (``parse_turn``: a turn
    the rules do not allow is refused) and its ``after`` must be where that turn leads.
    ``seconds`` and ``moves`` add up the time it took to answer."""

    def __init__(self, engine: EngineProcess, level: str, *, movetime_ms: int | None = None) -> None:
        self.engine = engine
        self.level = level
        self.movetime_ms = movetime_ms
        self.name = f"{engine.name} ({level})"
        self.seconds = 0.0
        self.moves = 0

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        turn: DiceTurn[Any] = self._turn(position)
        return turn

    def play(self, position: Any) -> Any:
        """The position after the engine's turn: a game without dice (Abluka), as
        ``tavla.bots.duel.board_duel`` asks."""
        return self._turn(position).after

    def _turn(self, position: Any) -> Any:
        message: dict[str, Any] = {"cmd": "move", "position": position.notation(), "level": self.level}
        if self.movetime_ms is not None:
            message["movetime_ms"] = self.movetime_ms
        wait_s = ANSWER_MARGIN_S + (self.movetime_ms or 10_000) / 1000
        started = time.perf_counter()
        reply = self.engine.request(message, timeout_s=wait_s)
        self.seconds += time.perf_counter() - started
        self.moves += 1
        move, after = reply.get("move"), reply.get("after")
        if not isinstance(move, str):
            raise EngineFailure(f"{self.engine.label}: a move reply without a move: {reply}")
        try:
            turn = position.parse_turn(move)
        except TavlaError as error:
            where = position.notation()
            raise EngineFailure(f"{self.engine.label}: an illegal move in {where}: {error}") from None
        if after != turn.after.notation():
            raise EngineFailure(
                f"{self.engine.label}: its 'after' {after!r} is not where {move} leads from "
                f"{position.notation()} ({turn.after.notation()})"
            )
        return turn

    def double(self, position: DiceGame[Any], cube: int, owner: int | None) -> bool:
        """The engine's ``double`` answer for the side to act in ``position``, in a money
        game without the Jacoby rule or beavers."""
        answer = self._cube("double", position, cube, owner).get("double")
        if not isinstance(answer, bool):
            raise EngineFailure(f"{self.engine.label}: {answer!r} to double, not true or false")
        return answer

    def take(self, position: DiceGame[Any], cube: int, owner: int | None) -> bool:
        """The engine's ``take`` answer for the side to act in ``position``: True to take,
        False to drop (beavers are off: one is refused)."""
        answer = self._cube("take", position, cube, owner).get("take")
        if answer not in ("take", "drop"):
            raise EngineFailure(f"{self.engine.label}: {answer!r} to a double where beavers are off")
        return bool(answer == "take")

    def _cube(self, command: str, position: DiceGame[Any], cube: int, owner: int | None) -> dict[str, Any]:
        colour = None if owner is None else "wb"[owner]
        match = {"length": 0, "cube": cube, "owner": colour, "jacoby": False, "beavers": False}
        message = {"cmd": command, "position": position.notation(), "level": self.level, "match": match}
        return self.engine.request(message, timeout_s=ANSWER_MARGIN_S)
