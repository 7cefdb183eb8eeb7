"""A request's transaction is committed before its answer starts (docs/API.md 6): the
client that is told "done" finds the change on its next request, and a commit that
fails is answered as an error, never after a success was already sent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from tests.server.conftest import make_settings

from tavla.server.app import create_app

pytestmark = pytest.mark.timeout(60)


class Recording:
    """Wraps the application and writes down, in order, each commit of the database and
    each answer's start."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.events: list[str] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.events.append(f"answer {message['status']}")
            await send(message)

        await self.app(scope, receive, sending)

    def commit(self, connection: Any) -> None:
        self.events.append("commit")


@pytest.fixture
def recorded(database_url: str) -> Iterator[tuple[TestClient, Recording]]:
    recording = Recording(create_app(make_settings(database_url)))
    event.listen(Engine, "commit", recording.commit)
    try:
        with TestClient(recording, base_url="http://testserver") as client:
            recording.events.clear()  # (what starting the server stored)
            yield client, recording
    finally:
        event.remove(Engine, "commit", recording.commit)


def test_a_registration_is_committed_before_it_is_answered(recorded: tuple[TestClient, Recording]) -> None:
    client, recording = recorded
    response = client.post("/api/register", json={"name": "ayse", "password": "correct horse"})
    assert response.status_code == 200, response.text
    assert recording.events[-2:] == ["commit", "answer 200"], recording.events
    assert client.get("/api/me").json()["name"] == "ayse"


def test_a_commit_that_fails_is_answered_as_an_error_and_stores_nothing(
    recorded: tuple[TestClient, Recording],
) -> None:
    client, recording = recorded

    def lost(session: Session) -> None:
        closed = Exception("server closed the connection")
        raise OperationalError("COMMIT", None, closed, connection_invalidated=True)

    event.listen(Session, "before_commit", lost)
    try:
        response = client.post("/api/register", json={"name": "mehmet", "password": "correct horse"})
    finally:
        event.remove(Session, "before_commit", lost)
    assert response.status_code == 503, response.text
    assert response.json()["error"]["code"] == "unavailable"
    assert "commit" not in recording.events
    login = client.post("/api/login", json={"name": "mehmet", "password": "correct horse"})
    assert login.status_code == 401, login.text
