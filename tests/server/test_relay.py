"""The relay between the process that owns a game and another process's socket
(src/tavla/server/relay.py), two processes simulated on one in-memory hub: whenever
the owner lets a visiting socket go on its own, the socket is told to reconnect
rather than left open with nothing reaching it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

import pytest

from tavla.realtime.hub import Hub
from tavla.server.live.basics import Refused
from tavla.server.live.officials import Outcome
from tavla.server.relay import SERVICE_RESTART, Relay, game_topic, node_topic

pytestmark = pytest.mark.timeout(30)
LEASE_MS = 300
HEARD_LEASE_MS = 2000
"""Long enough that a busy machine's stalls do not make a process seem gone."""


class Socket:
    """What ws.py's connection offers the relay."""

    language = "en"
    arbiter = False
    may_warn = False

    def __init__(self) -> None:
        self.shown: list[Any] = []
        self.dropped: list[int] = []

    def send(self, message: Any) -> None:
        self.shown.append(message)

    def drop(self, code: int) -> None:
        self.dropped.append(code)


class Room:
    """A stand-in room: a join shows the game's state, a leave is remembered."""

    game_id = "g1"
    closed = False

    def __init__(self) -> None:
        self.viewers: list[Any] = []
        self.left: list[Any] = []

    async def join(self, viewer: Any) -> None:
        self.viewers.append(viewer)
        viewer.send({"type": "state", "v": 1})

    async def leave(self, viewer: Any) -> None:
        self.viewers.remove(viewer)
        self.left.append(viewer)


