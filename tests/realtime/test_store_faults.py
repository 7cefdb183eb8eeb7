"""Faults of what the processes share (docs/API.md 8): PostgreSQL or Redis restarted in
mid-game, and players' sockets cut again and again, with two real ``tavla serve``
processes and a player on each. The players do what the board does: reconnect when
their socket closes, and send their unacknowledged intent again with the same seq.
The match finishes with every acknowledged intent stored once, and nothing acknowledged
that was not stored.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import json
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.databases import migrate_database
from tests.realtime.conftest import RedisServer
from tests.realtime.players import Match, Player, check_final, sane_clock, seated
from tests.realtime.test_faults import LEASE_MS
from tests.server.served import Account, Served, first_legal, start_together
from websockets.sync.client import ClientConnection, connect

from tavla.cluster.process import ComponentError, free_port
from tavla.cluster.stores import Postgres, postgres_bin
from tavla.server.deps import SESSION_COOKIE
from tavla.server.federations.owners import set_owner

pytest.importorskip("websockets")

pytestmark = pytest.mark.timeout(150)

CLOCK = {"move_s": 1, "reserve_s": 120}


def _postgres_installed() -> bool:
    try:
        postgres_bin()
    except ComponentError:
        return False
    return True


@functools.cache
def _initialised_cluster() -> Path:
    """The data folder of a stopped cluster, its database migrated, made once per process."""
    folder = Path(tempfile.mkdtemp(prefix="tavla-store-faults-template-"))
    atexit.register(shutil.rmtree, folder, True)
    server = Postgres(folder, free_port())
    server.start()
    try:
        migrate_database(server.url)
    finally:
        server.stop()
    return server.data


@pytest.fixture
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL cluster of the test's own, which it may kill and start again. Under
    /tmp: as root, PostgreSQL runs as ``postgres``, who may not enter pytest's folders."""
    if not _postgres_installed():
        pytest.skip("PostgreSQL is not installed (make test installs it)")
    folder = Path(tempfile.mkdtemp(prefix="tavla-store-faults-"))
    # A copy of a cluster initialised once in this process: initdb each time took
    # about a second of each test.
    subprocess.run(["cp", "-a", str(_initialised_cluster()), str(folder / "data")], check=True)
    server = Postgres(folder, free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pair(postgres: Postgres, redis_server: RedisServer, tmp_path: Path) -> Iterator[tuple[Served, Served]]:
    env = {"TAVLA_REDIS_URL": redis_server.url, "TAVLA_LEASE_MS": str(LEASE_MS)}
    first = Served(postgres.url, tmp_path / "first.log", env)
    second = Served(postgres.url, tmp_path / "second.log", env)
    start_together(first, second)
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


def test_postgres_restarted_in_mid_game_the_match_finishes_with_everything_once(
    pair: tuple[Served, Served], postgres: Postgres
) -> None:
    first, second = pair
    ayse, mehmet = Account(first, "ayse"), Account(second, "mehmet")
    match = seated(ayse, mehmet, first, second, game="tabla", length=1, clock=CLOCK)
    assert not match.play(until=lambda m: len(m.acked) >= 8)

    postgres.kill()
    # The players go on sending for a while: refused or unanswered, never acknowledged.
    assert match.through_outage(4) == 0
    assert "unavailable" in match.refusals
    postgres.start()

    assert match.play()
    sane_clock(match, check_final(first, match))
    match.close()


def lobby_socket(account: Account, served: Served) -> ClientConnection:
    return connect(
        f"ws://127.0.0.1:{served.port}/ws/lobby",
        additional_headers={"Cookie": f"{SESSION_COOKIE}={account.token}"},
        max_queue=None,
    ).__enter__()


def lobby_shows(lobby: ClientConnection, offer_id: int, timeout_s: float = 15) -> bool:
    """Read the lobby's snapshots until one lists the offer (True) or none comes (False)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            message = json.loads(lobby.recv(timeout=max(0.1, deadline - time.monotonic())))
        except TimeoutError:
            return False
        if message["type"] == "lobby" and offer_id in {row["id"] for row in message["offers"]}:
            return True
    return False


def test_redis_restarted_in_mid_game_relayed_sockets_come_back_and_the_lobby_catches_up(
    pair: tuple[Served, Served], redis_server: RedisServer
) -> None:
    first, second = pair
    ayse, mehmet = Account(first, "ayse"), Account(second, "mehmet")
    match = seated(ayse, mehmet, first, second, game="tabla", length=1, clock=CLOCK)
    lobby = lobby_socket(ayse, first)
    assert json.loads(lobby.recv(timeout=15))["type"] == "lobby"
    assert not match.play(until=lambda m: len(m.acked) >= 8)
    drops = [player.reconnections for player in match.players]

    redis_server.kill()
    # An offer made on the second process while Redis is away: the first's lobby hears
    # of it once Redis is back, with nothing else changing.
    made = mehmet.post("/api/offers", {"game": "tabla", "length": 1})
    assert made.status_code == 201, made.text
    match.through_outage(3)  # the player on the owner may go on: nothing is lost
    redis_server.start()

    assert lobby_shows(lobby, made.json()["id"])
    assert match.play()
    sane_clock(match, check_final(first, match))
    # The socket relayed through Redis was told to come back (1012), and came back.
    assert any(player.reconnections > before for player, before in zip(match.players, drops, strict=True))
    match.close()
    lobby.close()


def test_sockets_cut_again_and_again_every_intent_is_applied_once(pair: tuple[Served, Served]) -> None:
    first, second = pair
    ayse, mehmet = Account(first, "ayse"), Account(second, "mehmet")
    match = seated(ayse, mehmet, first, second, game="tabla", length=1, clock=CLOCK)
    sent = [0]
    stored_unacked = [0]

    def cut(match: Match, player: Player) -> None:
        """Every few intents, a socket goes: the sender's before its ack is read (the
        intent may or may not be stored), or the other player's."""
        sent[0] += 1
        if sent[0] % 5 == 0:
            time.sleep(0.05)  # long enough for the server to store it, often
            player.drop()
            if player.connect().state["last_seq"] == player.pending[0]:  # type: ignore[index]
                stored_unacked[0] += 1
        elif sent[0] % 7 == 0:
            other = next(p for p in match.players if p is not player)
            other.drop()

    assert match.play(between=cut)
    check_final(first, match)
    assert sum(player.reconnections for player in match.players) >= 6
    assert stored_unacked[0] >= 1, "no intent was stored before its socket was cut"
    match.close()


