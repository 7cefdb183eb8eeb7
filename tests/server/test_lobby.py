"""The lobby (docs/API.md 4): offers made, cancelled and accepted, live for everybody.

Every visitor's ``/ws/lobby`` shows an offer appear and go without a reload; the
creator hears that the game started; the refusals (another's offer, one's own, a
second acceptance, a guest) change nothing; rematches follow finished games.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, update
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.testclient import WebSocketTestSession
from tests.server.conftest import Player, Site, make_settings
from tests.server.federation_world import sync_url
from tests.server.play import Seat
from tests.server.served import Account, Served, first_legal

from tavla.server.app import create_app
from tavla.server.lobby import MAX_OPEN_OFFERS
from tavla.storage.models import LiveGame

MAX_MESSAGES = 40


def lobby_until(socket: WebSocketTestSession, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Read lobby messages until one holds ``predicate`` (others, e.g. ``started``, are skipped)."""
    for _ in range(MAX_MESSAGES):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == "lobby" and predicate(message):
            return message
    raise AssertionError("the awaited lobby never came")


def offer_ids(message: dict[str, Any]) -> set[int]:
    return {offer["id"] for offer in message["offers"]}


def make_offer(site: Site, player: Player, **choice: Any) -> int:
    response = site.post(player, "/api/offers", {"game": "tabla", "length": 1, **choice})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def test_an_offer_appears_for_everybody_and_goes_when_cancelled(site: Site) -> None:
    ayse, mehmet = site.register("ayse"), site.register("mehmet")
    with (
        site.as_(ayse).websocket_connect("/ws/lobby") as own,
        site.as_(mehmet).websocket_connect("/ws/lobby") as other,
        site.as_(None).websocket_connect("/ws/lobby") as anonymous,
    ):
        sockets = (own, other, anonymous)
        for socket in sockets:
            assert lobby_until(socket, lambda m: True)["offers"] == []
        offer = make_offer(site, ayse, clock={"move_s": 12, "reserve_s": 60})
        for socket in sockets:
            shown = lobby_until(socket, lambda m: offer in offer_ids(m))
            row = next(o for o in shown["offers"] if o["id"] == offer)
            assert row["by"] == "ayse" and row["settings"]["game"] == "tabla" and row["for"] is None
            assert row["settings"]["clock"] == {"move_s": 12, "reserve_s": 60}
            assert row["settings"]["in_sets"] is False  # tabla counts points, not sets
        assert site.delete(ayse, f"/api/offers/{offer}").status_code == 200
        for socket in sockets:
            lobby_until(socket, lambda m: offer not in offer_ids(m))
    assert site.as_(None).get("/api/lobby").json()["offers"] == []


def test_an_abluka_offer_is_shown_in_sets(site: Site) -> None:
    """Abluka's matches are counted in sets, not points (RULES.md 8.3): its row says so."""
    ayse = site.register("ayse")
    offer = site.post(ayse, "/api/offers", {"game": "abluka", "sets": 3})
    assert offer.status_code == 201, offer.text
    row = next(o for o in site.as_(None).get("/api/lobby").json()["offers"] if o["id"] == offer.json()["id"])
    assert row["settings"]["in_sets"] is True and row["settings"]["sets"] == 3


def test_the_live_games_are_listed_oldest_first(site: Site, database_url: str) -> None:
    """Whatever their ids (random), the games being played come in the order they began."""
    player_of = {
        site.bot_game(site.register(name), game="tabla", length=3): name for name in ("ayse", "mehmet")
    }
    newer, older = sorted(player_of)  # the older game gets the larger id: ids alone would list it second
    engine = create_engine(sync_url(database_url))
    try:
        with engine.begin() as connection:
            for game_id, created_ms in ((older, 1_000), (newer, 2_000)):
                moved = update(LiveGame).where(LiveGame.id == game_id).values(created_ms=created_ms)
                connection.execute(moved)
    finally:
        engine.dispose()
    listed = site.as_(None).get("/api/games").json()["live"]
    assert [game["id"] for game in listed] == [older, newer]
    assert all(player_of[game["id"]] in game["players"] for game in listed)


