"""Live play over the websocket (docs/API.md 4): intents, versions, refusals, presence.

Every refused message is checked to change nothing: the version, the match and the
steps are the same after it.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import Player, Site
from tests.server.play import Seat
from tests.server.served import first_legal

from tavla.server.live.room import CHAT_LIMIT


def first_step(seat: Seat) -> str:
    steps = seat.state["steps"]
    assert steps is not None and steps["legal"], seat.state
    return str(steps["legal"][0]["text"])


def to_my_move(seat: Seat) -> None:
    """Roll when needed until the turn is this seat's to move."""
    seat.wait(lambda s: s["match"]["actor"] == s["seat"] or s["match"]["over"])
    if seat.match["phase"] == "roll":
        assert seat.send({"kind": "roll"})["type"] == "ack"
    seat.wait(lambda s: s["match"]["phase"] == "move" and s["match"]["actor"] == s["seat"])


def unchanged(seat: Seat, before: dict[str, Any]) -> None:
    seat.socket.send_json({"type": "sync"})
    after = seat.read_state()
    assert after["v"] == before["v"]
    assert after["match"]["position"] == before["match"]["position"]
    assert after["steps"] == before["steps"]
    assert after["moves"] == before["moves"]


def test_a_bot_game_opens_with_the_state_the_dice_commitment_and_no_seed(site: Site) -> None:
    player = site.register("ayse")
    game = site.bot_game(player, game="tabla", length=3)
    with site.as_(player).websocket_connect(f"/ws/game/{game}") as socket:
        seat = Seat(socket)
        state = seat.state
        assert state["seat"] == 0 and state["last_seq"] == 0 and state["v"] >= 1
        assert state["players"][1]["bot"] and state["players"][0]["name"] == "ayse"
        assert state["match"]["settings"]["length"] == 3 and state["match"]["game_number"] == 1
        assert len(state["dice"]["commitment"]) == 64 and state["dice"]["revealed"] == []
        assert "server_seed" not in str(state["dice"])
        assert state["moves"][0]["kind"] == "opening"


def test_steps_undo_and_commit_each_answer_with_an_ack_and_a_new_version(site: Site) -> None:
    player = site.register("ayse")
    game = site.bot_game(player, game="tabla", cube=False)  # no double comes before the resignation
    with site.as_(player).websocket_connect(f"/ws/game/{game}") as socket:
        seat = Seat(socket)
        to_my_move(seat)
        version = seat.state["v"]
        step = first_step(seat)
        ack = seat.send({"kind": "step", "step": step})
        assert ack == {"type": "ack", "seq": seat.seq, "v": version + 1}
        assert seat.state["steps"]["played"] == [step] and seat.state["last_seq"] == seat.seq
        assert seat.send({"kind": "undo"})["type"] == "ack"
        assert seat.state["steps"]["played"] == []
        while not seat.state["steps"]["complete"]:
            assert seat.send({"kind": "step", "step": first_step(seat)})["type"] == "ack"
        moves_before = len(seat.state["moves"])
        assert seat.send({"kind": "commit"})["type"] == "ack"
        mine = [m for m in seat.state["moves"][moves_before - 1 :] if m["kind"] == "move" and m["seat"] == 0]
        assert mine, seat.state["moves"]
        # A resignation is listed too, with no dice.
        seat.wait(lambda s: s["match"]["actor"] == 0 and s["match"]["phase"] == "roll")
        assert seat.send({"kind": "resign", "level": "backgammon"})["type"] == "ack"
        listed = seat.wait(lambda s: any(m["kind"] == "resign" for m in s["moves"]))["moves"]
        # The move list gives each move the dice it was played with, and nothing else dice.
        for entry in listed:
            assert set(entry) == {"game", "seat", "kind", "text", "dice"}, entry
            if entry["kind"] in ("move", "opening"):
                assert re.fullmatch(r"[1-6]{2}", str(entry["dice"])), entry
            else:
                assert entry["dice"] is None, entry


