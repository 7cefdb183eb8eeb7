"""Arbiters, spectators and the chat over the game websocket (RULES.md 11.2).

Everybody (``ACTORS``) tries to open tbf's private game, read its chat, write to it
and close it: the players and tbf's arbiter may what the rules give them, everybody
else is refused with a clear error and the database stays as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import DATABASES, _postgres_database
from tests.server.federation_world import ACTORS, World, answer, build_world
from tests.server.play import Seat


@pytest.fixture(scope="module", params=DATABASES)
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    if request.param == "postgresql":
        url = _postgres_database()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('federations-ws') / 'tavla.db'}"
    yield from build_world(url)


def _connect(world: World, who: str, game: str) -> Any:
    return world.site.as_(world.people[who]).websocket_connect(f"/ws/game/{game}")


OBSERVE_PRIVATE = {"player", "arbiter"}
READ_CHAT = {"player", "arbiter"}
WRITE_CHAT = {"player"}
CLOSE_CHAT = {"arbiter"}


@pytest.mark.parametrize("actor", ACTORS)
def test_only_the_players_and_the_federations_arbiter_open_a_private_game(world: World, actor: str) -> None:
    before = world.snapshot()
    if actor in OBSERVE_PRIVATE:
        with _connect(world, actor, world.private_game) as socket:
            state = Seat(socket).state
            assert state["match"]["game_number"] == 1
            assert state["seat"] == (0 if actor == "player" else None)
        return
    with pytest.raises(WebSocketDisconnect) as refused, _connect(world, actor, world.private_game) as socket:
        socket.receive_json()
    assert refused.value.code == 4403 and "spectators" in str(refused.value.reason)
    assert world.snapshot() == before


@pytest.mark.parametrize("actor", ACTORS)
def test_the_chat_is_shown_to_the_players_and_the_arbiter_only(world: World, actor: str) -> None:
    with _connect(world, actor, world.public_game) as socket:
        chat = Seat(socket).state["chat"]
        socket.send_json({"type": "sync"})
        synced = Seat(socket).state["chat"]
    texts = [line["text"] for line in chat["messages"]]
    assert ("iyi oyunlar" in texts) == (actor in READ_CHAT), chat
    assert synced["messages"] == chat["messages"]  # a sync shows the same


@pytest.mark.parametrize("actor", ACTORS)
def test_only_a_player_writes_in_the_chat(world: World, actor: str) -> None:
    before = world.snapshot()
    reply = world.say(world.public_game, actor, "bir söz")
    if actor in WRITE_CHAT:
        assert reply["type"] == "ack"
        return
    assert reply["type"] == "error" and reply["code"] == "not_player"
    expected = "an arbiter observes" if actor in CLOSE_CHAT else "spectators cannot chat"
    assert reply["message"].startswith(expected), reply
    assert world.snapshot() == before


@pytest.mark.parametrize("actor", ACTORS)
def test_only_the_federations_arbiter_closes_the_chat(world: World, actor: str) -> None:
    if actor in CLOSE_CHAT:
        game = world.start_game("tbf", spectators=True)  # closing is for good: a game of its own
        with _connect(world, actor, game) as socket:
            Seat(socket)
            socket.send_json({"type": "close_chat", "seq": 1})
            assert answer(socket)["type"] == "ack"
            socket.send_json({"type": "sync"})
            state = Seat(socket).state
            assert state["chat"]["closed"] is True and state["chat"]["enabled"] is False
        return
    before = world.snapshot()
    with _connect(world, actor, world.public_game) as socket:
        Seat(socket)
        socket.send_json({"type": "close_chat", "seq": 7})
        refused = answer(socket)
    assert refused == {
        "type": "error",
        "seq": 7,
        "code": "forbidden",
        "message": "only an arbiter of this game's federation may close its chat",
    }
    assert world.snapshot() == before


def test_a_public_games_spectators_and_arbiters_are_counted_apart(world: World) -> None:
    game = world.start_game("tbf", spectators=True)
    with _connect(world, "player", game) as player_socket:
        player = Seat(player_socket)
        with _connect(world, "outsider", game) as outsider_socket:
            # One at a time: each newcomer's first state counts everybody who came before.
            first = Seat(outsider_socket).state
            assert (first["spectators"], first["arbiters"]) == (1, 0)
            with _connect(world, "arbiter", game) as arbiter_socket:
                seen = Seat(arbiter_socket).state
                assert (seen["spectators"], seen["arbiters"]) == (1, 1)
                seen = player.wait(lambda state: state["arbiters"] >= 1)
                assert (seen["spectators"], seen["arbiters"]) == (1, 1)
            # Each leaves the count as he leaves the game.
            seen = player.wait(lambda state: state["arbiters"] == 0)
            assert seen["spectators"] == 1
        assert player.wait(lambda state: state["spectators"] == 0)["arbiters"] == 0


def test_an_arbiter_observes_without_acting_and_his_closing_reaches_the_players(world: World) -> None:
    game = world.start_game("tbf", spectators=False)
    assert world.say(game, "player", "selam")["type"] == "ack"
    with _connect(world, "player", game) as player_socket, _connect(world, "arbiter", game) as arbiter_socket:
        player, arbiter = Seat(player_socket), Seat(arbiter_socket)
        assert [line["text"] for line in arbiter.state["chat"]["messages"]] == ["selam"]
        before = world.snapshot()
        acted = arbiter.send({"kind": "roll"})
        assert acted["code"] == "not_player"
        assert world.snapshot() == before
        arbiter_socket.send_json({"type": "close_chat", "seq": 1})
        assert answer(arbiter_socket)["type"] == "ack"
        seen = player.wait(lambda state: state["chat"]["closed"])
        assert seen["chat"]["enabled"] is False
        # The players allowed no spectators: the arbiter is shown as an arbiter, not as one.
        assert (seen["spectators"], seen["arbiters"]) == (0, 1)
        player_socket.send_json({"type": "chat", "seq": player.state["last_seq"] + 1, "text": "duydun mu?"})
        assert answer(player_socket)["code"] == "chat_off"
    closed = [row for row in world.snapshot()["games"] if row[0] == game]
    assert closed[0][1] is True  # stored: a restart keeps the chat closed


def test_an_arbiter_dismissed_while_watching_can_no_longer_close_the_chat(world: World) -> None:
    assert world.put("admin", "/api/federations/tbf/arbiters/member").status_code == 200
    try:
        with _connect(world, "member", world.public_game) as socket:
            Seat(socket)
            assert world.delete("admin", "/api/federations/tbf/arbiters/member").status_code == 200
            before = world.snapshot()
            socket.send_json({"type": "close_chat", "seq": 1})
            assert answer(socket)["code"] == "forbidden"
            assert world.snapshot() == before
    finally:
        world.delete("admin", "/api/federations/tbf/arbiters/member")


def test_an_arbiter_who_plays_the_game_is_only_a_player_in_it(world: World) -> None:
    assert world.put("admin", "/api/federations/tbf/arbiters/player").status_code == 200
    try:
        before = world.snapshot()
        with _connect(world, "player", world.public_game) as socket:
            assert Seat(socket).state["seat"] == 0
            socket.send_json({"type": "close_chat", "seq": 1})
            assert answer(socket)["code"] == "forbidden"
        closing = world.post("player", f"/api/games/{world.public_game}/chat/close")
        assert closing.status_code == 403
        assert world.snapshot() == before
    finally:
        assert world.delete("admin", "/api/federations/tbf/arbiters/player").status_code == 200
