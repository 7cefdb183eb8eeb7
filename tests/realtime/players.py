"""Players who keep playing through faults, as the board does: they reconnect when
their socket closes, and send their unacknowledged intent again with the same seq
(docs/API.md 5). What they were told is kept, to check against the stored record.
"""

from __future__ import annotations

import contextlib
import copy
import socket
import time
from collections.abc import Callable
from typing import Any

from tests.realtime.test_faults import check_record, rejoin
from tests.server.served import Account, Served, WsSeat, first_legal, offer_and_accept
from websockets.exceptions import ConnectionClosed, InvalidStatus

DROPPED = (ConnectionClosed, OSError, TimeoutError, InvalidStatus)
"""A socket lost, or not opened again yet: while the database is away, the handshake
itself may fail (HTTP 500); the board, like these players, tries again."""


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
                time.sleep(0.1)
                continue
            if over:
                return True
        where = [
            (p.seat and p.seat.state["v"], p.seat and p.seat.match["phase"], p.pending) for p in self.players
        ]
        raise AssertionError(f"the match did not end in time: {where}")

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
        # ("over": an intent resent after the match ended, seen by the socket that came back.)
        assert answer["code"] in ("unavailable", "stale", "over"), answer
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

    def final(self, timeout_s: float = 15) -> dict[str, Any]:
        """The finished match as both players see it. A socket relayed through the other
        process hears the last change a moment later: both are read again until they
        agree, and if they never do, the parts that differ are named."""
        deadline = time.monotonic() + timeout_s
        while True:
            self._sync()
            matches: list[dict[str, Any]] = [player.state["match"] for player in self.players]
            if _as_finished(matches[0]) == _as_finished(matches[1]) and matches[0]["over"]:
                return matches[0]
            if time.monotonic() > deadline:
                differ = {key: (matches[0].get(key), matches[1].get(key)) for key in matches[0]}
                versions = [player.state["v"] for player in self.players]
                raise AssertionError(
                    f"the players' views of the finished match differ at versions {versions}: "
                    f"{ {key: pair for key, pair in differ.items() if pair[0] != pair[1]} }"
                )
            time.sleep(0.2)

    def close(self) -> None:
        for player in self.players:
            if player.seat is not None:
                player.seat.close()


def _as_finished(match: dict[str, Any]) -> dict[str, Any]:
    """A match as compared between players: a stopped clock is read at the moment the
    message was written (``now_ms``), so a socket that came back after the end reads it
    later than the other; the rest must be the same."""
    seen = copy.deepcopy(match)
    if seen["clock"] is not None and seen["clock"]["running"] is None:
        seen["clock"]["now_ms"] = seen["clock"]["since_ms"]
    return seen


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
    """``check_record`` on what both players saw last, a stopped clock as read when the
    match ended (``_as_finished``)."""
    final = match.final()
    seen = _as_finished(final)
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