def test_a_repeated_intent_is_acknowledged_again_and_changes_nothing(site: Site) -> None:
    player = site.register("ayse")
    with site.as_(player).websocket_connect(f"/ws/game/{site.bot_game(player, game='tapa')}") as socket:
        seat = Seat(socket)
        to_my_move(seat)
        step = first_step(seat)
        version = seat.state["v"]
        first = seat.send({"kind": "step", "step": step})
        before = seat.state
        again = seat.send({"kind": "step", "step": step}, seq=seat.seq, v=version)
        assert again == first
        unchanged(seat, before)
        assert seat.state["steps"]["played"] == [step]


def test_stale_old_illegal_forged_and_malformed_intents_are_refused_and_change_nothing(site: Site) -> None:
    player = site.register("ayse")
    with site.as_(player).websocket_connect(f"/ws/game/{site.bot_game(player, game='tabla')}") as socket:
        seat = Seat(socket)
        to_my_move(seat)
        for action in ({"kind": "step", "step": first_step(seat)}, {"kind": "undo"}):
            assert seat.send(action)["type"] == "ack"
        seat.send({"kind": "step", "step": first_step(seat)})
        before = seat.state
        cases: list[tuple[dict[str, Any], str]] = [
            (
                {"type": "intent", "seq": seat.seq + 1, "v": before["v"] - 1, "action": {"kind": "undo"}},
                "stale",
            ),
            (
                {"type": "intent", "seq": seat.seq - 1, "v": before["v"], "action": {"kind": "undo"}},
                "old_seq",
            ),
            (
                {
                    "type": "intent",
                    "seq": seat.seq + 1,
                    "v": before["v"],
                    "action": {"kind": "step", "step": "1/off"},
                },
                "illegal",
            ),
            (
                {"type": "intent", "seq": seat.seq + 1, "v": before["v"], "action": {"kind": "double"}},
                "illegal",
            ),
            (
                {
                    "type": "intent",
                    "seq": seat.seq + 1,
                    "v": before["v"],
                    "action": {"kind": "undo", "seat": 1},
                },
                "malformed",
            ),
            (
                {"type": "intent", "seq": seat.seq + 1, "v": before["v"], "action": {"kind": "fly"}},
                "malformed",
            ),
            ({"type": "intent", "seq": "7", "v": before["v"], "action": {"kind": "undo"}}, "malformed"),
            ({"type": "dance"}, "malformed"),
        ]
        said = {
            "stale": f"you acted on version {before['v'] - 1}; the game is at {before['v']}",
            "old_seq": f"intent {seat.seq - 1} is older than the last accepted, {seat.seq}",
        }
        for message, code in cases:
            socket.send_json(message)
            answer = seat.answer()
            assert answer["type"] == "error" and answer["code"] == code, (message, answer)
            assert answer["message"] == said.get(code, answer["message"]) and answer["message"]
            # The refusal names the intent it answers, when that had a number.
            assert answer["seq"] == (message["seq"] if type(message.get("seq")) is int else None)
            unchanged(seat, before)
        socket.send_text("not json {")
        assert seat.answer()["code"] == "malformed"
        unchanged(seat, before)


def test_out_of_turn_and_spectators_cannot_act(site: Site) -> None:
    host, guest = site.register("ayse"), site.register("ivan")
    offer = site.post(host, "/api/offers", {"game": "tabla", "length": 1}).json()["id"]
    game = site.post(guest, f"/api/offers/{offer}/accept").json()["game_id"]
    watcher = site.register("zeynep")
    with site.as_(host).websocket_connect(f"/ws/game/{game}") as host_socket:
        first = Seat(host_socket)
        with site.as_(guest).websocket_connect(f"/ws/game/{game}") as guest_socket:
            second = Seat(guest_socket)
            assert second.state["seat"] == 1
            starter = first if first.match["actor"] == 0 else second
            other = second if starter is first else first
            other.read_state_until(starter.state["v"])
            before = other.state
            answer = other.send({"kind": "step", "step": first_step(starter)})
            assert answer["code"] == "not_your_turn"
            assert other.state["steps"] is None  # only the seat to play sees the steps
            unchanged(other, before)
            with site.as_(watcher).websocket_connect(f"/ws/game/{game}") as watch_socket:
                spectator = Seat(watch_socket)
                assert spectator.state["seat"] is None and spectator.state["steps"] is None
                assert spectator.state["last_seq"] == 0  # no intents of his own to count
                assert spectator.state["chat"]["messages"] == []
                answer = spectator.send({"kind": "roll"})
                assert answer["code"] == "not_player"
                spectator.socket.send_json({"type": "chat", "seq": 1, "text": "hello"})
                assert spectator.answer()["code"] == "not_player"


