"""Faults of what the processes share (docs/API.md 8): PostgreSQL or Redis restarted in
mid-game, and players' sockets cut again and again, with two real ``tavla serve``
processes and a player on each. The players do what the board does: reconnect when
their socket closes, and send their unacknowledged intent again with the same seq.
The match finishes with every acknowledged intent stored once, and nothing acknowledged
that was not stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import shutil
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.realtime.conftest import RedisServer
from tests.realtime.test_faults import LEASE_MS, check_record, rejoin
from tests.server.served import Account, Served, WsSeat, first_legal, offer_and_accept
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tavla.cluster.process import ComponentError, free_port
from tavla.cluster.stores import Postgres, postgres_bin
from tavla.server.deps import SESSION_COOKIE
from tavla.server.federations.owners import set_owner

pytest.importorskip("websockets")

pytestmark = pytest.mark.timeout(150)

CLOCK = {"move_s": 1, "reserve_s": 120}

DROPPED = (ConnectionClosed, OSError, TimeoutError)


def _postgres_installed() -> bool:
    try:
        postgres_bin()
    except ComponentError:
        return False
    return True


@pytest.fixture
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL cluster of the test's own, which it may kill and start again. Under
    /tmp: as root, PostgreSQL runs as ``postgres``, who may not enter pytest's folders."""
    if not _postgres_installed():
        pytest.skip("PostgreSQL is not installed (make test installs it)")
    folder = Path(tempfile.mkdtemp(prefix="tavla-store-faults-"))
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
    first.start()
    second.start()
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


class Player:
    """One player's socket, as the board keeps it: connected again when it closes, and
    the intent not acknowledged yet sent again with the same seq."""

    def __init__(self, account: Account, served: Served, game_id: str) -> None:
        self.account = account
        self.served = served
        self.game_id = game_id
        self.seat: WsSeat | None = None
        self.pending: tuple[int, dict[str, Any]] | None = None
        self.acked_seq = 0
        self.reconnections = -1
        self.patience_s = 60.0
        """How long a reconnection is tried before giving up (short during an outage)."""
        self.connect()

    def connect(self) -> WsSeat:
        if self.seat is None:
            self.seat = rejoin(self.account, self.game_id, self.served, timeout_s=self.patience_s)
            self.reconnections += 1
            if self.pending is None:
                self.acked_seq = self.seat.state["last_seq"]
        return self.seat

    def drop(self) -> None:
        """Cut the socket without a closing handshake, as a lost network would."""
        if self.seat is not None:
            with contextlib.suppress(OSError):
                self.seat.socket.socket.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                self.seat.socket.socket.close()
            self.seat = None

    @property
    def state(self) -> dict[str, Any]:
        return self.connect().state


