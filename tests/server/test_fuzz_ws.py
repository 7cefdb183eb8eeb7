"""Hostile messages on the game websocket (docs/API.md 4 and 9), drawn by Hypothesis.

Whatever a client sends, the server answers a bad message with an ``error`` of a
documented code, keeps the socket open, changes nothing it stored about the game,
and goes on serving another game played meanwhile. ``FUZZ_WS_EXAMPLES`` draws more
(benchmarks/fuzz_counts.py reports the counts).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import Player, Site, make_settings
from tests.server.hostile import HOSTILE_TEXT, HUGE_INTS, JSON_VALUES, SCALARS, dump, nested
from tests.server.play import Seat
from tests.server.served import first_legal

from tavla.server.app import create_app
from tavla.server.ws import MAX_MESSAGE

EXAMPLES = int(os.environ.get("FUZZ_WS_EXAMPLES", "200"))
DOCUMENTED_CODES = {
    "malformed",
    "stale",
    "old_seq",
    "not_player",
    "forbidden",
    "not_your_turn",
    "illegal",
    "chat_off",
    "over",
    "rate_limited",
    "unavailable",
}
TYPES = ["intent", "chat", "close_chat", "warn", "forfeit", "sync"]
KINDS = ["roll", "step", "undo", "commit", "move", "double", "take", "drop", "resign", "accept", "break"]
ANY = st.one_of(SCALARS, JSON_VALUES)
NEXT_SEQ, CURRENT_V = "@next-seq@", "@current-v@"
"""Replaced when sent by the seat's next sequence number and the game's version, so
that well-formed intents reach the rules too (and some are accepted)."""
ACTIONS = st.one_of(
    JSON_VALUES,
    st.fixed_dictionaries(
        {"kind": st.one_of(st.sampled_from(KINDS), HOSTILE_TEXT, SCALARS)},
        optional={"step": ANY, "move": ANY, "seat": ANY, "points": ANY, "value": ANY},
    ),
)
TYPED = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={
        "seq": st.one_of(st.just(NEXT_SEQ), HUGE_INTS, st.integers(-5, 5), ANY),
        "v": st.one_of(st.just(CURRENT_V), HUGE_INTS, st.integers(-5, 50), ANY),
        "action": ACTIONS,
        "text": st.one_of(HOSTILE_TEXT, ANY),
        "seat": st.one_of(st.integers(-2, 3), ANY),
        "note": st.one_of(HOSTILE_TEXT, ANY),
    },
)
WELL_FORMED = st.fixed_dictionaries(
    {
        "type": st.just("intent"),
        "seq": st.one_of(st.just(NEXT_SEQ), st.integers(-2, 3)),
        "v": st.one_of(st.just(CURRENT_V), st.integers(-2, 30)),
        "action": st.fixed_dictionaries(
            {"kind": st.sampled_from(KINDS)},
            optional={
                "step": st.one_of(
                    st.sampled_from(["13/8", "24/18", "6/off", "1/off", "25/20"]), HOSTILE_TEXT
                ),
                "move": st.one_of(st.sampled_from(["13/8 13/10", "24/18 18/13"]), HOSTILE_TEXT),
            },
        ),
    }
)
"""Intents as a client would send them, the right sequence and version often: the
rules then answer (illegal, not_your_turn, an ack)."""
Frame = tuple[str, Any]
FRAMES: st.SearchStrategy[Frame] = st.one_of(
    WELL_FORMED.map(lambda m: ("text", json.dumps(m))),
    TYPED.map(lambda m: ("text", json.dumps(m))),
    JSON_VALUES.map(lambda v: ("text", json.dumps(v))),
    st.text(max_size=60).map(lambda t: ("text", t)),
    st.sampled_from(["{", "[1,", '{"type": "intent"', "NaN", '"\\ud800"', "\ufeff{}", "{}" * 3000]).map(
        lambda t: ("text", t)
    ),
    st.integers(MAX_MESSAGE + 1, 40_000).map(lambda n: ("text", '{"type":"chat","text":"' + "a" * n + '"}')),
    st.integers(50, 1500).map(lambda depth: ("text", nested(depth))),
    st.binary(max_size=64).map(lambda b: ("bytes", b)),
)


@dataclass
class Arena:
    site: Site
    database: str
    """Its URL (SQLite or PostgreSQL)."""
    game: str
    seat: int | None
    socket: WebSocketTestSession
    bystander: Seat
    tried: Counter[str] = field(default_factory=Counter)
    markers: int = 0

    def version(self) -> int:
        platform = self.site.platform
        return int(platform.rooms.rooms[self.game].book.version)

    def send(self, frame: Frame) -> list[dict[str, Any]]:
        """Send a frame, then a marker; every message that came before the marker's answer."""
        kind, payload = frame
        if kind == "text":
            room = self.site.platform.rooms.rooms[self.game]
            last = 0 if self.seat is None else room.book.last_seq[self.seat]
            payload = payload.replace(f'"{NEXT_SEQ}"', str(last + 1))
            payload = payload.replace(f'"{CURRENT_V}"', str(room.book.version))
        if kind == "bytes":
            self.socket.send_bytes(payload)
        else:
            self.socket.send_text(payload)
        self.markers += 1
        marker = f"marker-{self.markers}"
        self.socket.send_json({"type": marker})
        answers: list[dict[str, Any]] = []
        for _ in range(200):
            message: dict[str, Any] = self.socket.receive_json()
            if message["type"] == "error" and marker in message["message"]:
                return answers
            answers.append(message)
        raise AssertionError("the marker was never answered")

    def bystander_plays(self) -> str:
        """The other game goes on: an action when it is her turn, else a sync."""
        seat = self.bystander
        state = seat.state
        action = None if state["match"]["over"] else first_legal(state)
        if action is not None and state["match"]["actor"] == state["seat"]:
            answer = seat.send(action)
            assert answer["type"] == "ack", answer
            return "ack"
        seat.socket.send_json({"type": "sync"})
        seat.read_state()
        return "sync"