def test_chat_needs_both_players_and_reaches_the_opponent_only(site: Site) -> None:
    host, guest = site.register("ayse"), site.register("ivan")
    offer = site.post(host, "/api/offers", {"game": "tapa", "chat": True}).json()["id"]
    game = site.post(guest, f"/api/offers/{offer}/accept", {"chat": True}).json()["game_id"]
    with site.as_(host).websocket_connect(f"/ws/game/{game}") as host_socket:
        first = Seat(host_socket)
        with site.as_(guest).websocket_connect(f"/ws/game/{game}") as guest_socket:
            second = Seat(guest_socket)
            assert second.state["chat"]["enabled"]
            second.seq += 1
            guest_socket.send_json({"type": "chat", "seq": second.seq, "text": "iyi oyunlar"})
            assert second.answer()["type"] == "ack"
            first.wait(lambda s: s["chat"]["messages"])
            assert first.state["chat"]["messages"][0]["text"] == "iyi oyunlar"
            # That number sent again as an intent is answered as the line was, with the
            # board as the player sees it: the chat in it.
            guest_socket.send_json({"type": "intent", "seq": second.seq, "v": 0, "action": {"kind": "roll"}})
            assert second.answer()["type"] == "ack"
            again = second.read_state()
            assert [line["text"] for line in again["chat"]["messages"]] == ["iyi oyunlar"]
            assert first.state["chat"]["messages"][0]["seat"] == 1
            # A line too long is refused, saying how long one may be; nothing is shown.
            second.seq += 1
            guest_socket.send_json({"type": "chat", "seq": second.seq, "text": "x" * (CHAT_LIMIT + 1)})
            refused = second.answer()
            assert (refused["code"], refused["message"]) == (
                "malformed",
                f"a chat message is at most {CHAT_LIMIT} characters",
            )
            assert len(second.state["chat"]["messages"]) == 1

    quiet = site.post(host, "/api/offers", {"game": "tapa", "chat": True}).json()["id"]
    game = site.post(guest, f"/api/offers/{quiet}/accept", {"chat": False}).json()["game_id"]
    with site.as_(host).websocket_connect(f"/ws/game/{game}") as socket:
        seat = Seat(socket)
        assert not seat.state["chat"]["enabled"]
        socket.send_json({"type": "chat", "seq": 1, "text": "hello?"})
        assert seat.answer()["code"] == "chat_off"


def test_the_opponent_sees_a_disconnected_player_with_the_time_away(site: Site) -> None:
    host, guest = site.register("ayse"), site.register("ivan")
    offer = site.post(host, "/api/offers", {"game": "tabla"}).json()["id"]
    game = site.post(guest, f"/api/offers/{offer}/accept").json()["game_id"]
    with site.as_(host).websocket_connect(f"/ws/game/{game}") as host_socket:
        first = Seat(host_socket)
        assert first.state["players"][1]["connected"] is False
        with site.as_(guest).websocket_connect(f"/ws/game/{game}"):
            first.wait(lambda s: s["players"][1]["connected"])
        first.wait(lambda s: not s["players"][1]["connected"])
        time.sleep(0.05)
        first.socket.send_json({"type": "sync"})
        assert first.read_state()["players"][1]["away_ms"] >= 50


