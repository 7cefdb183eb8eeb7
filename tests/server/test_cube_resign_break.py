"""The intents random play seldom reaches, over the websocket between two people:
a whole-turn ``move``, the cube with beaver and raccoon, resign / decline / accept,
double / drop, and a break between games (docs/json.md actions; RULES 9, 11.4)."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Site
from tests.server.play import Seat

from tavla import from_notation


def two_players(site: Site, **choice: Any) -> tuple[Any, Any, str]:
    host, guest = site.register("ayse"), site.register("ivan")
    offer = site.post(host, "/api/offers", {"game": "tabla", **choice}).json()["id"]
    game = site.post(guest, f"/api/offers/{offer}/accept").json()["game_id"]
    return host, guest, game


def by_seat(first: Seat, second: Seat) -> dict[int, Seat]:
    return {first.state["seat"]: first, second.state["seat"]: second}


def catch_up(seats: dict[int, Seat]) -> None:
    top = max(seat.state["v"] for seat in seats.values())
    for seat in seats.values():
        seat.read_state_until(top)


def whole_turn(seat: Seat) -> str:
    position = from_notation(seat.match["position"]["tpn"])
    return position.legal_turns()[0].text


def test_move_double_beaver_raccoon_resign_decline_and_accept(site: Site) -> None:
    host, guest, game = two_players(site, length=0, cube=True, beavers=True, raccoons=True)
    with (
        site.as_(host).websocket_connect(f"/ws/game/{game}") as a,
        site.as_(guest).websocket_connect(f"/ws/game/{game}") as b,
    ):
        seats = by_seat(Seat(a), Seat(b))
        catch_up(seats)
        starter = seats[seats[0].match["actor"]]
        other = seats[1 - starter.state["seat"]]
        text = whole_turn(starter)
        assert starter.send({"kind": "move", "turn": text})["type"] == "ack"
        assert starter.state["moves"][-1]["text"] == text
        catch_up(seats)
        assert other.match["phase"] == "roll" and other.match["cube"]["may_double"]
        assert other.send({"kind": "double"})["type"] == "ack"
        catch_up(seats)
        assert starter.match["phase"] == "double" and starter.match["actor"] == starter.state["seat"]
        assert starter.send({"kind": "beaver"})["type"] == "ack"
        catch_up(seats)
        assert other.match["phase"] == "raccoon"
        assert other.send({"kind": "raccoon"})["type"] == "ack"
        catch_up(seats)
        assert other.match["cube"]["value"] == 8 and other.match["phase"] == "roll"
        assert other.send({"kind": "roll"})["type"] == "ack"
        catch_up(seats)
        assert other.send({"kind": "resign", "level": "backgammon"})["type"] == "ack"
        catch_up(seats)
        assert starter.match["phase"] == "resign" and starter.match["resign"]["level"] == "backgammon"
        assert starter.send({"kind": "decline"})["type"] == "ack"
        catch_up(seats)
        assert other.match["resign"] is None
        assert other.send({"kind": "resign"})["type"] == "ack"
        catch_up(seats)
        assert starter.send({"kind": "accept"})["type"] == "ack"
        catch_up(seats)
        final = starter.match
        assert final["over"] and final["winner"] == starter.state["seat"]
        assert final["results"][0]["reason"] == "resign" and final["results"][0]["points"] == 8


def test_double_drop_and_a_break_between_games(site: Site) -> None:
    host, guest, game = two_players(site, length=5, cube=True)
    with (
        site.as_(host).websocket_connect(f"/ws/game/{game}") as a,
        site.as_(guest).websocket_connect(f"/ws/game/{game}") as b,
    ):
        seats = by_seat(Seat(a), Seat(b))
        catch_up(seats)
        starter = seats[seats[0].match["actor"]]
        other = seats[1 - starter.state["seat"]]
        assert starter.send({"kind": "move", "turn": whole_turn(starter)})["type"] == "ack"
        catch_up(seats)
        assert other.send({"kind": "double"})["type"] == "ack"
        catch_up(seats)
        assert starter.send({"kind": "drop"})["type"] == "ack"
        catch_up(seats)
        assert starter.match["phase"] == "between" and starter.match["results"][0]["reason"] == "drop"
        before = starter.match["breaks_left"][starter.state["seat"]]
        assert starter.send({"kind": "break"})["type"] == "ack"
        catch_up(seats)
        assert starter.match["breaks_left"][starter.state["seat"]] == before - 1
        assert starter.match["break_ends_ms"] > 0 and starter.match["phase"] == "between"
        again = starter.send({"kind": "break"})  # one break each in a 5-point match
        assert again["type"] == "error" and again["code"] == "illegal"
