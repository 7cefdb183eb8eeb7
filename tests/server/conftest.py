"""A server per test on a fresh database, and players who sign in to it.

The database is SQLite in a temporary folder, or PostgreSQL when
``TAVLA_TEST_POSTGRES`` names a server to create databases on (``make test`` starts
one, docs/API.md); the tests are the same on both.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from anyio.from_thread import BlockingPortal
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.databases import migrated_postgres, migrated_sqlite
from tests.server.served import CHEAP_PASSWORDS, Served, serve_sqlite

from tavla.server.app import create_app
from tavla.server.deps import SESSION_COOKIE
from tavla.server.platform import Platform
from tavla.server.settings import Settings

POSTGRES = os.environ.get("TAVLA_TEST_POSTGRES")
"""e.g. postgresql://postgres@127.0.0.1:55432 — a server this user may create databases on."""


def _postgres_database() -> str:
    """A new migrated database on the test's PostgreSQL server."""
    assert POSTGRES is not None
    return migrated_postgres(POSTGRES)


DATABASES = ["sqlite"] + (["postgresql"] if POSTGRES else [])


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return _postgres_database()
    return migrated_sqlite(tmp_path / "tavla.db")


@dataclass
class Player:
    name: str
    token: str
    csrf: str


class Site:
    """One running server and the players signed in to it; requests act as one of them."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    @property
    def platform(self) -> Platform:
        """The running app's platform (its ``app.state.platform``)."""
        app = self.client.app
        assert isinstance(app, FastAPI)
        platform: Platform = app.state.platform
        return platform

    @property
    def portal(self) -> BlockingPortal:
        """The client's portal into the app's event loop (open while the client runs)."""
        portal = self.client.portal
        assert portal is not None
        return portal

    def as_(self, player: Player | None) -> TestClient:
        self.client.cookies.clear()
        if player is not None:
            self.client.cookies.set(SESSION_COOKIE, player.token)
        return self.client

    def register(self, name: str, password: str = "correct horse", **extra: Any) -> Player:
        self.client.cookies.clear()
        response = self.client.post("/api/register", json={"name": name, "password": password, **extra})
        assert response.status_code == 200, response.text
        return Player(name, response.cookies[SESSION_COOKIE], response.json()["csrf_token"])

    def guest(self) -> Player:
        self.client.cookies.clear()
        response = self.client.post("/api/guest", json={})
        assert response.status_code == 200, response.text
        return Player(
            response.json()["name"], response.cookies[SESSION_COOKIE], response.json()["csrf_token"]
        )

    def post(self, player: Player, url: str, body: Any = None) -> Any:
        return self.as_(player).post(
            url, json=body if body is not None else {}, headers={"X-CSRF-Token": player.csrf}
        )

    def delete(self, player: Player, url: str) -> Any:
        return self.as_(player).delete(url, headers={"X-CSRF-Token": player.csrf})

    def bot_game(self, player: Player, **choice: Any) -> str:
        response = self.post(player, "/api/bot-games", {"level": "easy", **choice})
        assert response.status_code == 201, response.text
        return str(response.json()["game_id"])


def make_settings(database_url: str, **extra: Any) -> Settings:
    extra.setdefault("messages_per_second", 10_000)
    # Tests open many sockets and act fast from one address: the limits are tested apart.
    extra.setdefault("actions_per_second_per_account", 10_000)
    extra.setdefault("changes_per_minute", 10_000)
    extra.setdefault("connections_per_minute_per_address", 10_000)
    extra.setdefault("connections_per_minute_per_account", 10_000)
    # Passwords hashed cheaply: argon2 at the site's cost is most of a test's setting up
    # (test_accounts.py checks the real cost and the rehash between costs).
    extra.setdefault("password_time_cost", CHEAP_PASSWORDS[0])
    extra.setdefault("password_memory_kib", CHEAP_PASSWORDS[1])
    # The bots think on a thread of the test's process: worker processes cost each test
    # a start of their own. test_bot_thinking.py tests the workers, and the real
    # servers of served.py and the browser tests run them as a site does.
    extra.setdefault("bot_processes", 0)
    return Settings(database_url=database_url, bot_delay_ms=0, bot_movetime_ms=50, **extra)


@pytest.fixture
def site(database_url: str) -> Iterator[Site]:
    with TestClient(create_app(make_settings(database_url)), base_url="http://testserver") as client:
        yield Site(client)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A real ``tavla serve`` process on a SQLite file of its own (served.py)."""
    yield from serve_sqlite(tmp_path)