def test_a_private_game_refuses_spectators(site: Site) -> None:
    host, guest, other = site.register("ayse"), site.register("ivan"), site.register("zeynep")
    offer = site.post(host, "/api/offers", {"game": "tabla", "spectators": False}).json()["id"]
    game = site.post(guest, f"/api/offers/{offer}/accept").json()["game_id"]
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as refused,
        site.as_(other).websocket_connect(f"/ws/game/{game}") as socket,
    ):
        socket.receive_json()
    assert refused.value.code == 4403
    assert site.as_(other).get(f"/api/games/{game}/record").status_code == 403
    assert site.as_(host).get(f"/api/games/{game}/record").status_code == 200
    # Its analysis is refused to an outsider before anything else, and to the players
    # while they play: the bot's best turns would help them at the board.
    assert site.as_(other).get(f"/api/games/{game}/analysis").status_code == 403
    playing = site.as_(host).get(f"/api/games/{game}/analysis")
    assert playing.status_code == 409 and playing.json()["error"]["code"] == "not_finished"


def test_a_game_that_does_not_exist_is_not_found_in_every_form(site: Site) -> None:
    for form in ("", "/record", "/record.mat", "/replay"):
        answer = site.as_(None).get(f"/api/games/nosuchgame{form}")
        assert answer.status_code == 404, form
        assert answer.json()["error"] == {"code": "not_found", "message": "game not found"}, form


def test_a_websocket_from_another_site_is_refused(site: Site) -> None:
    player = site.register("ayse")
    game = site.bot_game(player, game="tabla")
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as refused,
        site.as_(player).websocket_connect(
            f"/ws/game/{game}", headers={"Origin": "https://evil.example"}
        ) as socket,
    ):
        socket.receive_json()
    assert refused.value.code == 1008


def play_out(seat: Seat, limit: int = 3000, resign_after: int | None = None) -> dict[str, Any]:
    """Play this seat's turns with the first legal step until the match ends; with
    ``resign_after``, resign (a single game) before rolling once that many turns are
    played."""
    for _ in range(limit):
        state = seat.wait(lambda s: s["match"]["over"] or s["match"]["actor"] == s["seat"])
        if state["match"]["over"]:
            return state
        action = first_legal(state)
        if action is None:
            seat.read_state()
            continue
        if action["kind"] == "commit" and resign_after is not None:
            resign_after -= 1
        elif action["kind"] == "roll" and resign_after is not None and resign_after <= 0:
            action = {"kind": "resign", "level": "single"}
        answer = seat.send(action)
        assert answer["type"] == "ack", answer
    raise AssertionError("the match did not end")


def test_a_bot_answers_a_double(site: Site) -> None:
    """Offered the cube, the bot takes or drops it (RULES.md 9.2): either way the match goes on."""
    player = site.register("ayse")
    game_id = site.bot_game(player, game="tabla", length=5, level="medium")
    with site.as_(player).websocket_connect(f"/ws/game/{game_id}") as socket:
        seat = Seat(socket)
        for _ in range(40):  # play until it is this seat's turn to roll with the cube at hand
            state = seat.wait(lambda s: s["match"]["actor"] == s["seat"])
            if state["match"]["phase"] == "roll" and state["match"]["cube"]["may_double"]:
                break
            action = first_legal(state)
            assert action is not None and seat.send(action)["type"] == "ack"
        else:
            raise AssertionError("the cube never came to hand")
        games_before = len(state["match"]["results"])
        assert seat.send({"kind": "double"})["type"] == "ack"
        answered = seat.wait(lambda s: s["match"]["phase"] != "double")
        match = answered["match"]
        taken = match["cube"]["value"] == 2 and match["cube"]["owner"] == 1 - seat.state["seat"]
        passed = len(match["results"]) == games_before + 1 and match["results"][-1]["reason"] == "drop"
        assert taken or passed, match