def test_a_live_game_s_score_reaches_the_lobby_as_it_changes(site: Site) -> None:
    """The lobby redraws a game being played when its score changes, not only when it starts
    or ends (the rooms' changes travel to it a quarter of a second at a time)."""
    ayse = site.register("ayse")
    with site.as_(None).websocket_connect("/ws/lobby") as lobby:
        game = site.bot_game(ayse, game="tabla", length=5, cube=False, level="medium")
        lobby_until(lobby, lambda m: [g["score"] for g in m["live"] if g["id"] == game] == [[0, 0]])
        with site.as_(ayse).websocket_connect(f"/ws/game/{game}") as socket:
            seat = Seat(socket)
            for _ in range(20):  # to this seat's first roll (it may have won the opening roll)
                state = seat.wait(lambda s: s["match"]["actor"] == s["seat"])
                if state["match"]["phase"] == "roll":
                    break
                action = first_legal(state)
                assert action is not None and seat.send(action)["type"] == "ack"
            assert seat.send({"kind": "resign", "level": "single"})["type"] == "ack"
            scored = seat.wait(lambda s: sum(s["match"]["score"]) > 0)["match"]["score"]
        shown = lobby_until(lobby, lambda m: [g["score"] for g in m["live"] if g["id"] == game] == [scored])
        assert sum(scored) == 1 and game in {g["id"] for g in shown["live"]}


def test_a_money_games_cube_options_are_shown_in_its_lobby_row(site: Site) -> None:
    """A player choosing an offer sees its cube's house rules (RULES.md 9) before accepting."""
    ayse = site.register("ayse")
    money = make_offer(site, ayse, length=0, beavers=True, raccoons=True, jacoby=True)
    plain = make_offer(site, ayse, length=0)
    rows = {row["id"]: row["settings"] for row in site.as_(None).get("/api/lobby").json()["offers"]}
    assert {key: rows[money][key] for key in ("length", "cube", "beavers", "raccoons", "jacoby")} == {
        "length": 0,
        "cube": True,
        "beavers": True,
        "raccoons": True,
        "jacoby": True,
    }
    assert (rows[plain]["beavers"], rows[plain]["raccoons"], rows[plain]["jacoby"]) == (False, False, False)


def test_an_accepted_offer_goes_for_everybody_and_its_maker_hears_the_game_started(site: Site) -> None:
    ayse, mehmet, zeynep = site.register("ayse"), site.register("mehmet"), site.register("zeynep")
    offer = make_offer(site, ayse)
    with (
        site.as_(ayse).websocket_connect("/ws/lobby") as own,
        site.as_(zeynep).websocket_connect("/ws/lobby") as other,
    ):
        for socket in (own, other):
            lobby_until(socket, lambda m: offer in offer_ids(m))
        accepted = site.post(mehmet, f"/api/offers/{offer}/accept", {})
        assert accepted.status_code == 200, accepted.text
        game_id = accepted.json()["game_id"]
        started = None
        for _ in range(MAX_MESSAGES):
            message = own.receive_json()
            if message["type"] == "started":
                started = message
                break
        assert started == {"type": "started", "game_id": game_id, "url": f"/game/{game_id}"}
        for socket in (own, other):
            lobby_until(socket, lambda m: offer not in offer_ids(m))
        # Only the maker hears of it: the other visitor's socket gets lobbies alone.
        site.post(zeynep, "/api/offers", {"game": "tabla"})
        message = other.receive_json()
        assert message["type"] == "lobby"
    with site.as_(ayse).websocket_connect(f"/ws/game/{game_id}") as socket:
        state = Seat(socket).state
        assert state["seat"] == 0 and [p["name"] for p in state["players"]] == ["ayse", "mehmet"]


def snapshots_failing(
    lobby: Any, times: int
) -> tuple[Callable[[], Coroutine[Any, Any, dict[str, Any]]], list[int]]:
    """A stand-in for ``lobby.snapshot`` that fails ``times`` times (the database away),
    then draws as before; the list counts the failures."""
    snapshot = lobby.snapshot
    failures: list[int] = []

    async def failing() -> dict[str, Any]:
        if len(failures) < times:
            failures.append(1)
            raise OSError("the database is away")
        return cast(dict[str, Any], await snapshot())

    return failing, failures


