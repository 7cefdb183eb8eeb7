"""Faults across processes (docs/API.md 8): two real ``tavla serve`` processes share one
database and one Redis; the one that owns a game is killed (SIGKILL) or frozen past its
lease (SIGSTOP), and the game goes on in the other with nothing lost or done twice,
and its clocks right.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.databases import migrated_sqlite
from tests.realtime.conftest import RedisServer
from tests.server.conftest import DATABASES, _postgres_database
from tests.server.served import Account, Served, WsSeat, check_acked_once, offer_and_accept, start_together
from tests.server.test_restart import Table, flag_result, seen, wait_finished
from websockets.exceptions import ConnectionClosed

from tavla.match.actions import ActionKind
from tavla.match.record import MatchRecord, replay
from tavla.schema import match_state_json

pytest.importorskip("websockets")

pytestmark = pytest.mark.timeout(240)

# Long enough that a process slowed by the rest of the suite on two busy cores still
# renews in time (renewals go out every third of it); short enough for a quick takeover.
LEASE_MS = 2000


@pytest.fixture(params=DATABASES)
def pair(
    request: pytest.FixtureRequest, tmp_path: Path, redis_server: RedisServer
) -> Iterator[tuple[Served, Served]]:
    """Two processes behind an imagined balancer: the same database and Redis."""
    if request.param == "postgresql":
        database = _postgres_database()
    else:
        database = migrated_sqlite(tmp_path / "tavla.db")
    env = {"TAVLA_REDIS_URL": redis_server.url, "TAVLA_LEASE_MS": str(LEASE_MS)}
    first = Served(database, tmp_path / "first.log", env)
    second = Served(database, tmp_path / "second.log", env)
    start_together(first, second)
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()
        # Shown by pytest only when the test failed: what each process logged.
        for served in (first, second):
            if served.log.exists():
                print(f"--- {served.log.name} ---\n{served.log.read_text(errors='replace')[-6000:]}")


def rejoin(account: Account, game_id: str, served: Served, timeout_s: float = 20.0) -> WsSeat:
    """Connect again, as the board does after a drop: retrying while the game has no
    owner that answers (its lease has not run out yet)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return account.connect(game_id, served)
        except (ConnectionClosed, OSError, TimeoutError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def closed_code(seat: WsSeat, timeout_s: float = 15.0) -> int | None:
    """Read until the server closes the socket (its code), or it dies (None)."""
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            seat.read()
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code
    raise AssertionError("the socket stayed open")


def owner_of(served: Served, game_id: str) -> Any:
    return httpx.get(f"{served.url}/api/games/{game_id}").json()


def check_record(
    served: Served, game_id: str, acked: list[tuple[int, int, dict[str, Any]]], final: dict[str, Any]
) -> None:
    """The stored record replays to what the players saw last, and holds every
    acknowledged roll and turn once, in order, with each seat's seq used once."""
    record = MatchRecord.from_json(httpx.get(f"{served.url}/api/games/{game_id}/record").text)
    state = replay(record)
    assert match_state_json(state, record.actions[-1].t_ms).model_dump(mode="json", by_alias=True) == final
    check_acked_once(record, acked)


def mid_turn(seat: WsSeat) -> bool:
    steps = seat.state["steps"]
    return (
        seat.match["phase"] == "move"
        and steps is not None
        and len(steps["played"]) >= 1
        and not steps["complete"]
    )


def across(first: Served, second: Served) -> tuple[Account, Account, str, WsSeat, WsSeat, Table]:
    """ayse on the first process, mehmet on the second, which makes their game (he
    accepts there) and so owns it: ayse's socket is relayed to it."""
    ayse, mehmet = Account(first, "ayse"), Account(second, "mehmet")
    game_id = offer_and_accept(ayse, mehmet, game="tabla", length=1, cube=True)
    relayed, at_owner = ayse.connect(game_id), mehmet.connect(game_id)
    table = Table((relayed, at_owner) if relayed.state["seat"] == 0 else (at_owner, relayed))
    return ayse, mehmet, game_id, relayed, at_owner, table


def test_the_owner_killed_in_mid_turn_its_game_goes_on_in_the_other_process(
    pair: tuple[Served, Served],
) -> None:
    first, second = pair
    ayse, mehmet, game_id, relayed, _, table = across(first, second)
    for _ in range(3):  # some turns, then stop inside one
        table.play(stop=lambda seat: seat.match["phase"] == "move" and not mid_turn(seat))
    mover = table.play(stop=mid_turn)
    assert mover is not None, "the match ended too soon"
    before = [seen(seat.state) for seat in table.seats]
    versions = [seat.state["v"] for seat in table.seats]

    second.kill()
    # The socket relayed through the first process is told to come back (its owner
    # went quiet); the first takes the game over once the lease ran out.
    assert closed_code(relayed) == 1012
    seats_by_player = {"ayse": rejoin(ayse, game_id, first), "mehmet": rejoin(mehmet, game_id, first)}
    seats = tuple(sorted(seats_by_player.values(), key=lambda seat: seat.state["seat"]))
    for index, seat in enumerate(seats):
        assert seat.state["v"] >= versions[index]
        assert seen(seat.state) == before[index]
    table2 = Table((seats[0], seats[1]))
    assert table2.play() is None
    assert seats[0].match == seats[1].match and seats[0].match["over"]
    check_record(first, game_id, table.acked + table2.acked, seats[0].match)
    for seat in seats:
        seat.close()


def test_a_frozen_owner_wakes_up_to_find_its_game_gone_and_stores_nothing(
    pair: tuple[Served, Served],
) -> None:
    first, second = pair
    ayse, mehmet, game_id, relayed, at_owner, table = across(first, second)
    mehmet_seat = at_owner.state["seat"]
    # Play until mehmet, whose socket is on the owner, is in the middle of his turn.
    assert table.play(stop=lambda seat: seat is at_owner and mid_turn(seat)) is at_owner
    steps_before = list(at_owner.state["steps"]["played"])
    ayse_saw = seen(relayed.state)

    second.pause()
    try:
        assert closed_code(relayed) == 1012
        ayse_again = rejoin(ayse, game_id, first)  # the first took the game over
        assert seen(ayse_again.state) == ayse_saw
        # mehmet, unaware, goes on with his turn on the frozen process.
        step = at_owner.state["steps"]["legal"][0]["text"]
        at_owner.send_raw(at_owner.seq + 1, at_owner.state["v"], {"kind": "step", "step": step})
    finally:
        second.resume()
    # Woken up, the old owner cannot store the step: it refuses it (or drops the
    # socket first, having found its lease gone), and tells the socket to reconnect.
    answers: list[dict[str, Any]] = []
    try:
        while True:
            answers.append(at_owner.read())
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 1012
    assert "ack" not in [message["type"] for message in answers]
    mehmet_again = rejoin(mehmet, game_id, second)  # now relayed to the first
    assert mehmet_again.state["steps"]["played"] == steps_before
    assert mehmet_again.state["last_seq"] == at_owner.seq
    seats = (ayse_again, mehmet_again) if mehmet_seat == 1 else (mehmet_again, ayse_again)
    table2 = Table(seats)
    assert table2.play() is None
    assert seats[0].match == seats[1].match and seats[0].match["over"]
    check_record(first, game_id, table.acked + table2.acked, seats[0].match)
    for seat in seats:
        seat.close()


def test_no_flag_is_missed_when_the_owner_dies_and_its_clock_goes_on(pair: tuple[Served, Served]) -> None:
    first, second = pair
    ayse, mehmet = Account(first, "ayse"), Account(second, "mehmet")
    game_id = offer_and_accept(ayse, mehmet, game="tabla", length=1, clock={"move_s": 6, "reserve_s": 0})
    seat = ayse.connect(game_id, first)
    # Nobody moves: the player to act runs out of time 6 s after the opening roll.
    while seat.match["actor"] is None:
        seat.read_state()
    clock = seat.match["clock"]
    started = time.monotonic() - (clock["now_ms"] - clock["since_ms"]) / 1000
    time.sleep(3.0 - (time.monotonic() - started))
    second.kill()  # half-way through the player's time
    summary = wait_finished(first, game_id, 20)
    took = time.monotonic() - started
    _, reasons = flag_result(first, game_id)
    assert reasons == ["flag"] and summary["winner"] is not None
    # The time before the kill counted (up to the owner's last renewal), the time the
    # game had no owner did not: the flag fell about a lease's length late, no more.
    assert 6.0 <= took <= 6.0 + 3 * LEASE_MS / 1000 + 1.0, took
    record = MatchRecord.from_json(httpx.get(f"{first.url}/api/games/{game_id}/record").text)
    flag = record.actions[-1]
    assert flag.kind == ActionKind.FLAG
    assert 6000 <= flag.t_ms - clock["since_ms"] <= 6000 + 600
    seat.close()
