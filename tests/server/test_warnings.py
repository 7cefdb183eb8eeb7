"""An arbiter's warnings in a tournament game (RULES.md 8.3, 11.4; docs/tournaments.md).

An arbiter or administrator of the game's federation warns a player over HTTP or from
the board (the websocket); the warning is a WARN action of the match record, everybody
on the board sees the counts and the note, and the third warning loses the match.
Everybody else is refused, as is a warning in a game of no tournament or after the end.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select
from tests.server.conftest import DATABASES, _postgres_database
from tests.server.federation_world import ACTORS, World, answer, build_world
from tests.server.play import Seat

from tavla.match.settings import MatchSettings
from tavla.server.live.room import SeatInfo
from tavla.storage.models import GameAction, LiveGame

pytestmark = pytest.mark.timeout(120)

MAY_WARN = {"arbiter", "admin"}
HTTP_REFUSAL = {"nobody": 401}


@pytest.fixture(scope="module", params=DATABASES)
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    if request.param == "postgresql":
        url = _postgres_database()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('warnings') / 'tavla.db'}"
    yield from build_world(url)


def recorded(world: World, game: str) -> list[tuple[Any, ...]]:
    """The game's warnings as the match record in the database holds them, and its status."""
    warnings = world.rows(
        select(GameAction.seat, GameAction.value)
        .where(GameAction.game_id == game, GameAction.kind == "warn")
        .order_by(GameAction.index)
    )
    ((status,),) = world.rows(select(LiveGame.status).where(LiveGame.id == game))
    return [*warnings, ("status", status)]


def action_times(world: World, game: str) -> list[tuple[str, int]]:
    """The match record's actions in order: each one's kind and its time on the match clock."""
    rows = world.rows(
        select(GameAction.kind, GameAction.t_ms).where(GameAction.game_id == game).order_by(GameAction.index)
    )
    return [(str(kind), int(t_ms)) for kind, t_ms in rows]


def game_of_no_tournament(world: World) -> str:
    seats = tuple(SeatInfo(name, world.user_id(name), None) for name in ("player", "opponent"))
    settings = MatchSettings(game="tabla", length=3, names=("player", "opponent"))

    async def create() -> str:
        room = await world.platform.rooms.create(
            settings, (seats[0], seats[1]), spectators=True, client_seeds=("a", "b")
        )
        return room.game_id

    return str(world.site.portal.call(create))


def warn_http(world: World, who: str, game: str, seat: int = 1, note: str = "") -> Any:
    return world.post(who, f"/api/games/{game}/warnings", {"seat": seat, "note": note})


def warn_ws(world: World, who: str, game: str, seat: int = 1, note: str = "") -> dict[str, Any]:
    with world.site.as_(world.people[who]).websocket_connect(f"/ws/game/{game}") as socket:
        Seat(socket)
        socket.send_json({"type": "warn", "seq": 3, "seat": seat, "note": note})
        return answer(socket)


@pytest.mark.parametrize("actor", ACTORS)
def test_only_the_federations_arbiters_and_administrators_warn_over_http(world: World, actor: str) -> None:
    game = world.start_game("tbf", spectators=True)
    response = warn_http(world, actor, game, note="zar atma hızı")
    if actor in MAY_WARN:
        assert response.status_code == 200, response.text
        assert response.json()["warnings"] == [0, 1] and response.json()["over"] is False
        assert recorded(world, game) == [(1, "zar atma hızı"), ("status", "live")]
        return
    assert response.status_code == HTTP_REFUSAL.get(actor, 403), (actor, response.text)
    if actor != "nobody":
        assert "may warn its players" in response.json()["error"]["message"]
    assert recorded(world, game) == [("status", "live")]


@pytest.mark.parametrize("actor", ACTORS)
def test_only_the_arbiters_and_administrators_warn_from_the_board(world: World, actor: str) -> None:
    game = world.start_game("tbf", spectators=True)
    if actor == "nobody":
        # A visitor without a session watches the public game but may not warn.
        with world.site.as_(None).websocket_connect(f"/ws/game/{game}") as socket:
            state = Seat(socket).state
            assert state["official"] == {"closes_chat": False, "warns": False}
            socket.send_json({"type": "warn", "seq": 1, "seat": 1})
            reply = answer(socket)
    else:
        reply = warn_ws(world, actor, game, note="yavaş oynuyor")
    if actor in MAY_WARN:
        assert reply["type"] == "ack", reply
        assert recorded(world, game) == [(1, "yavaş oynuyor"), ("status", "live")]
        return
    assert reply["type"] == "error" and reply["code"] == "forbidden", reply
    assert reply["message"].startswith("only an arbiter or an administrator"), reply
    assert recorded(world, game) == [("status", "live")]


def test_the_board_shows_the_warnings_to_both_players_and_the_arbiter(world: World) -> None:
    game = world.start_game("tbf", spectators=False)
    site = world.site
    with (
        site.as_(world.people["player"]).websocket_connect(f"/ws/game/{game}") as player_socket,
        site.as_(world.people["opponent"]).websocket_connect(f"/ws/game/{game}") as opponent_socket,
        site.as_(world.people["arbiter"]).websocket_connect(f"/ws/game/{game}") as arbiter_socket,
    ):
        player, opponent, arbiter = Seat(player_socket), Seat(opponent_socket), Seat(arbiter_socket)
        assert arbiter.state["official"] == {"closes_chat": True, "warns": True}
        assert player.state["official"] == {"closes_chat": False, "warns": False}
        arbiter_socket.send_json({"type": "warn", "seq": 1, "seat": 0, "note": "telefon"})
        assert answer(arbiter_socket)["type"] == "ack"
        for seat in (player, opponent, arbiter):
            seat.socket.send_json({"type": "sync"})  # the arbiter's state came before his ack
            seen = seat.wait(lambda state: state["match"]["warnings"] == [1, 0])
            assert [(w["seat"], w["note"]) for w in seen["warnings"]] == [(0, "telefon")]
            assert [w["t_ms"] for w in seen["warnings"]] == [
                t for kind, t in action_times(world, game) if kind == "warn"
            ]


