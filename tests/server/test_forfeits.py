"""An official declares a forfeit in a tournament game (docs/tournaments.md, No-shows).

An arbiter or administrator of the game's federation declares that one player, or both
(neither came), loses the match at once, over HTTP or from the board. The decision is a
`forfeit` or `void` action of the match record. Everybody else is refused and nothing
is recorded; so is a decision in a game of no tournament, after the end, or a bad seat.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from tests.server.conftest import DATABASES, _postgres_database
from tests.server.federation_world import ACTORS, World, answer, build_world, sync_url
from tests.server.play import Seat
from tests.server.test_warnings import MAY_WARN, game_of_no_tournament

from tavla.storage.models import GameAction, LiveGame

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module", params=DATABASES)
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    if request.param == "postgresql":
        url = _postgres_database()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('forfeits') / 'tavla.db'}"
    yield from build_world(url)


def decisions(world: World, game: str) -> list[tuple[Any, ...]]:
    """The officials' decisions the database holds for the game, and its status and winner."""
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(GameAction.kind, GameAction.seat, GameAction.value)
                .where(GameAction.game_id == game, GameAction.kind.in_(("forfeit", "void")))
                .order_by(GameAction.index)
            )
            status = connection.execute(
                select(LiveGame.status, LiveGame.winner).where(LiveGame.id == game)
            ).one()
            return [*(tuple(row) for row in rows), tuple(status)]
    finally:
        engine.dispose()


def forfeit_http(world: World, who: str, game: str, seat: int | None = 1, note: str = "") -> Any:
    return world.post(who, f"/api/games/{game}/forfeit", {"seat": seat, "note": note})


@pytest.mark.parametrize("actor", ACTORS)
def test_only_the_federations_officials_declare_a_forfeit_over_http(world: World, actor: str) -> None:
    game = world.start_game("tbf", spectators=True)
    response = forfeit_http(world, actor, game, note="gelmedi")
    if actor in MAY_WARN:
        assert response.status_code == 200, response.text
        assert response.json() == {"ok": True, "over": True, "winner": 0, "forfeit": "forfeit"}
        assert decisions(world, game) == [("forfeit", 1, "gelmedi"), ("finished", 0)]
        return
    assert response.status_code == (401 if actor == "nobody" else 403), (actor, response.text)
    if actor != "nobody":
        assert "declare a forfeit" in response.json()["error"]["message"]
    assert decisions(world, game) == [("live", None)]


@pytest.mark.parametrize("actor", ACTORS)
def test_only_the_federations_officials_declare_a_forfeit_from_the_board(world: World, actor: str) -> None:
    game = world.start_game("tbf", spectators=True)
    with world.site.as_(world.people[actor]).websocket_connect(f"/ws/game/{game}") as socket:
        Seat(socket)
        socket.send_json({"type": "forfeit", "seq": 4, "seat": None, "note": "ikisi de gelmedi"})
        reply = answer(socket)
    if actor in MAY_WARN:
        assert reply["type"] == "ack", reply
        assert decisions(world, game) == [("void", None, "ikisi de gelmedi"), ("finished", None)]
        return
    assert reply["type"] == "error" and reply["code"] == "forbidden", reply
    assert decisions(world, game) == [("live", None)]


def test_bad_decisions_are_refused_and_change_nothing(world: World) -> None:
    game = world.start_game("tbf", spectators=True)
    for body in ({"seat": 2}, {"seat": -1}, {"seat": "white"}, {"seat": 0, "note": "x" * 201}, {}):
        response = world.post("arbiter", f"/api/games/{game}/forfeit", body)
        assert response.status_code == 422, (body, response.text)
    with world.site.as_(world.people["arbiter"]).websocket_connect(f"/ws/game/{game}") as socket:
        Seat(socket)
        socket.send_json({"type": "forfeit", "seq": 1, "seat": 3})
        reply = answer(socket)
        assert reply["code"] == "malformed" and "seat 0, seat 1, or null" in reply["message"], reply
    assert decisions(world, game) == [("live", None)]
    elsewhere = game_of_no_tournament(world)
    assert forfeit_http(world, "arbiter", elsewhere).status_code == 403
    assert decisions(world, elsewhere) == [("live", None)]
    assert forfeit_http(world, "admin", game, seat=0).status_code == 200
    again = forfeit_http(world, "arbiter", game, seat=1)
    assert again.status_code == 409 and again.json()["error"]["code"] == "over"
    assert decisions(world, game) == [("forfeit", 0, ""), ("finished", 1)]


def test_a_forfeit_from_the_board_needs_no_note(world: World) -> None:
    game = world.start_game("tbf", spectators=True)
    with world.site.as_(world.people["arbiter"]).websocket_connect(f"/ws/game/{game}") as socket:
        Seat(socket)
        socket.send_json({"type": "forfeit", "seq": 1, "seat": 1})
        reply = answer(socket)
    assert reply["type"] == "ack", reply
    assert decisions(world, game) == [("forfeit", 1, ""), ("finished", 0)]