@pytest.mark.parametrize("game", ["tabla", "abluka"])
def test_a_game_against_a_bot_is_played_to_the_end_and_archived(
    site: Site, game: str, tmp_path: Path, player_name: str = "ayse"
) -> None:
    player: Player = site.register(player_name)
    game_id = site.bot_game(player, game=game, length=1, sets=1, level="beginner")
    with site.as_(player).websocket_connect(f"/ws/game/{game_id}") as socket:
        seat = Seat(socket)
        final = play_out(seat)
        late = seat.send({"kind": "roll"})
    assert final["match"]["over"]
    assert (late["code"], late["message"]) == ("over", "the match is over")
    summary = site.as_(None).get(f"/api/games/{game_id}").json()
    assert summary["status"] == "finished"
    record = site.as_(None).get(f"/api/games/{game_id}/record").json()
    assert record["format"] == "tavla-record" and record["actions"]
    # The replay the archive draws: the state before any action, then one after each.
    replay = site.as_(None).get(f"/api/games/{game_id}/replay").json()
    assert replay["id"] == game_id and replay["players"][0] == player_name
    assert [step["action"] for step in replay["states"]] == [None, *record["actions"]]
    assert not replay["states"][0]["match"]["over"] and replay["states"][-1]["match"]["over"]
    profile = site.as_(None).get(f"/api/users/{player_name}").json()
    assert [g["id"] for g in profile["games"]] == [game_id]
    page = site.as_(None).get(f"/archive/{game_id}")
    assert page.status_code == 200 and game_id in page.text
    replays_in_the_cli(site, game_id, game, tmp_path)
    analysed_by_the_bot(site, game_id, game)


def analysed_by_the_bot(site: Site, game_id: str, game: str) -> None:
    """The archive's analysis is ``tavla analyze``'s review of the record, as deep as it
    reviews the game by default (tabla 0 plies, the others 1), made once."""
    from tavla.analysis.report import analyze
    from tavla.bots.network import Network
    from tavla.bots.search import SearchSettings
    from tavla.match.record import MatchRecord

    answer = site.as_(None).get(f"/api/games/{game_id}/analysis")
    if game == "abluka":  # a search plays it: no network reviews it
        assert answer.status_code == 409 and answer.json()["error"] == {
            "code": "no_analysis",
            "message": "no bot analyses abluka games yet",
        }
        return
    assert answer.status_code == 200, answer.text
    found = answer.json()
    record = MatchRecord.from_json(site.as_(None).get(f"/api/games/{game_id}/record").text)
    network = Network.shipped(game)
    plies = 0 if game == "tabla" else 1
    expected = analyze(record, lambda _: network, SearchSettings(plies=plies))
    assert found["plies"] == plies
    best = [round(review.best_equity, 3) for review in expected.moves]
    assert [move["best_equity"] for move in found["moves"]] == best
    assert found["id"] == game_id and found["game"] == game and found["bots"] == [None, "beginner"]
    assert found["players"][0] == "ayse"
    assert [move["played"] for move in found["moves"]] == [review.played for review in expected.moves]
    assert [move["step"] for move in found["moves"]] == [review.action_index + 1 for review in expected.moves]
    assert [move["loss"] for move in found["moves"]] == [round(review.loss, 3) for review in expected.moves]
    assert [move["mark"] for move in found["moves"]] == [review.mark for review in expected.moves]
    assert [move["forced"] for move in found["moves"]] == [review.forced for review in expected.moves]
    assert [move["game"] for move in found["moves"]] == [review.game_number for review in expected.moves]
    assert [move["equity"] for move in found["moves"]] == [round(r.played_equity, 3) for r in expected.moves]
    assert found["cubes"] == []  # a one-point match has no cube (test_analysis_json.py has one)
    documented = {"step", "game", "seat", "played", "best", "equity", "best_equity", "loss", "judged_loss"}
    assert all(set(move) == documented | {"rollout", "mark", "forced"} for move in found["moves"])
    for totals, player in zip(found["totals"], expected.players, strict=True):
        assert totals["decisions"] == player.decisions > 0
        assert totals["error_rate"] == round(player.error_rate, 1)
        assert totals["luck"] == round(player.luck, 3)
        assert sum(totals["marks"].values()) == sum(player.marks.values())
    assert len(found["lucks"]) == sum(player.rolls for player in expected.players) > 0
    # Each step is a move of the record's, by the seat the review names.
    for move in found["moves"]:
        action = record.actions[move["step"] - 1]
        assert (action.kind.value, action.seat, action.value) == ("move", move["seat"], move["played"])
    analyses = site.platform.analyses
    made = analyses.made
    assert site.as_(None).get(f"/api/games/{game_id}/analysis").json() == found
    assert analyses.made == made  # the second visitor gets the one made for the first