class Match:
    """Both players, played to the end in spite of faults; what the servers said."""

    def __init__(
        self,
        players: tuple[Player, Player],
        choose: Callable[[dict[str, Any]], dict[str, Any] | None] = first_legal,
    ) -> None:
        self.players = players
        self.choose = choose
        """What a player sends on the state he sees (None: not his to act)."""
        self.acked: list[tuple[int, int, dict[str, Any]]] = []
        self.refusals: list[str] = []
        self.started = time.monotonic()
        clock = players[0].state["match"]["clock"]
        self.reserve_ms = None if clock is None else [seat["reserve_ms"] for seat in clock["seats"]]

    def _sync(self) -> None:
        for player in self.players:
            player.connect()
        top = max(player.state["v"] for player in self.players)
        for player in self.players:
            try:
                player.connect().catch_up(top)
            except DROPPED:
                player.drop()

    def play(
        self,
        until: Callable[[Match], bool] = lambda match: False,
        between: Callable[[Match, Player], None] = lambda match, player: None,
        timeout_s: float = 90,
    ) -> bool:
        """Play the first legal action in turn until the match is over (True) or
        ``until`` holds (False); ``between`` runs after each intent is sent, before its
        answer is read."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if until(self):
                return False
            try:
                over = self._turn(between)
            except DROPPED:  # a socket that would not come back yet (during an outage)
                continue
            if over:
                return True
        raise AssertionError("the match did not end in time")

    def _turn(self, between: Callable[[Match, Player], None]) -> bool:
        self._sync()
        for player in self.players:
            # Stored before its socket went: sent again at once, as the board does on
            # reconnecting, its ack comes before anything else is done.
            if player.pending is not None and player.state["last_seq"] >= player.pending[0]:
                self._intent(player, lambda match, player: None)
                return False
        state = self.players[0].state
        if state["match"]["over"]:
            return True
        actor = state["match"]["actor"]
        if actor is None:  # the server acts by itself (the opening roll, a new game)
            try:
                self.players[0].connect().read_state()
            except DROPPED:
                self.players[0].drop()
            return False
        player = next(p for p in self.players if p.state["seat"] == actor)
        self._intent(player, between)
        return False

    def _intent(self, player: Player, between: Callable[[Match, Player], None]) -> None:
        seat = player.connect()
        if player.pending is None:
            action = self.choose(seat.state)
            if action is None:
                return
            player.pending = (player.acked_seq + 1, action)
        seq, action = player.pending
        try:
            seat.send_raw(seq, seat.state["v"], action)
            between(self, player)
            if player.seat is not seat:
                return  # cut before the answer: sent again after reconnecting
            answer = seat.answer()
        except DROPPED:
            player.drop()
            return
        if answer["type"] == "ack":
            assert answer["seq"] == seq
            self.acked.append((seat.state["seat"], seq, action))
            player.acked_seq, player.pending = seq, None
            return
        self.refusals.append(answer["code"])
        assert answer["code"] in ("unavailable", "stale"), answer
        if answer["code"] == "unavailable":
            time.sleep(0.2)

    def through_outage(self, seconds: float) -> int:
        """Go on playing for ``seconds`` while something is away: nothing is
        acknowledged, and sockets that cannot come back yet are tried again."""
        before = len(self.acked)
        for player in self.players:
            player.patience_s = 1.0
        until = time.monotonic() + seconds
        assert not self.play(until=lambda match: time.monotonic() > until)
        for player in self.players:
            player.patience_s = 60.0
        return len(self.acked) - before

    def final(self) -> dict[str, Any]:
        self._sync()
        matches = [player.state["match"] for player in self.players]
        assert matches[0] == matches[1] and matches[0]["over"]
        return matches[0]

    def close(self) -> None:
        for player in self.players:
            if player.seat is not None:
                player.seat.close()


def seated(
    ayse: Account,
    mehmet: Account,
    first: Served,
    second: Served,
    choose: Callable[[dict[str, Any]], dict[str, Any] | None] = first_legal,
    **choice: Any,
) -> Match:
    """A game with ayse's socket on the first process and mehmet's on the second."""
    game_id = offer_and_accept(ayse, mehmet, **choice)
    players = (Player(ayse, first, game_id), Player(mehmet, second, game_id))
    return Match(players if players[0].state["seat"] == 0 else (players[1], players[0]), choose)


def check_final(first: Served, match: Match) -> dict[str, Any]:
    """``check_record`` on what both players saw last. A stopped clock reads the same
    at any time: it is compared as read when the match ended."""
    final = match.final()
    seen = copy.deepcopy(final)
    if seen["clock"] is not None and seen["clock"]["running"] is None:
        seen["clock"]["now_ms"] = seen["clock"]["since_ms"]
    check_record(first, match.players[0].game_id, match.acked, seen)
    return final


def sane_clock(match: Match, final: dict[str, Any]) -> None:
    """Nobody was charged more time than passed on the wall, the outage included."""
    wall_s = time.monotonic() - match.started
    clock = final["clock"]
    assert match.reserve_ms is not None
    used = [start - seat["reserve_ms"] for start, seat in zip(match.reserve_ms, clock["seats"], strict=True)]
    assert all(spent >= 0 for spent in used), used
    assert clock["now_ms"] <= wall_s * 1000 + 500, (clock["now_ms"], wall_s)
    assert sum(used) <= wall_s * 1000 + 500, (used, wall_s)


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