def test_the_lobby_is_drawn_again_after_the_database_failed_to_give_its_snapshot(site: Site) -> None:
    ayse = site.register("ayse")
    lobby = site.platform.lobby
    failing_twice, failures = snapshots_failing(lobby, 2)
    with site.as_(None).websocket_connect("/ws/lobby") as socket:
        assert lobby_until(socket, lambda m: True)["offers"] == []
        lobby.snapshot = failing_twice  # type: ignore[method-assign]  # a stand-in, on purpose
        # The offer is stored though its drawing fails, at once and in the refresher;
        # the lobby shows it when the database answers again, with no other change.
        offer = make_offer(site, ayse)
        lobby_until(socket, lambda m: offer in offer_ids(m))
        assert len(failures) == 2


def test_a_snapshot_that_fails_takes_no_number_so_the_lobby_shown_has_no_gap(site: Site) -> None:
    ayse = site.register("ayse")
    lobby = site.platform.lobby
    failing_twice, failures = snapshots_failing(lobby, 2)
    with site.as_(None).websocket_connect("/ws/lobby") as socket:
        first = lobby_until(socket, lambda m: True)["v"]
        lobby.snapshot = failing_twice  # type: ignore[method-assign]  # a stand-in, on purpose
        offer = make_offer(site, ayse)
        assert lobby_until(socket, lambda m: offer in offer_ids(m))["v"] == first + 1
        assert len(failures) == 2
        later = make_offer(site, ayse)
        assert lobby_until(socket, lambda m: later in offer_ids(m))["v"] == first + 2
    # Whoever asks now is given the number of the last lobby shown.
    assert site.as_(None).get("/api/lobby").json()["v"] == first + 2


def test_an_acceptance_whose_game_cannot_be_stored_leaves_the_offer_open_and_no_game(site: Site) -> None:
    ayse, mehmet = site.register("ayse"), site.register("mehmet")
    offer = make_offer(site, ayse)
    rooms = site.platform.rooms
    update_game = rooms.rows.update_game

    async def database_away(connection: Any, room: Any, change: Any) -> None:
        raise OperationalError("UPDATE games", {}, OSError("the database is away"))

    # A stand-in for the method, on purpose, and the method back.
    rooms.rows.update_game = database_away  # type: ignore[method-assign]
    with pytest.raises(OperationalError):
        site.post(mehmet, f"/api/offers/{offer}/accept", {})
    rooms.rows.update_game = update_game  # type: ignore[method-assign]
    lobby = site.as_(None).get("/api/lobby").json()
    assert lobby["live"] == [] and offer in {o["id"] for o in lobby["offers"]}
    accepted = site.post(mehmet, f"/api/offers/{offer}/accept", {})
    assert accepted.status_code == 200, accepted.text


def test_a_request_whose_database_connection_died_is_unavailable_and_the_next_one_is_served(
    site: Site,
) -> None:
    # No connection is pinged before use: one that died with a database restart fails
    # its first statement, and the request says to try again rather than fail.
    lobby = site.platform.lobby
    snapshot = lobby.snapshot
    lost: list[int] = []

    async def connection_lost_once() -> dict[str, Any]:
        if not lost:
            lost.append(1)
            raise DBAPIError(
                "SELECT", {}, OSError("server closed the connection"), connection_invalidated=True
            )
        return await snapshot()

    lobby.snapshot = connection_lost_once  # type: ignore[method-assign]  # a stand-in, on purpose
    refused = site.as_(None).get("/api/lobby")
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"
    assert refused.json()["error"]["code"] == "unavailable"
    assert site.as_(None).get("/api/lobby").status_code == 200


def test_another_players_offer_cannot_be_cancelled_nor_ones_own_accepted(site: Site) -> None:
    ayse, mehmet = site.register("ayse"), site.register("mehmet")
    offer = make_offer(site, ayse)
    refused = site.delete(mehmet, f"/api/offers/{offer}")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    own = site.post(ayse, f"/api/offers/{offer}/accept", {})
    assert own.status_code == 409 and own.json()["error"]["code"] == "own_offer"
    assert offer in offer_ids(site.as_(None).get("/api/lobby").json())
    assert site.delete(ayse, f"/api/offers/{offer}").status_code == 200
    gone = site.post(mehmet, f"/api/offers/{offer}/accept", {})
    assert gone.status_code == 404


