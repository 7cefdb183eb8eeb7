"""Playing a game over the websocket as a test client would (docs/API.md 4)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import WebSocketTestSession

MAX_MESSAGES = 50


class Seat:
    """A player's connection: sends numbered intents and reads until the answer."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        self.state: dict[str, Any] = self.read_state()
        self.seq = self.state["last_seq"]

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = self.socket.receive_json()
        return message

    def read_state(self) -> dict[str, Any]:
        for _ in range(MAX_MESSAGES):
            message = self.read()
            if message["type"] == "state":
                self.state = message
                return message
        raise AssertionError("no state message came")

    def send(self, action: dict[str, Any], *, seq: int | None = None, v: int | None = None) -> dict[str, Any]:
        """Send one intent; returns the ack or error, after which ``state`` is fresh."""
        if seq is None:
            self.seq += 1
            seq = self.seq
        version = self.state["v"] if v is None else v
        self.socket.send_json({"type": "intent", "seq": seq, "v": version, "action": action})
        return self.answer()

    def answer(self) -> dict[str, Any]:
        for _ in range(MAX_MESSAGES):
            message = self.read()
            if message["type"] in ("ack", "error"):
                if message["type"] == "ack":
                    self.read_state_until(message["v"])
                return message
            if message["type"] == "state":
                self.state = message
        raise AssertionError("no answer came")

    def read_state_until(self, version: int) -> None:
        while self.state["v"] < version:
            self.read_state()

    def wait(self, predicate: Any) -> dict[str, Any]:
        """Read states until ``predicate(state)`` holds (a bot moving, the next game)."""
        if predicate(self.state):
            return self.state
        for _ in range(MAX_MESSAGES * 4):
            state = self.read_state()
            if predicate(state):
                return state
        raise AssertionError("the awaited state never came")

    @property
    def match(self) -> dict[str, Any]:
        match: dict[str, Any] = self.state["match"]
        return match

    def my_turn(self) -> bool:
        return bool(self.match["actor"] == self.state["seat"] and not self.match["over"])
