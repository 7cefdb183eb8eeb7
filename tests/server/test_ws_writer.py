"""A dropped socket's writer (server/ws.py): what was queued goes out with the close, and
a client that stops reading, or a socket that fails, cannot hold the handler."""

from __future__ import annotations

import asyncio
import time

import pytest

from tavla.server import ws
from tavla.server.ws import Connection, let_the_writer_finish

pytestmark = pytest.mark.timeout(30)


class Socket:
    """A websocket whose sends pass, hang or fail."""

    def __init__(self, sending: str) -> None:
        self.sending = sending
        self.sent: list[str] = []
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        if self.sending == "hangs":
            await asyncio.Event().wait()
        if self.sending == "fails":
            raise RuntimeError("the socket is gone")
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed_with = code


def _dropped(sending: str) -> tuple[Socket, float, bool]:
    """(the socket, the seconds the handler waited, whether the writer was still running)."""

    async def scenario() -> tuple[Socket, float, bool]:
        socket = Socket(sending)
        connection = Connection(socket, None)  # type: ignore[arg-type]
        writer = asyncio.create_task(connection.writer())
        connection.send({"type": "state", "v": 7})
        connection.drop(1013)
        start = time.monotonic()
        await let_the_writer_finish(connection, writer)
        waited = time.monotonic() - start
        running = not writer.done()
        writer.cancel()
        return socket, waited, running

    return asyncio.run(scenario())


def test_a_dropped_socket_gets_what_was_queued_and_its_close() -> None:
    socket, _, running = _dropped("passes")
    assert socket.sent == ['{"type":"state","v":7}'] and socket.closed_with == 1013 and not running


def test_a_client_that_stopped_reading_holds_the_handler_only_for_the_grace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ws, "WRITER_GRACE_S", 0.2)
    socket, waited, running = _dropped("hangs")
    assert 0.2 <= waited < 5 and running and socket.closed_with is None


def test_a_socket_failing_under_the_writer_is_no_failure_of_the_handler() -> None:
    socket, waited, running = _dropped("fails")
    assert waited < 1 and not running and socket.sent == []


def test_a_socket_still_open_is_not_waited_for() -> None:
    """The client went away on its own: nothing was dropped, nothing to flush."""

    async def scenario() -> float:
        connection = Connection(Socket("hangs"), None)  # type: ignore[arg-type]
        writer = asyncio.create_task(connection.writer())
        connection.send({"type": "state", "v": 7})
        start = time.monotonic()
        await let_the_writer_finish(connection, writer)
        waited = time.monotonic() - start
        writer.cancel()
        return waited

    assert asyncio.run(scenario()) < 0.5  # not the second's grace