def test_a_player_with_the_most_open_offers_must_cancel_one_before_the_next(site: Site) -> None:
    ayse = site.register("ayse")
    made = [make_offer(site, ayse) for _ in range(MAX_OPEN_OFFERS)]
    refused = site.post(ayse, "/api/offers", {"game": "tabla", "length": 1})
    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "too_many_offers"
    assert error["message"] == f"you have {MAX_OPEN_OFFERS} open offers; cancel one first"
    assert site.delete(ayse, f"/api/offers/{made[0]}").status_code == 200
    make_offer(site, ayse)


def test_on_sqlite_the_games_store_their_changes_one_at_a_time(site: Site) -> None:
    # SQLite takes one writer at a time: the rooms queue their changes there rather than
    # meet "database is locked"; PostgreSQL takes them side by side.
    platform = site.platform
    one_at_a_time = platform.rooms._writes is not None
    assert one_at_a_time == platform.settings.database_url.startswith("sqlite")


def test_a_guest_can_neither_offer_nor_accept(site: Site) -> None:
    ayse, guest = site.register("ayse"), site.guest()
    assert site.post(guest, "/api/offers", {"game": "tabla"}).status_code == 403
    offer = make_offer(site, ayse)
    refused = site.post(guest, f"/api/offers/{offer}/accept", {})
    assert refused.status_code == 403
    assert refused.json()["error"]["message"] == "guests may play the bots; register to play people"
    assert offer in offer_ids(site.as_(None).get("/api/lobby").json())
    gone = site.post(ayse, "/api/offers/987654/accept", {})
    assert gone.status_code == 404 and gone.json()["error"]["message"] == "open offer not found"
    assert re.fullmatch(r"guest-[0-9a-f]{6}", site.as_(guest).get("/api/me").json()["name"])


