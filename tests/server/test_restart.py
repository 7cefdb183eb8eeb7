"""Durability (docs/API.md 6): a server killed with SIGKILL loses nothing it acknowledged.

The server runs as a child process on a SQLite file; two people play over real
websockets, the process is killed in the middle of a turn and started again on the
same file, and the players reconnect and finish the match. The clocks go on from
where they stood: the time the server was down is charged to nobody.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from tests.server.served import Account, Served, WsSeat, check_acked_once, first_legal, offer_and_accept

from tavla.match.record import MatchRecord, replay
from tavla.schema import match_state_json

pytest.importorskip("websockets")

pytestmark = pytest.mark.timeout(240)


class Table:
    """Both players' sockets, kept on the same version, and every intent acknowledged."""

    def __init__(self, seats: tuple[WsSeat, WsSeat]) -> None:
        self.seats = seats
        self.acked: list[tuple[int, int, dict[str, Any]]] = []
        """(seat, seq, action) of every acknowledged intent, in order."""
        self.last_acks: dict[int, tuple[int, int, dict[str, Any]]] = {}
        """Each seat's last acknowledged intent: (seq, the version acknowledged, action)."""
        self.sync()

    def sync(self) -> None:
        top = max(seat.state["v"] for seat in self.seats)
        for seat in self.seats:
            seat.catch_up(top)

    def play(
        self,
        stop: Callable[[WsSeat], bool] = lambda seat: False,
        choose: Callable[[dict[str, Any]], dict[str, Any] | None] = first_legal,
    ) -> WsSeat | None:
        """Play ``choose``'s action in turn (by default the first legal one) until the
        match ends, or until ``stop(seat)`` holds after one of ``seat``'s acks (that
        seat is returned)."""
        for _ in range(5000):
            self.sync()
            if self.seats[0].match["over"]:
                return None
            actor = self.seats[0].match["actor"]
            action = None if actor is None else choose(self.seats[actor].state)
            if actor is None or action is None:
                # Between games, or the opening roll: the server acts by itself.
                self.seats[0].read_state()
                continue
            seat = self.seats[actor]
            answer = seat.send(action)
            assert answer["type"] == "ack", answer
            self.acked.append((actor, answer["seq"], action))
            self.last_acks[actor] = (answer["seq"], answer["v"], action)
            self.sync()
            if stop(seat):
                return seat
        raise AssertionError("the match did not end")


def resigning(by: int, game_number: int | None = None) -> Callable[[dict[str, Any]], dict[str, Any] | None]:
    """Seat ``by`` resigns before it rolls (in game ``game_number`` only, if given) and
    the other accepts; otherwise the first legal action: a turn begun is finished."""

    def choose(state: dict[str, Any]) -> dict[str, Any] | None:
        match = state["match"]
        resigns = state["seat"] == by and match["phase"] == "roll" and not match["over"]
        if resigns and match["actor"] == by and game_number in (None, match["game_number"]):
            return {"kind": "resign", "level": "single"}
        return first_legal(state)

    return choose


def in_second_game_mid_turn(seat: WsSeat) -> bool:
    steps = seat.state["steps"]
    return (
        seat.match["game_number"] >= 2
        and seat.match["phase"] == "move"
        and steps is not None
        and len(steps["played"]) >= 1
        and not steps["complete"]
    )


def seen(state: dict[str, Any]) -> dict[str, Any]:
    """What must survive a restart of what a player saw."""
    return {
        "match": state["match"],
        "steps": state["steps"],
        "moves": state["moves"],
        "dice": state["dice"],
        "last_seq": state["last_seq"],
        "chat": state["chat"],
    }


