"""Voiding an abandoned game played for a stake (RULES.md 12; docs/ledger.md): an
administrator of the game's federation ends it with no winner, both reservations are
released to the cent, and everybody else, or a game that is not his to void, is refused
with nothing changed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from tests.server.conftest import DATABASES, _postgres_database
from tests.server.federation_world import World, build_world, sync_url
from tests.server.test_stake_games import books, fund, money, started_game

from tavla.storage.models import GameAction, LiveGame

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(params=DATABASES)
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    if request.param == "postgresql":
        url = _postgres_database()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('voids') / 'tavla.db'}"
    yield from build_world(url)


def held(world: World) -> dict[str, tuple[int, int]]:
    """Each player's (balance, reserved) and the sum of the books, as the ledger says."""
    found = {name: money(world, name) for name in ("player", "opponent")}
    shown = {name: (m["balance_cents"], m["reserved_cents"]) for name, m in found.items()}
    return {**shown, "total": (books(world)["total_cents"], 0)}


def game_row(world: World, game: str) -> tuple[Any, ...]:
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            status = connection.execute(select(LiveGame.status, LiveGame.winner).where(LiveGame.id == game))
            kinds = connection.execute(
                select(GameAction.kind).where(GameAction.game_id == game).order_by(GameAction.index)
            )
            return (*status.one(), list(kinds.scalars())[-1])
    finally:
        engine.dispose()


REFUSED = {
    "nobody": 401,
    "guest": 403,
    "outsider": 403,
    "member": 403,  # a player of tbf
    "player": 403,  # his own game
    "arbiter": 403,  # an arbiter is not an administrator
    "other_admin": 403,  # another federation's administrator
    "owner": 403,  # the site owner has no power inside a federation
}


def test_an_administrator_voids_an_abandoned_stake_game_and_both_stakes_come_back(world: World) -> None:
    fund(world, player=1000, opponent=1000)
    game = started_game(world)
    void = f"/api/games/{game}/void"
    before = held(world)
    assert before == {"player": (500, 500), "opponent": (500, 500), "total": (0, 0)}
    page = world.get("admin", "/federations/tbf/books").text
    assert f'data-url="{void}"' in page
    assert "player – opponent" in page  # the game's players, its maker first
    snapshot = world.snapshot()
    for who, status in REFUSED.items():
        answer = world.post(who, void, {"note": "left"})
        assert answer.status_code == status, (who, answer.text)
    assert world.snapshot() == snapshot and held(world) == before
    assert game_row(world, game)[0] == "live"

    done = world.post("admin", void, {"note": "the opponent left the game"})
    assert done.status_code == 200, done.text
    assert done.json() == {"ok": True, "over": True, "winner": None}
    assert game_row(world, game) == ("finished", None, "void")
    for name in ("player", "opponent"):
        back = money(world, name)
        assert (back["balance_cents"], back["reserved_cents"]) == (1000, 0)
        assert [line["kind"] for line in back["lines"]] == ["deposit", "reservation", "release"]
    assert books(world)["total_cents"] == 0
    assert books(world)["fees_collected_cents"] == 0  # no winner, no fee
    assert f'data-url="{void}"' not in world.get("admin", "/federations/tbf/books").text
    again = world.post("admin", void, {"note": "twice"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "over"
    # The player reads the release in his language, the ledger's reason after its kind
    # (its memo, "reservation released", says what the kind says: it is not repeated).
    assert world._send("PUT", "player", "/api/me/preferences", {"language": "tr"}).status_code == 200
    statement = world.get("player", "/federations/tbf/money").text
    assert re.search(r"Bloke kaldırıldı\s*<small>oyun geçersiz: kazanan yok</small>", statement)
    assert "reservation released" not in statement


def test_a_game_without_a_stake_or_outside_the_federation_is_not_voided(world: World) -> None:
    player = world.people["player"]
    assert player is not None
    lobby_game = world.site.bot_game(player, game="tabla", length=1)
    snapshot = world.snapshot()
    # tbf's game without a stake (as a tournament's): not the ledger's to release.
    unstaked = world.post("admin", f"/api/games/{world.public_game}/void", {"note": "x"})
    assert unstaked.status_code == 409 and unstaked.json()["error"]["code"] == "not_staked"
    # A game of no federation (against the site's bot).
    outside = world.post("admin", f"/api/games/{lobby_game}/void", {"note": "x"})
    assert outside.status_code == 403
    assert world.post("admin", "/api/games/nosuchgame/void", {"note": "x"}).status_code == 404
    too_long = world.post("admin", f"/api/games/{world.public_game}/void", {"note": "x" * 201})
    assert too_long.status_code == 422
    assert world.snapshot() == snapshot