def test_of_players_accepting_one_offer_at_once_exactly_one_wins(served: Served) -> None:
    maker = Account(served, "ayse")
    takers = [Account(served, f"taker{index}") for index in range(4)]
    made = maker.post("/api/offers", {"game": "tabla", "length": 1})
    offer = made.json()["id"]
    barrier = threading.Barrier(len(takers))
    answers: list[tuple[int, dict[str, Any]]] = []

    def accept(taker: Account) -> None:
        barrier.wait()
        response = taker.post(f"/api/offers/{offer}/accept", {})
        answers.append((response.status_code, response.json()))

    threads = [threading.Thread(target=accept, args=(taker,)) for taker in takers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    codes = sorted(code for code, _body in answers)
    assert codes == [200] + [404] * (len(takers) - 1), answers
    game_id = next(body["game_id"] for code, body in answers if code == 200)
    assert maker.get(f"/api/games/{game_id}").json()["status"] == "live"
    assert maker.get("/api/lobby").json()["offers"] == []


def finish_by_resigning(seat: Seat, answerer: Seat | None) -> dict[str, Any]:
    """``seat`` resigns a backgammon (the most there is); the opponent accepts it."""
    seat.wait(lambda s: s["match"]["phase"] in ("roll", "move"))
    assert seat.send({"kind": "resign", "level": "backgammon"})["type"] == "ack"
    if answerer is not None:
        answerer.wait(lambda s: s["match"]["phase"] == "resign")
        assert answerer.send({"kind": "accept"})["type"] == "ack"
    return seat.wait(lambda s: s["match"]["over"])


def test_a_finished_games_room_stays_through_the_lease_renewals_for_the_players_chat(
    database_url: str,
) -> None:
    """A game over is no longer held by a lease, yet its players, still at the board,
    talk about it: the renewals (every tenth of a second here) leave its room alone."""
    settings = make_settings(database_url, lease_ms=300)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        site = Site(client)
        ayse, mehmet = site.register("ayse"), site.register("mehmet")
        offer = make_offer(site, ayse, chat=True)
        game_id = site.post(mehmet, f"/api/offers/{offer}/accept", {"chat": True}).json()["game_id"]
        with (
            site.as_(ayse).websocket_connect(f"/ws/game/{game_id}") as first,
            site.as_(mehmet).websocket_connect(f"/ws/game/{game_id}") as second,
        ):
            seats = (Seat(first), Seat(second))
            seats[0].read_state_until(seats[1].state["v"])
            actor = seats[0].wait(lambda s: s["match"]["phase"] in ("roll", "move"))["match"]["actor"]
            finish_by_resigning(seats[actor], seats[1 - actor])
            time.sleep(0.5)  # four renewals or more
            seats[1].seq += 1
            second.send_json({"type": "chat", "seq": seats[1].seq, "text": "iyi oyundu"})
            assert seats[1].answer()["type"] == "ack"
            seats[0].wait(lambda s: [m["text"] for m in s["chat"]["messages"]] == ["iyi oyundu"])


def test_a_rematch_against_a_bot_is_a_new_game(site: Site) -> None:
    ayse = site.register("ayse")
    game_id = site.bot_game(ayse, game="tabla", length=1, level="beginner")
    with site.as_(ayse).websocket_connect(f"/ws/game/{game_id}") as socket:
        finish_by_resigning(Seat(socket), None)
    again = site.post(ayse, f"/api/games/{game_id}/rematch")
    assert again.status_code == 201, again.text
    new_id = again.json()["game_id"]
    assert new_id != game_id
    summary = site.as_(None).get(f"/api/games/{new_id}").json()
    assert summary["status"] == "live" and summary["players"][0] == "ayse"
    first = site.as_(None).get(f"/api/games/{game_id}").json()
    assert summary["players"][1] == first["players"][1] == "Tavla bot (beginner)"  # the same bot
    with site.as_(ayse).websocket_connect(f"/ws/game/{new_id}") as socket:
        state = Seat(socket).wait(lambda s: s["dice"] is not None)
    # Its first game's dice committed to as any game's (a fresh seed: no chain was shown).
    assert state["match"]["game_number"] == 1 and len(state["dice"]["commitment"]) == 64
    assert [player["name"] for player in state["players"]] == ["ayse", "Tavla bot (beginner)"]


def test_a_rematch_against_a_person_is_an_offer_only_that_person_may_accept(site: Site) -> None:
    ayse, mehmet, zeynep = site.register("ayse"), site.register("mehmet"), site.register("zeynep")
    offer = make_offer(site, ayse, cube=False, clock={"move_s": 12, "reserve_s": 60}, chat=True)
    offered = next(o for o in site.as_(None).get("/api/lobby").json()["offers"] if o["id"] == offer)
    game_id = site.post(mehmet, f"/api/offers/{offer}/accept", {"chat": False}).json()["game_id"]
    early = site.post(ayse, f"/api/games/{game_id}/rematch")
    assert early.status_code == 409
    with (
        site.as_(ayse).websocket_connect(f"/ws/game/{game_id}") as first,
        site.as_(mehmet).websocket_connect(f"/ws/game/{game_id}") as second,
    ):
        seats = (Seat(first), Seat(second))
        seats[0].read_state_until(seats[1].state["v"])  # the opponent's arrival is a version too
        actor = seats[0].wait(lambda s: s["match"]["phase"] in ("roll", "move"))["match"]["actor"]
        finish_by_resigning(seats[actor], seats[1 - actor])
    assert site.post(zeynep, f"/api/games/{game_id}/rematch").status_code == 403
    asked = site.post(ayse, f"/api/games/{game_id}/rematch")
    assert asked.status_code == 201, asked.text
    rematch = asked.json()["offer_id"]
    row = next(o for o in site.as_(None).get("/api/lobby").json()["offers"] if o["id"] == rematch)
    assert row["for"] is not None and row["by"] == "ayse" and row["chat"] is True
    assert row["settings"] == offered["settings"]  # the same game, length, cube and clock
    assert row["settings"]["clock"] == {"move_s": 12, "reserve_s": 60}
    stranger = site.post(zeynep, f"/api/offers/{rematch}/accept", {})
    assert stranger.status_code == 403
    assert stranger.json()["error"]["message"] == "this rematch offer is for another player"
    accepted = site.post(mehmet, f"/api/offers/{rematch}/accept", {"chat": True})
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["game_id"] != game_id
    with site.as_(mehmet).websocket_connect(f"/ws/game/{accepted.json()['game_id']}") as socket:
        assert Seat(socket).state["chat"]["enabled"]  # ayse's wish to chat came along
    # Each player's wish carries into his own rematch: mehmet had turned chat off.
    his = site.post(mehmet, f"/api/games/{game_id}/rematch")
    assert his.status_code == 201, his.text
    offers = site.as_(None).get("/api/lobby").json()["offers"]
    assert next(o for o in offers if o["id"] == his.json()["offer_id"])["chat"] is False
