"""A site with two federations, an account in every role, and games of the first
federation: what the federation tests act on (docs/federations.md).

The Turkish federation ``tbf`` and the Bulgarian ``bfb``; each role of ``tbf`` has its
account, and ``bfb`` has an administrator and an arbiter (the strangers to ``tbf``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from sqlalchemy.engine import make_url
from tests.server.conftest import Player, Site, make_settings
from tests.server.play import Seat

from tavla.match.settings import MatchSettings
from tavla.server.app import create_app
from tavla.server.federations.owners import set_owner
from tavla.server.live.room import SeatInfo
from tavla.server.platform import Platform
from tavla.storage.models import (
    ChatMessage,
    Federation,
    FederationApplication,
    FederationRole,
    LiveGame,
    User,
)

TBF = "Türkiye Tavla Federasyonu"
BFB = "Българска федерация по табла"

ACTORS = (
    "nobody",  # no session at all
    "guest",
    "outsider",  # registered, no role anywhere
    "applicant",  # has applied to tbf
    "member",  # a player of tbf, not playing the game
    "player",  # a player of tbf, seat 0 of its games
    "arbiter",  # arbiter of tbf
    "admin",  # administrator of tbf
    "other_arbiter",  # arbiter of bfb
    "other_admin",  # administrator of bfb
    "owner",  # the site owner
)
"""Everybody who may try something, by the role they stand in towards tbf."""


def sync_url(url: str) -> str:
    """The same database through a synchronous driver, to look into it from a test."""
    parsed = make_url(url)
    driver = "sqlite+pysqlite" if parsed.get_backend_name() == "sqlite" else "postgresql+psycopg"
    return parsed.set(drivername=driver).render_as_string(hide_password=False)


@dataclass
class World:
    site: Site
    database_url: str
    people: dict[str, Player | None] = field(default_factory=dict)
    private_game: str = ""
    """tbf's game between ``player`` and ``opponent``; spectators forbidden, chat on."""
    public_game: str = ""
    """The same, with spectators allowed."""

    @property
    def platform(self) -> Platform:
        platform: Platform = self.site.platform
        return platform

    def rows(self, statement: Any) -> list[tuple[Any, ...]]:
        """The rows ``statement`` reads from the database, in the order it gives them."""
        engine = create_engine(sync_url(self.database_url))
        try:
            with engine.connect() as connection:
                return [tuple(row) for row in connection.execute(statement)]
        finally:
            engine.dispose()

    def snapshot(self) -> dict[str, Any]:
        """Everything a federation rule guards, as the database holds it."""
        engine = create_engine(sync_url(self.database_url))
        try:
            with engine.connect() as connection:

                def rows(statement: Any) -> list[tuple[Any, ...]]:
                    return sorted(tuple(row) for row in connection.execute(statement))

                return {
                    "federations": rows(select(Federation.id, Federation.slug, Federation.name)),
                    "roles": rows(
                        select(
                            FederationRole.federation_id,
                            FederationRole.user_id,
                            FederationRole.role,
                            FederationRole.contact_email,
                        )
                    ),
                    "applications": rows(
                        select(FederationApplication.federation_id, FederationApplication.user_id)
                    ),
                    "owners": rows(select(User.id).where(User.site_owner.is_(True))),
                    "games": rows(select(LiveGame.id, LiveGame.chat_closed, LiveGame.chat0, LiveGame.chat1)),
                    "chat": rows(select(ChatMessage.game_id, ChatMessage.index, ChatMessage.text)),
                }
        finally:
            engine.dispose()

    def user_id(self, name: str) -> int:
        engine = create_engine(sync_url(self.database_url))
        try:
            with engine.connect() as connection:
                found = connection.execute(select(User.id).where(User.name == name)).scalar_one()
                return int(found)
        finally:
            engine.dispose()

    def federation_id(self, slug: str) -> int:
        engine = create_engine(sync_url(self.database_url))
        try:
            with engine.connect() as connection:
                return int(
                    connection.execute(select(Federation.id).where(Federation.slug == slug)).scalar_one()
                )
        finally:
            engine.dispose()

    def start_game(self, slug: str, *, spectators: bool) -> str:
        """A game of ``slug``'s tournament between ``player`` and ``opponent``, made as
        a tournament makes one (Rooms.create with its federation)."""
        names = ("player", "opponent")
        seats = tuple(SeatInfo(name, self.user_id(name), None) for name in names)
        settings = MatchSettings(game="tabla", length=3, names=names)
        federation_id = self.federation_id(slug)

        async def create() -> str:
            room = await self.platform.rooms.create(
                settings,
                (seats[0], seats[1]),
                spectators=spectators,
                chat_on=(True, True),
                client_seeds=("seed-of-player", "seed-of-opponent"),
                federation_id=federation_id,
            )
            return room.game_id

        portal = self.site.portal
        return str(portal.call(create))

    def say(self, game: str, who: str, text: str) -> dict[str, Any]:
        """``who`` writes ``text`` in the game's chat; the answer (ack or error)."""
        with self.site.as_(self.people[who]).websocket_connect(f"/ws/game/{game}") as socket:
            seat = Seat(socket)
            socket.send_json({"type": "chat", "seq": seat.state["last_seq"] + 1, "text": text})
            return answer(socket)

    def post(self, who: str, url: str, body: Any = None) -> Any:
        return self._send("POST", who, url, body)

    def put(self, who: str, url: str) -> Any:
        return self._send("PUT", who, url, None)

    def delete(self, who: str, url: str) -> Any:
        return self._send("DELETE", who, url, None)

    def get(self, who: str, url: str, **extra: Any) -> Any:
        return self.site.as_(self.people[who]).get(url, **extra)

    def _send(self, method: str, who: str, url: str, body: Any) -> Any:
        player = self.people[who]
        headers = {} if player is None else {"X-CSRF-Token": player.csrf}
        return self.site.as_(player).request(method, url, json=body, headers=headers)