async def settle(condition: Callable[[], bool], timeout_s: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the condition never held"
        await asyncio.sleep(0.01)


def two_processes(
    scenario: Callable[[Relay, Relay, Room, Socket, Hub], Awaitable[None]],
    lease_ms: int = LEASE_MS,
) -> None:
    """The owner ("first") runs the room; the visiting socket is on "second"."""

    async def run() -> None:
        hub = Hub()
        owner = Relay(cast(Any, None), hub, "first", lease_ms)
        visiting = Relay(cast(Any, None), hub, "second", lease_ms)
        owner.start()
        visiting.start()
        room = Room()
        owner.owned(cast(Any, room))
        socket = Socket()
        try:
            assert await visiting.attach(room.game_id, "first", socket, seat=0, user_id=7)
            await settle(lambda: len(room.viewers) == 1)
            assert socket.shown == [{"type": "state", "v": 1}]
            await scenario(owner, visiting, room, socket, hub)
        finally:
            await owner.stop()
            await visiting.stop()

    asyncio.run(run())


def test_a_visitor_whose_process_seems_gone_is_told_to_reconnect(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        # The second process is slow, not gone: the owner stops hearing its heartbeat
        # for longer than a lease, while it still listens.
        real_publish = hub.publish

        def publish(topic: str, message: dict[str, Any]) -> None:
            if not (topic == "nodes" and message.get("node") == "second"):
                real_publish(topic, message)

        monkeypatch.setattr(hub, "publish", publish)
        await settle(lambda: room.left != [], timeout_s=3 * LEASE_MS / 1000 + 2)
        await settle(lambda: socket.dropped == [SERVICE_RESTART])
        assert owner.visitors.get(room.game_id, {}) == {}
        assert visiting.relayed == {}

    two_processes(scenario)


def test_visitors_are_told_to_reconnect_when_the_owner_lost_redis_for_a_moment() -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        # Only the owner's connection to Redis came back: the other process noticed nothing.
        (came_back,) = [call for call in hub.on_reconnect if getattr(call, "__self__", None) is owner]
        came_back()
        await settle(lambda: room.left != [])
        assert socket.dropped == [SERVICE_RESTART]
        assert visiting.relayed == {}

    two_processes(scenario)


def test_a_visitor_that_is_heard_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        await asyncio.sleep(1.5 * HEARD_LEASE_MS / 1000)
        assert socket.dropped == [] and room.left == []
        assert list(owner.visitors[room.game_id]) == ["second/1"]

    two_processes(scenario, HEARD_LEASE_MS)


def test_a_visitor_whose_messages_arrive_stays_without_heartbeats(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        # The second process's heartbeats are lost, but its socket's messages arrive:
        # a process that sends is alive.
        real_publish = hub.publish
        handled: list[Any] = []

        def publish(topic: str, message: dict[str, Any]) -> None:
            if not (topic == "nodes" and message.get("node") == "second"):
                real_publish(topic, message)

        async def dispatch(platform: Any, room: Any, viewer: Any, user_id: Any, data: Any) -> None:
            handled.append(data)

        monkeypatch.setattr(hub, "publish", publish)
        monkeypatch.setattr("tavla.server.relay.dispatch", dispatch)
        for number in range(12):  # 1.2 s: four leases
            visiting.forward(socket, {"type": "ping", "n": number})
            await asyncio.sleep(LEASE_MS / 3000)
        assert socket.dropped == [] and room.left == []
        assert [data["n"] for data in handled] == list(range(12))

    two_processes(scenario)


def test_an_owner_that_stalled_judges_no_one_until_it_runs_on_time() -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        # The whole process stalls for three leases (a loaded machine, a frozen
        # process): when it wakes, the other's heartbeats have not been read yet.
        time.sleep(3 * LEASE_MS / 1000)
        await asyncio.sleep(2 * LEASE_MS / 1000)
        assert socket.dropped == [] and room.left == []
        assert list(owner.visitors[room.game_id]) == ["second/1"]

    two_processes(scenario)


def test_the_owner_knows_a_visitor_by_the_seat_and_the_player_of_its_socket() -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        # Who may move, chat or act as an official is decided by the owner from these.
        (visitor,) = owner.visitors[room.game_id].values()
        assert (visitor.node, visitor.seat, visitor.user_id, visitor.language) == ("second", 0, 7, "en")

    two_processes(scenario)


def test_a_socket_the_owner_does_not_know_is_told_to_reconnect() -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        # The owner forgot the socket (it joined before this owner took the game over):
        # its next message makes it reconnect and join here afresh.
        owner.visitors.clear()
        visiting.forward(socket, {"type": "sync"})
        await settle(lambda: socket.dropped == [SERVICE_RESTART])

    two_processes(scenario)


def test_a_relayed_message_that_is_not_an_object_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        handled: list[Any] = []
        users: list[Any] = []

        async def dispatch(platform: Any, room: Any, viewer: Any, user_id: Any, data: Any) -> None:
            handled.append(data)
            users.append(user_id)

        monkeypatch.setattr("tavla.server.relay.dispatch", dispatch)
        (conn,) = visiting.relayed
        hub.publish(game_topic(room.game_id), {"op": "msg", "node": "second", "conn": conn, "data": "sync"})
        visiting.forward(socket, {"type": "sync"})
        await settle(lambda: handled != [])
        assert handled == [{"type": "sync"}] and socket.dropped == []
        assert users == [7]  # the message is the socket's player's, as on the owner's own sockets

    two_processes(scenario)


def test_an_officials_action_reaches_the_owner_and_its_refusal_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        # An arbiter on the second process warns a player of a game the first one runs.
        done: list[tuple[Any, str, Any, Any]] = []

        async def officiate(on: Any, action: str, seat: Any, note: Any) -> None:
            done.append((on, action, seat, note))
            raise Refused("forbidden", "only {who} may", who="an arbiter")

        monkeypatch.setattr("tavla.server.relay.officiate", officiate)
        with pytest.raises(Refused) as refused:
            await visiting.call(room.game_id, "first", "warn", 1, "slow play")
        assert done == [(room, "warn", 1, "slow play")]  # done by the owner, on its room
        assert (refused.value.code, refused.value.message) == ("forbidden", "only an arbiter may")

    two_processes(scenario)


def test_an_answer_to_an_officials_call_with_neither_outcome_nor_refusal_reads_as_unavailable() -> None:
    """A process of another version may answer a call with nothing the caller reads:
    the official is told that the game's server cannot be reached, and may try again."""

    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        def mute(message: dict[str, Any]) -> None:
            if message.get("op") == "call":
                hub.publish(node_topic(str(message["node"])), {"call": message["call"]})

        hub.subscribe(game_topic("g2"), mute)
        with pytest.raises(Refused) as refused:
            await visiting.call("g2", "third", "warn", 1, "slow play")
        assert (refused.value.code, refused.value.message) == (
            "unavailable",
            "the server that runs this game cannot be reached; try again",
        )

    two_processes(scenario)


class ArbiterSocket(Socket):
    language = "bg"
    arbiter = True
    may_warn = True


def test_the_owner_knows_a_visitors_language_and_what_he_may_do_as_an_official() -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        # A Bulgarian arbiter watching from the second process: the owner writes to him in
        # his language and lets him read the chat and warn.
        arbiter = ArbiterSocket()
        assert await visiting.attach(room.game_id, "first", arbiter, seat=None, user_id=9)
        await settle(lambda: len(room.viewers) == 2)
        seen = {
            v.user_id: (v.seat, v.language, v.arbiter, v.may_warn)
            for v in owner.visitors[room.game_id].values()
        }
        assert seen == {7: (0, "en", False, False), 9: (None, "bg", True, True)}

    two_processes(scenario)


def test_a_socket_that_leaves_leaves_the_owners_room() -> None:
    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        (viewer,) = room.viewers
        visiting.detach(socket)
        await settle(lambda: room.left == [viewer])
        assert owner.visitors.get(room.game_id, {}) == {} and visiting.relayed == {}
        assert socket.dropped == []  # it left: nobody tells it to come back

    two_processes(scenario)


def test_an_officials_action_done_by_the_owner_comes_back_with_the_match_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    after = Outcome(over=True, winner=0, score=(3, 1), federation_id=4, warnings=(0, 3), forfeit="warnings")

    async def scenario(owner: Relay, visiting: Relay, room: Room, socket: Socket, hub: Hub) -> None:
        done: list[tuple[str, Any, Any]] = []

        async def officiate(room: Any, action: str, seat: Any, note: Any) -> None:
            done.append((action, seat, note))

        monkeypatch.setattr("tavla.server.relay.officiate", officiate)
        monkeypatch.setattr(Outcome, "of", classmethod(lambda cls, room: after))
        assert await visiting.call(room.game_id, "first", "warn", 1, "third") == after
        assert done == [("warn", 1, "third")]

    two_processes(scenario)