def replays_in_the_cli(site: Site, game_id: str, game: str, folder: Path) -> None:
    """The downloads are the files ``tavla replay`` reads (JSON, and .mat for tabla)."""
    import typer
    from typer.testing import CliRunner

    from tavla.cli import replay

    app = typer.Typer(add_completion=False)
    replay.register(app)
    app.callback()(lambda: None)
    suffixes = ["record"] + (["record.mat"] if game == "tabla" else [])
    for suffix in suffixes:
        response = site.as_(None).get(f"/api/games/{game_id}/{suffix}")
        assert response.status_code == 200
        path = folder / ("match.json" if suffix == "record" else "match.mat")
        path.write_bytes(response.content)
        result = CliRunner().invoke(app, ["replay", str(path)])
        assert result.exit_code == 0, result.output
    if game != "tabla":
        assert site.as_(None).get(f"/api/games/{game_id}/record.mat").status_code == 409


def test_a_flood_of_messages_is_refused_and_an_oversized_one_too(database_url: str) -> None:
    from fastapi.testclient import TestClient
    from tests.server.conftest import make_settings

    from tavla.server.app import create_app

    with TestClient(create_app(make_settings(database_url, messages_per_second=5))) as client:
        site = Site(client)
        player = site.register("ayse")
        with site.as_(player).websocket_connect(f"/ws/game/{site.bot_game(player, game='tapa')}") as socket:
            seat = Seat(socket)
            socket.send_text("x" * 5000)
            assert seat.answer()["code"] == "malformed"
            codes = []
            for _ in range(8):
                socket.send_json({"type": "dance"})
                codes.append(seat.answer()["code"])
            assert "rate_limited" in codes and codes[0] == "malformed"
            socket.send_json({"type": "sync"})  # the connection itself goes on


def test_chat_and_presence_do_not_make_an_intent_stale_but_a_move_does(site: Site) -> None:
    host, guest = site.register("ayse"), site.register("ivan")
    offer = site.post(host, "/api/offers", {"game": "tabla"}).json()["id"]
    game = site.post(guest, f"/api/offers/{offer}/accept").json()["game_id"]
    with site.as_(host).websocket_connect(f"/ws/game/{game}") as host_socket:
        first = Seat(host_socket)
        with site.as_(guest).websocket_connect(f"/ws/game/{game}") as guest_socket:
            second = Seat(guest_socket)
            starter, other = (first, second) if first.match["actor"] == 0 else (second, first)
            starter.read_state_until(other.state["v"])
            seen = starter.state["v"]
            other.seq += 1
            other.socket.send_json({"type": "chat", "seq": other.seq, "text": "merhaba"})
            assert other.answer()["type"] == "ack"
            starter.wait(lambda s: s["chat"]["messages"])
            answer = starter.send({"kind": "step", "step": first_step(starter)}, v=seen)
            assert answer["type"] == "ack"  # the chat line changed no board
            assert starter.send({"kind": "undo"}, v=seen)["code"] == "stale"  # the step did
            at_step = starter.state["v"]
            assert starter.send({"kind": "undo"})["type"] == "ack"
            assert starter.send({"kind": "step", "step": first_step(starter)}, v=at_step)["code"] == "stale"


def test_a_game_offered_with_rule_options_is_played_under_them(site: Site) -> None:
    player = site.register("eleni")
    game = site.bot_game(player, game="tapa", options={"mother_pin_wins": True})
    with site.as_(player).websocket_connect(f"/ws/game/{game}") as socket:
        state = Seat(socket).state
    assert state["match"]["settings"]["options"] == {"mother_pin_wins": True}
    assert state["match"]["position"]["tpn"].startswith("tapa(mother_pin_wins=true) ")
    wrong = site.post(player, "/api/bot-games", {"game": "tapa", "options": {"mother_pin_wins": 3}})
    assert wrong.status_code == 422 and "mother_pin_wins" in wrong.json()["error"]["message"]
    page = site.as_(player).get("/")
    assert 'data-options-for="tapa"' in page.text and 'data-option="progressive_from_roll"' in page.text
    # A number's field holds the option's range (gulbara's progressive doubles, RULES.md 6.2).
    assert 'data-option="progressive_from_roll" value="4" min="1" max="4"' in page.text