@pytest.fixture
def arena(request: pytest.FixtureRequest, database_url: str) -> Iterator[Arena]:
    """The fuzzed socket is a player's (``ayse``), or a spectator's when asked."""
    database = database_url
    app = create_app(make_settings(database_url))
    with TestClient(app, base_url="http://testserver") as client:
        site = Site(client)
        host, guest, other = site.register("ayse"), site.register("ivan"), site.register("zeynep")
        offer = site.post(host, "/api/offers", {"game": "tabla", "chat": True}).json()["id"]
        game = site.post(guest, f"/api/offers/{offer}/accept", {"chat": True}).json()["game_id"]
        bot_game = site.bot_game(other, game="tapa", length=5)
        with connect(site, other, bot_game) as bystander_socket:
            bystander = Seat(bystander_socket)
            fuzzer = site.register("mallory") if getattr(request, "param", "player") == "spectator" else host
            with connect(site, fuzzer, game) as socket:
                seat = Seat(socket).state["seat"]
                yield Arena(site, database, game, seat, socket, bystander)


def connect(site: Site, player: Player, game: str) -> Any:
    return site.as_(player).websocket_connect(f"/ws/game/{game}")


@pytest.mark.timeout(120 + EXAMPLES // 10)  # more examples asked, more time
@pytest.mark.parametrize("arena", ["player", "spectator"], indirect=True)
def test_hostile_frames_get_documented_errors_and_change_nothing(arena: Arena) -> None:
    outcomes: Counter[str] = Counter()
    # The game's rows as the last refused frame left them (the same as before it): the
    # next frame starts from there without reading them again.
    unchanged: list[dict[str, list[tuple[Any, ...]]]] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(FRAMES)
    def hostile(frame: Frame) -> None:
        before = unchanged.pop() if unchanged else dump(arena.database, arena.game)
        version = arena.version()
        answers = arena.send(frame)
        arena.tried[frame[0]] += 1
        assert answers, f"no answer to {frame!r:.200}"
        for answer in answers:
            assert answer["type"] in ("error", "ack", "state"), answer
            if answer["type"] == "error":
                assert answer["code"] in DOCUMENTED_CODES, answer
                assert isinstance(answer["message"], str) and answer["message"]
                outcomes[answer["code"]] += 1
        if not any(answer["type"] == "ack" for answer in answers):
            after = dump(arena.database, arena.game)
            assert after == before, frame
            assert arena.version() == version
            unchanged.append(after)
        else:
            outcomes["ack"] += 1
        outcomes["bystander " + arena.bystander_plays()] += 1

    hostile()
    asker = "spectator" if arena.seat is None else "player"
    tried = sum(arena.tried.values())
    print(f"game websocket as a {asker}: {tried} frames {dict(arena.tried)}; answers {dict(outcomes)}")
    assert outcomes["bystander ack"] > 0  # the other game was really played meanwhile
    assert outcomes["malformed"] > 0
    if arena.seat is None:
        assert outcomes["not_player"] > 0 and outcomes["ack"] == 0


@pytest.mark.timeout(60)
def test_a_binary_frame_is_refused_and_the_socket_goes_on(arena: Arena) -> None:
    before = dump(arena.database, arena.game)
    answers = arena.send(("bytes", b'{"type": "sync"}'))
    assert [(a["type"], a["code"]) for a in answers] == [("error", "malformed")]
    assert dump(arena.database, arena.game) == before
    assert arena.send(("text", '{"type": "sync"}'))[0]["type"] == "state"


@pytest.mark.timeout(60)
def test_json_nested_too_deep_is_malformed_not_a_crash(arena: Arena) -> None:
    before = dump(arena.database, arena.game)
    for depth in (999, 1200, 2000):
        answers = arena.send(("text", nested(depth)[:MAX_MESSAGE]))
        assert [a.get("code") for a in answers] == ["malformed"], depth
    answers = arena.send(("text", "[" * MAX_MESSAGE))
    assert [a.get("code") for a in answers] == ["malformed"]
    assert dump(arena.database, arena.game) == before
    assert arena.bystander_plays() in ("ack", "sync")


@pytest.mark.timeout(60)
def test_a_nul_character_in_a_message_is_malformed_and_stores_nothing(arena: Arena) -> None:
    # PostgreSQL's text cannot hold one; SQLite would store it: both refuse it alike.
    before = dump(arena.database, arena.game)
    frame = json.dumps({"type": "chat", "seq": NEXT_SEQ, "text": "merhaba\x00"})
    answers = arena.send(("text", frame))
    assert [(a["type"], a.get("code")) for a in answers] == [("error", "malformed")]
    assert "NUL" in answers[0]["message"]
    assert dump(arena.database, arena.game) == before
    with pytest.raises(WebSocketDisconnect) as closed, arena.site.client.websocket_connect("/ws/game/%00"):
        pass
    assert closed.value.code == 1008