def test_a_match_survives_sigkill_in_mid_turn_and_finishes_as_an_uninterrupted_one(
    served: Served,
) -> None:
    ayse, mehmet = Account(served, "ayse"), Account(served, "mehmet")
    # Two points: Ayşe resigns the first game, the second is played until a turn is half
    # made; after the restart that turn is finished and Ayşe resigns the second game.
    game_id = offer_and_accept(ayse, mehmet, game="tabla", length=2, cube=True)
    table = Table((ayse.connect(game_id), mehmet.connect(game_id)))
    mover = table.play(stop=in_second_game_mid_turn, choose=resigning(by=0, game_number=1))
    assert mover is not None, "the match ended before its second game"
    before = [seen(seat.state) for seat in table.seats]
    versions = [seat.state["v"] for seat in table.seats]
    acked_before = list(table.acked)
    last_seat, last_seq, last_action = acked_before[-1]
    last_version = mover.state["v"]

    served.kill()
    served.start()

    # Both reconnect and see exactly what they saw, on a version no lower.
    seats = (ayse.connect(game_id), mehmet.connect(game_id))
    table2 = Table(seats)
    for index, seat in enumerate(seats):
        assert seat.state["v"] >= versions[index]
        assert seen(seat.state) == before[index]
    assert seats[last_seat].state["steps"]["played"], "the turn in progress was lost"

    # The other player's last intent, sent again: its own ack, as stored before the kill.
    other = 1 - last_seat
    seq, acked_version, action = table.last_acks[other]
    seats[other].send_raw(seq, acked_version - 1, action)
    assert seats[other].answer() == {"type": "ack", "seq": seq, "v": acked_version}
    # The last intent, sent again (the client never saw its ack): the same ack, nothing twice.
    again = seats[last_seat]
    version = again.state["v"]
    again.send_raw(last_seq, last_version - 1, last_action)
    answer = again.answer()
    assert answer == {"type": "ack", "seq": last_seq, "v": last_version}
    again.socket.send('{"type": "sync"}')
    fresh = again.read_state()
    assert fresh["v"] == version and seen(fresh) == before[last_seat]

    table2.sync()
    assert table2.play(choose=resigning(by=0)) is None
    finals = [seen(seat.state) for seat in seats]
    assert finals[0]["match"] == finals[1]["match"] and finals[0]["match"]["over"]
    assert finals[0]["match"]["game_number"] == 2 and len(finals[0]["moves"]) > len(before[0]["moves"])
    final_moves = finals[0]["moves"]
    assert final_moves[: len(before[0]["moves"])] == before[0]["moves"]

    # The stored record replays, without the server, to the state both players saw.
    response = httpx.get(f"{served.url}/api/games/{game_id}/record")
    assert response.status_code == 200
    record = MatchRecord.from_json(response.text)  # checks the final gnubg IDs as well
    final = replay(record)
    last_t = record.actions[-1].t_ms
    assert match_state_json(final, last_t).model_dump(mode="json", by_alias=True) == finals[0]["match"]
    assert MatchRecord.from_json(record.to_json()) == record

    # Every acknowledged roll and turn is in the record once: before the kill and after.
    check_acked_once(record, acked_before + table2.acked)
    for seat in seats:
        seat.close()


def wait_finished(served: Served, game_id: str, timeout_s: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        summary: dict[str, Any] = httpx.get(f"{served.url}/api/games/{game_id}").json()
        if summary["status"] == "finished":
            return summary
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} did not finish in {timeout_s} s")


def flag_result(served: Served, game_id: str) -> tuple[str | None, list[str]]:
    record = MatchRecord.from_json(httpx.get(f"{served.url}/api/games/{game_id}/record").text)
    final = replay(record)
    return (
        None if final.forfeit is None else str(final.forfeit),
        [str(result.reason) for result in final.results],
    )


def test_a_clock_falls_with_nobody_connected(served: Served) -> None:
    ayse, mehmet = Account(served, "ayse"), Account(served, "mehmet")
    started = time.monotonic()
    game_id = offer_and_accept(ayse, mehmet, game="tabla", length=1, clock={"move_s": 0, "reserve_s": 1})
    summary = wait_finished(served, game_id, 10)
    assert time.monotonic() - started >= 1.0
    assert summary["winner"] in (0, 1)
    _forfeit, reasons = flag_result(served, game_id)
    assert reasons == ["flag"]


def test_a_running_clock_goes_on_after_a_restart_without_charging_the_downtime(served: Served) -> None:
    ayse, mehmet = Account(served, "ayse"), Account(served, "mehmet")
    reserve_ms = 3000
    game_id = offer_and_accept(
        ayse, mehmet, game="tabla", length=1, clock={"move_s": 0, "reserve_s": reserve_ms // 1000}
    )
    seat = ayse.connect(game_id)
    clock = seat.match["clock"]
    assert clock["running"] in (0, 1)
    seat.close()
    served.kill()
    time.sleep(reserve_ms / 1000 + 1)  # longer than the whole reserve
    served.start()
    restarted = time.monotonic()
    seat = ayse.connect(game_id)
    assert not seat.match["over"], "the downtime was charged"
    clock = seat.match["clock"]
    running = clock["running"]
    left = clock["seats"][running]["remaining_ms"]
    assert 0 < left <= reserve_ms
    seat.close()
    # It goes on running: the flag falls after what was left, and not much later.
    summary = wait_finished(served, game_id, left / 1000 + 5)
    assert time.monotonic() - restarted >= left / 1000 - 0.5
    assert summary["winner"] == 1 - running
    assert flag_result(served, game_id)[1] == ["flag"]