STAKE = {"initial_cents": 200, "maximum_cents": 500}


def resigning_a_backgammon(state: dict[str, Any]) -> dict[str, Any] | None:
    """The first legal action, but whoever must move after the opening turn resigns a
    backgammon instead (3 points: the stake goes up to its maximum)."""
    match = state["match"]
    mine = match["actor"] == state["seat"]
    if match["phase"] == "move" and mine and state["moves"] and not state["steps"]["played"]:
        return {"kind": "resign", "level": "backgammon"}
    return first_legal(state)


def money(account: Account) -> dict[str, Any]:
    answer = account.get(f"/api/federations/tbf/money/{account.name}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_stake_game_ending_as_postgres_goes_is_settled_once_when_it_is_back(
    pair: tuple[Served, Served], postgres: Postgres
) -> None:
    first, second = pair
    owner, admin = Account(first, "owner"), Account(first, "admin")
    ayse, mehmet = Account(first, "ayse"), Account(second, "mehmet")
    asyncio.run(set_owner(postgres.url, "owner", True))
    assert owner.post("/api/federations", {"name": "Tavla Birliği", "slug": "tbf"}).status_code == 201
    assert httpx.put(
        f"{first.url}/api/federations/tbf/administrators/admin", headers=owner._headers()
    ).is_success
    for name in ("ayse", "mehmet"):
        assert httpx.put(
            f"{first.url}/api/federations/tbf/players/{name}", headers=admin._headers()
        ).is_success
        deposit = admin.post(f"/api/federations/tbf/money/{name}/deposits", {"amount_cents": 2000})
        assert deposit.status_code == 201, deposit.text
    match = seated(
        ayse,
        mehmet,
        first,
        second,
        resigning_a_backgammon,
        game="tabla",
        length=0,
        cube=True,
        federation="tbf",
        stake=STAKE,
    )
    assert [money(player)["balance_cents"] for player in (ayse, mehmet)] == [1500, 1500]

    # The database goes the moment the resignation is accepted: the game's end is
    # stored, or not yet, and its settlement is under way, or not yet.
    killed = []

    def kill_on_accept(match: Match, player: Player) -> None:
        if player.pending is not None and player.pending[1]["kind"] == "accept":
            postgres.kill()
            killed.append(True)

    assert not match.play(until=lambda match: bool(killed), between=kill_on_accept)
    time.sleep(2)
    postgres.start()
    assert match.play()
    final = check_final(first, match)
    assert final["results"][0]["points"] == 3
    names = {
        match.players[0].state["seat"]: match.players[0],
        match.players[1].state["seat"]: match.players[1],
    }
    winner = names[final["results"][0]["winner"]].account
    loser = ayse if winner is mehmet else mehmet

    deadline = time.monotonic() + 15
    while money(winner)["balance_cents"] == 1500 and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(3 * LEASE_MS / 1000)  # more rounds of catching up, on both processes: nothing more
    won, lost = money(winner), money(loser)
    assert (won["balance_cents"], won["reserved_cents"]) == (2450, 0)
    assert (lost["balance_cents"], lost["reserved_cents"]) == (1500, 0)
    assert [(line["memo"], line["amount_cents"]) for line in won["lines"][-3:]] == [
        ("own reservation back", 500),
        (f"stake won from {loser.name}", 500),
        ("fee 5% of the pot", -50),
    ]
    books = admin.get("/api/federations/tbf/books").json()
    assert books["fees_collected_cents"] == books["house_balance_cents"] == 50
    assert books["fee_by_game"] == [{"game_id": match.players[0].game_id, "fee_cents": 50}]
    assert books["total_cents"] == 0
    match.close()


def test_a_lobby_left_behind_while_redis_was_away_catches_up_when_it_is_back(
    pair: tuple[Served, Served], redis_server: RedisServer
) -> None:
    """Nothing else changes after Redis is back: what the other process changed
    meanwhile reaches the lobby all the same."""
    first, second = pair
    ayse, mehmet = Account(first, "ayse"), Account(second, "mehmet")
    lobby = lobby_socket(ayse, first)
    assert json.loads(lobby.recv(timeout=15))["type"] == "lobby"
    redis_server.kill()
    made = mehmet.post("/api/offers", {"game": "tabla", "length": 1})
    assert made.status_code == 201, made.text
    time.sleep(1)
    redis_server.start()
    assert lobby_shows(lobby, made.json()["id"])
    lobby.close()
