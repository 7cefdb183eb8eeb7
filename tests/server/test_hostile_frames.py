"""Binary, oversized, invalid and flooding frames on a real ``tavla serve`` (docs/API.md 9).

An attacker's frames are refused (an ``error``, or the documented close) and another
player's game goes on meanwhile, answered as usual.
"""

from __future__ import annotations

import json

import httpx
import pytest
from tests.server.served import Account, Served, WsSeat, first_legal, offer_and_accept
from websockets.exceptions import ConnectionClosed

from tavla.cli.serve import WS_MAX_FRAME
from tavla.server.ws import MAX_MESSAGE

pytestmark = pytest.mark.timeout(120)
FLOOD = 300


def bot_game(account: Account) -> str:
    made = account.post("/api/bot-games", {"level": "easy", "game": "tapa", "length": 5})
    assert made.status_code == 201, made.text
    return str(made.json()["game_id"])


def plays_on(seat: WsSeat, turns: int = 2) -> int:
    """The victim's game answers as usual: ``turns`` of its own actions acknowledged."""
    acked = 0
    while acked < turns and not seat.match["over"]:
        action = first_legal(seat.state)
        if action is None:
            seat.read_state()
            continue
        answer = seat.send(action)
        assert answer["type"] == "ack", answer
        acked += 1
    return acked


def answered_malformed(seat: WsSeat) -> None:
    answer = seat.answer()
    assert answer["type"] == "error" and answer["code"] == "malformed", answer


def closed_with(seat: WsSeat) -> int | None:
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(100):
            seat.read()
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


def test_hostile_frames_are_refused_and_another_game_plays_on(served: Served) -> None:
    victim, attacker = Account(served, "ayse"), Account(served, "mallory")
    playing = victim.connect(bot_game(victim))
    # A game between two people, neither of whom plays: only the attacker's frames could change it.
    attacker_game = offer_and_accept(attacker, Account(served, "trudy"), game="tabla")
    attacking = attacker.connect(attacker_game)
    moves = attacking.state["moves"]

    attacking.socket.send(b'{"type": "sync"}')  # a binary frame
    answered_malformed(attacking)
    attacking.socket.send("x" * (MAX_MESSAGE + 10))
    answered_malformed(attacking)
    assert plays_on(playing) > 0

    for _ in range(FLOOD):
        attacking.socket.send('{"type": "dance"}')
    assert plays_on(playing) > 0  # answered while the flood waits to be answered
    try:
        for _ in range(FLOOD):
            answered_malformed(attacking)
    except ConnectionClosed as closed:
        # A flood read faster than it is answered may fill the socket's queue: then it
        # is cut off as a slow reader is (1013), and comes back.
        assert closed.rcvd is not None and closed.rcvd.code == 1013
        attacking = attacker.connect(attacker_game)
    attacking.socket.send(json.dumps({"type": "sync"}))
    assert attacking.read_state()["moves"] == moves  # nothing the attacker sent changed his game

    attacking.socket.send(b"\xff\xfe not utf-8", text=True)
    assert closed_with(attacking) == 1007  # the protocol's close for invalid UTF-8
    assert plays_on(playing) > 0

    again = attacker.connect(attacker_game)
    again.socket.send("y" * (WS_MAX_FRAME + 1))
    assert closed_with(again) == 1009  # "message too big", before it is read whole
    assert plays_on(playing) > 0
    assert httpx.get(f"{served.url}/api/health", timeout=5).status_code == 200
