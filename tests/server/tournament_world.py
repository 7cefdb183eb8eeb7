"""A federation with an administrator, an arbiter and players, for the tournament
tests (docs/tournaments.md), and the steps that run a tournament through the API."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from tests.server.conftest import Player, Site, make_settings
from tests.server.federation_world import sync_url

from tavla.server.app import create_app
from tavla.server.federations.owners import set_owner
from tavla.storage.models import LiveGame, Tournament, TournamentEntrant, TournamentPairing, User

PEOPLE = ("owner", "admin", "arbiter", "ali", "bora", "cem", "deniz", "outsider", "other_admin")
"""admin and arbiter of tbf; ali .. deniz its players; other_admin runs bfb."""
WAIT_S = 60.0


@dataclass
class World:
    site: Site
    database_url: str
    people: dict[str, Player | None] = field(default_factory=dict)

    def send(self, method: str, who: str, url: str, body: Any = None) -> Any:
        player = self.people[who]
        headers = {} if player is None else {"X-CSRF-Token": player.csrf}
        return self.site.as_(player).request(method, url, json=body, headers=headers)

    def ok(self, method: str, who: str, url: str, body: Any = None) -> Any:
        response = self.send(method, who, url, body)
        assert response.status_code in (200, 201), response.text
        return response.json()

    def view(self, tournament: int) -> dict[str, Any]:
        response = self.site.as_(None).get(f"/api/tournaments/{tournament}")
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found

    def create(self, **choice: Any) -> int:
        made = self.ok("POST", "admin", "/api/federations/tbf/tournaments", {"name": "Kupa", **choice})
        return int(made["id"])

    def wait(self, tournament: int, done: Any, what: str) -> dict[str, Any]:
        """Poll the public view until ``done(view)`` (the bots play meanwhile)."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            shown = self.view(tournament)
            if done(shown):
                return shown
            time.sleep(0.05)
        raise AssertionError(f"{what} did not happen in {WAIT_S} s: {self.view(tournament)}")

    def wait_round_official(self, tournament: int, number: int) -> dict[str, Any]:
        return self.wait(
            tournament, lambda v: v["standings_after"] >= number, f"round {number} becoming official"
        )

    def snapshot(self) -> dict[str, Any]:
        """Every tournament row, as the database holds it: a refusal must not change it."""
        engine = create_engine(sync_url(self.database_url))
        try:
            with engine.connect() as connection:

                def rows(statement: Any) -> list[tuple[Any, ...]]:
                    return sorted((tuple(row) for row in connection.execute(statement)), key=repr)

                return {
                    "tournaments": rows(select(Tournament.__table__)),
                    "entrants": rows(select(TournamentEntrant.__table__)),
                    "pairings": rows(select(TournamentPairing.__table__)),
                    "games": rows(select(LiveGame.id, LiveGame.federation_id)),
                    "bots": rows(select(User.name).where(User.bot_level.is_not(None))),
                }
        finally:
            engine.dispose()

    def games(self, tournament: int) -> dict[str, tuple[int | None, str]]:
        """The federation and status of each game of the tournament, from the database."""
        engine = create_engine(sync_url(self.database_url))
        try:
            with engine.connect() as connection:
                statement = (
                    select(LiveGame.id, LiveGame.federation_id, LiveGame.status)
                    .join(TournamentPairing, TournamentPairing.game_id == LiveGame.id)
                    .where(TournamentPairing.tournament_id == tournament)
                )
                found = connection.execute(statement)
                return {game: (federation, status) for game, federation, status in found}
        finally:
            engine.dispose()


def build_world(database_url: str, **settings: Any) -> Iterator[World]:
    with TestClient(
        create_app(make_settings(database_url, **settings)), base_url="http://testserver"
    ) as client:
        site = Site(client)
        world = World(site, database_url)
        world.people["nobody"] = None
        for name in PEOPLE:
            world.people[name] = site.register(name, language="en")
        asyncio.run(set_owner(database_url, "owner", True))
        for slug, name in (("tbf", "Türkiye Tavla Federasyonu"), ("bfb", "Българска федерация по табла")):
            world.ok("POST", "owner", "/api/federations", {"name": name, "slug": slug})
        world.ok("PUT", "owner", "/api/federations/tbf/administrators/admin")
        world.ok("PUT", "owner", "/api/federations/bfb/administrators/other_admin")
        world.ok("PUT", "admin", "/api/federations/tbf/arbiters/arbiter")
        for name in ("ali", "bora", "cem", "deniz"):
            world.ok("PUT", "admin", f"/api/federations/tbf/players/{name}")
        yield world