def test_the_third_warning_loses_the_match_and_no_warning_follows(world: World) -> None:
    game = world.start_game("tbf", spectators=True)
    for number in (1, 2):
        assert warn_http(world, "arbiter", game, seat=0).json()["warnings"] == [number, 0]
    with world.site.as_(world.people["opponent"]).websocket_connect(f"/ws/game/{game}") as socket:
        opponent = Seat(socket)
        assert warn_ws(world, "admin", game, seat=0, note="üçüncü")["type"] == "ack"
        ended = opponent.wait(lambda state: state["match"]["over"])
    assert ended["match"]["winner"] == 1 and ended["match"]["forfeit"] == "warnings"
    assert recorded(world, game) == [(0, ""), (0, ""), (0, "üçüncü"), ("status", "finished")]
    late = warn_http(world, "arbiter", game, seat=1)
    assert late.status_code == 409 and late.json()["error"]["code"] == "over"
    assert recorded(world, game)[-1] == ("status", "finished")


def test_a_warning_in_a_live_match_refused_after_its_end_over_the_websocket(world: World) -> None:
    game = world.start_game("tbf", spectators=True)
    with world.site.as_(world.people["arbiter"]).websocket_connect(f"/ws/game/{game}") as socket:
        Seat(socket)
        for seq in (1, 2, 3):
            socket.send_json({"type": "warn", "seq": seq, "seat": 1})
            assert answer(socket)["type"] == "ack"
        before = recorded(world, game)
        socket.send_json({"type": "warn", "seq": 4, "seat": 0})
        late = answer(socket)
    assert late["code"] == "over" and late["message"] == "the match is over"
    assert recorded(world, game) == before and before[-1] == ("status", "finished")


def test_no_warning_in_a_game_of_no_tournament(world: World) -> None:
    game = game_of_no_tournament(world)
    for who in ("arbiter", "admin", "owner"):
        http = warn_http(world, who, game)
        assert http.status_code == 403 and "tournament" in http.json()["error"]["message"]
        reply = warn_ws(world, who, game)
        assert reply["code"] == "forbidden" and "tournament" in reply["message"], reply
    assert recorded(world, game) == [("status", "live")]


@pytest.mark.parametrize(
    ("body", "code"),
    [({"seat": 2}, 422), ({"seat": 0, "note": "x" * 201}, 422), ({"note": "who?"}, 422)],
)
def test_a_warning_that_cannot_be_read_changes_nothing(world: World, body: dict[str, Any], code: int) -> None:
    game = world.start_game("tbf", spectators=True)
    assert world.post("arbiter", f"/api/games/{game}/warnings", body).status_code == code
    with world.site.as_(world.people["arbiter"]).websocket_connect(f"/ws/game/{game}") as socket:
        Seat(socket)
        socket.send_json({"type": "warn", "seq": 1, **body})
        assert answer(socket)["code"] == "malformed"
    assert recorded(world, game) == [("status", "live")]


def test_a_warning_is_recorded_at_its_moment_on_the_match_clock(world: World) -> None:
    # The record's times give the clocks back on replay: a warning made 50 ms into the
    # match is stored at 50 ms or later, never before what came first.
    game = world.start_game("tbf", spectators=True)
    time.sleep(0.05)
    assert warn_http(world, "arbiter", game, note="süre").status_code == 200
    times = action_times(world, game)
    assert times[-1][0] == "warn" and times[-1][1] >= 50
    assert [t for _, t in times] == sorted(t for _, t in times)


def test_a_warning_for_a_game_whose_server_cannot_be_reached_is_unavailable_and_changes_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The game is held by another process this one has no way to reach (no hub between
    # them): the arbiter is told to try again, as a server error, not his own.
    game = world.start_game("tbf", spectators=True)
    rooms = world.platform.rooms

    async def held_elsewhere(game_id: str) -> tuple[None, str]:
        return None, "another-process"

    monkeypatch.setattr(rooms, "locate", held_elsewhere)
    monkeypatch.setattr(rooms, "forward", None)
    response = warn_http(world, "arbiter", game, note="geç kaldı")
    assert response.status_code == 503, response.text
    error = response.json()["error"]
    assert error["code"] == "unavailable" and "cannot be reached" in error["message"]
    monkeypatch.undo()
    assert recorded(world, game) == [("status", "live")]


def test_an_arbiter_reads_the_players_chat_of_a_finished_game_and_a_spectator_does_not(world: World) -> None:
    # A dispute over what was said is settled after the game: the arbiter who opens the
    # finished board reads the players' chat; a spectator sees the board without it.
    game = world.start_game("tbf", spectators=True)
    assert world.say(game, "player", "iyi oyunlar")["type"] == "ack"
    for _ in range(3):
        assert warn_http(world, "arbiter", game, seat=1).status_code == 200
    assert recorded(world, game)[-1] == ("status", "finished")
    rooms = world.platform.rooms

    def forget() -> None:
        # As after a restart, or on another process: the board is built from the record.
        rooms.rooms.pop(game).close()

    world.site.portal.call(forget)
    for who, lines in (("arbiter", ["iyi oyunlar"]), ("outsider", []), ("player", ["iyi oyunlar"])):
        with world.site.as_(world.people[who]).websocket_connect(f"/ws/game/{game}") as socket:
            state = Seat(socket).state
        assert state["match"]["over"], who
        assert [line["text"] for line in state["chat"]["messages"]] == lines, who
