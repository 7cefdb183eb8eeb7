"""The seeds of a whole match are fixed before the players choose theirs (docs/fair-dice.md)."""

from __future__ import annotations

import hashlib
import itertools

from fastapi.testclient import TestClient
from tests.server.conftest import Site, make_settings
from tests.server.play import Seat
from tests.server.test_live import play_out

from tavla.core.fairdice import commitment, seed_chain
from tavla.match.fairdice import chain_breaks, verify_match_dice
from tavla.match.record import MatchRecord
from tavla.server.app import create_app


def test_a_chain_commits_to_every_game_with_its_first_commitment() -> None:
    chain = seed_chain("ab" * 32, 5)
    assert chain[-1] == "ab" * 32
    for earlier, later in itertools.pairwise(chain):
        assert earlier == hashlib.sha256(bytes.fromhex(later)).hexdigest() == commitment(later)


def test_a_drawn_commitment_is_the_first_games_and_is_used_once(site: Site) -> None:
    player = site.register("ayse")
    drawn = site.post(player, "/api/dice-commitments").json()
    assert set(drawn) == {"id", "commitment"} and len(drawn["commitment"]) == 64
    game = site.bot_game(player, game="tabla", commitment_id=drawn["id"], client_seed="my-lucky-seed")
    with site.as_(player).websocket_connect(f"/ws/game/{game}") as socket:
        state = Seat(socket).state
    assert state["dice"]["commitment"] == drawn["commitment"]
    assert state["dice"]["client_seed"].startswith("my-lucky-seed:")
    again = site.post(player, "/api/bot-games", {"game": "tabla", "commitment_id": drawn["id"]})
    assert again.status_code == 422 and "commitment_id" in again.json()["error"]["message"]
    other = site.register("ivan")
    theirs = site.post(
        other,
        "/api/bot-games",
        {"game": "tabla", "commitment_id": site.post(player, "/api/dice-commitments").json()["id"]},
    )
    assert theirs.status_code == 422  # another player's commitment is not yours to use


def test_an_offer_shows_its_commitment_before_the_acceptor_chooses_a_seed(site: Site) -> None:
    host, guest = site.register("ayse"), site.register("ivan")
    drawn = site.post(host, "/api/dice-commitments").json()
    site.post(host, "/api/offers", {"game": "tapa", "commitment_id": drawn["id"]})
    lobby = site.as_(guest).get("/api/lobby").json()
    assert lobby["offers"][0]["commitment"] == drawn["commitment"]
    assert "seed_chain_end" not in str(lobby)
    offer = lobby["offers"][0]["id"]
    game = site.post(guest, f"/api/offers/{offer}/accept", {"client_seed": "chosen-after"}).json()["game_id"]
    with site.as_(guest).websocket_connect(f"/ws/game/{game}") as socket:
        state = Seat(socket).state
    assert state["dice"]["commitment"] == drawn["commitment"]
    assert state["dice"]["client_seed"].endswith(":chosen-after")


def test_each_games_commitment_is_the_seed_revealed_before_it(site: Site) -> None:
    player = site.register("ayse")
    game = site.bot_game(player, game="tabla", length=4, level="beginner", cube=False)  # 2 games or more
    with site.as_(player).websocket_connect(f"/ws/game/{game}") as socket:
        final = play_out(Seat(socket))
    assert final["match"]["game_number"] >= 2
    record = MatchRecord.from_json(site.as_(None).get(f"/api/games/{game}/record").text)
    assert len(record.dice) == final["match"]["game_number"]
    assert all(entry.server_seed is not None for entry in record.dice)
    assert chain_breaks(record.dice) == []
    assert all(check.verdict.ok for check in verify_match_dice(record))


def test_the_chain_holds_across_a_restart_of_the_server(database_url: str) -> None:
    """A server stopped in the middle of a game, started again, draws the next game's
    seed from the same chain: the first commitment still stands for every game."""
    settings = make_settings(database_url)

    def your_turn(seat: Seat) -> None:
        seat.wait(lambda s: s["match"]["actor"] == 0 and s["match"]["phase"] in ("roll", "move"))

    with TestClient(create_app(settings), base_url="http://testserver") as client:
        site = Site(client)
        player = site.register("ayse")
        game = site.bot_game(player, game="tabla", length=5, level="beginner", cube=False)
        with site.as_(player).websocket_connect(f"/ws/game/{game}") as socket:
            your_turn(Seat(socket))
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        site = Site(client)
        with site.as_(player).websocket_connect(f"/ws/game/{game}") as socket:
            seat = Seat(socket)
            for number in (1, 2):  # a backgammon resigned each game, which the bot accepts
                your_turn(seat)
                assert seat.match["game_number"] == number
                assert seat.send({"kind": "resign", "level": "backgammon"})["type"] == "ack"
            assert seat.wait(lambda s: s["match"]["over"])["match"]["score"] == [0, 6]
        record = MatchRecord.from_json(site.as_(None).get(f"/api/games/{game}/record").text)
    assert len(record.dice) == 2 and all(entry.server_seed is not None for entry in record.dice)
    assert chain_breaks(record.dice) == []