def answer(socket: Any) -> dict[str, Any]:
    """The next ack or error on a game socket (states in between are skipped)."""
    for _ in range(50):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] in ("ack", "error"):
            return message
    raise AssertionError("no answer came")


def build_world(database_url: str, **settings: Any) -> Iterator[World]:
    """The world, on a server of its own; yields it while the server runs."""
    with TestClient(
        create_app(make_settings(database_url, **settings)), base_url="http://testserver"
    ) as client:
        site = Site(client)
        world = World(site, database_url)
        people = world.people
        people["nobody"] = None
        people["guest"] = site.guest()
        for name in ACTORS[2:]:
            people[name] = site.register(name, language="en")
        people["opponent"] = site.register("opponent")
        asyncio.run(set_owner(database_url, "owner", True))
        for slug, name in (("tbf", TBF), ("bfb", BFB)):
            made = world.post("owner", "/api/federations", {"name": name, "slug": slug})
            assert made.status_code == 201, made.text
        for slug, roles in (
            ("tbf", (("administrators", "admin"), ("arbiters", "arbiter"))),
            ("bfb", (("administrators", "other_admin"), ("arbiters", "other_arbiter"))),
        ):
            for path, name in roles:
                by = "owner" if path == "administrators" else ("admin" if slug == "tbf" else "other_admin")
                made = world.put(by, f"/api/federations/{slug}/{path}/{name}")
                assert made.status_code == 200, made.text
        for name in ("member", "player", "opponent"):
            assert world.put("admin", f"/api/federations/tbf/players/{name}").status_code == 200
        applied = world.post(
            "applicant", "/api/federations/tbf/applications", {"contact_email": "aday@example.org"}
        )
        assert applied.status_code == 201, applied.text
        world.private_game = world.start_game("tbf", spectators=False)
        world.public_game = world.start_game("tbf", spectators=True)
        for game in (world.private_game, world.public_game):
            assert world.say(game, "player", "iyi oyunlar")["type"] == "ack"
        yield world
