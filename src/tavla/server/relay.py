"""A game's traffic between the process that owns it and the processes its players and
spectators are connected to (docs/API.md, "Several processes").

Each process listens on ``node:<its id>``; the owner of a game listens on
``game-in:<game id>``. A socket on another process joins the game through the owner
(``join``), forwards what its client sends (``msg``) and leaves (``leave``); the owner
answers on the socket's process topic, exactly what it would send a socket of its
own. Officials' actions made over HTTP on another process travel as a ``call``.

Pub/sub keeps nothing, so every doubt ends in a reconnection rather than a guess: a
socket whose owner went quiet (no heartbeat on ``nodes`` for a lease's length), lost
its game, or did not answer the join is closed with 1012, and its client reconnects
and syncs (docs/API.md 5); after Redis came back, every relayed socket is. The game
itself loses nothing: it is stored before anybody is told of it, and intents are
acknowledged once by their ``seq``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tavla.realtime.hub import Hub
from tavla.server.gameplay import dispatch, whole
from tavla.server.i18n import N_
from tavla.server.live.officials import OFFICIALS_ACTIONS, Outcome, officiate
from tavla.server.live.room import Refused, Room, official, reads_chat

if TYPE_CHECKING:
    from tavla.server.platform import Platform

log = logging.getLogger(__name__)

SERVICE_RESTART = 1012
"""The close code that tells a client to reconnect (RFC 6455: the service restarts)."""
NODES_TOPIC = "nodes"


def game_topic(game_id: str) -> str:
    return f"game-in:{game_id}"


def node_topic(node: str) -> str:
    return f"node:{node}"


def _now() -> float:
    return time.monotonic()


@dataclass
class Visitor:
    """A socket of another process, as a viewer of a room this process owns."""

    relay: Relay
    node: str
    conn: str
    seat: int | None
    language: str
    arbiter: bool
    may_warn: bool
    user_id: int | None
    inbox: asyncio.Queue[tuple[str, Any]] = field(default_factory=asyncio.Queue)
    worker: asyncio.Task[None] | None = None

    def send(self, message: dict[str, Any] | str) -> None:
        self.relay.hub.publish(node_topic(self.node), {"conn": self.conn, "m": message})

    def drop(self, code: int = SERVICE_RESTART) -> None:
        self.relay.hub.publish(node_topic(self.node), {"conn": self.conn, "drop": code})


@dataclass
class Relayed:
    """A socket of this process whose game another process owns."""

    game_id: str
    owner: str
    socket: Any
    """The ws.py connection: ``send``, ``drop``."""
    heard: asyncio.Event = field(default_factory=asyncio.Event)


class Relay:
    def __init__(self, platform: Platform, hub: Hub, node: str, lease_ms: int) -> None:
        self.platform = platform
        self.hub = hub
        self.node = node
        self.lease_ms = lease_ms
        self.join_wait_s = min(2.0, lease_ms / 2000)
        self.visitors: dict[str, dict[str, Visitor]] = {}
        """By game, by ``node/conn``: the sockets of other processes in rooms of this one."""
        self.relayed: dict[str, Relayed] = {}
        """By conn: sockets of this process in games of other processes."""
        self.seen: dict[str, float] = {}
        """When each process was last heard of (its heartbeat), on this one's clock."""
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._unsubscribe: dict[str, Callable[[], None]] = {}
        self._tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ wiring
    def start(self) -> None:
        self.hub.subscribe(node_topic(self.node), self._to_this_node)
        self.hub.subscribe(NODES_TOPIC, self._heartbeat)
        self.hub.on_reconnect.append(self._after_reconnect)
        self._tasks.append(asyncio.create_task(self._beat()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def owned(self, room: Room) -> None:
        """A room this process made or took over: other processes reach it from now on."""
        game_id = room.game_id
        if game_id not in self._unsubscribe:
            self._unsubscribe[game_id] = self.hub.subscribe(
                game_topic(game_id), lambda message: self._to_owner(room, message)
            )

    def let_go(self, room: Room) -> None:
        """The room closed here (its game went to another process): every socket in it
        reconnects, to wherever the game is now."""
        unsubscribe = self._unsubscribe.pop(room.game_id, None)
        if unsubscribe is not None:
            unsubscribe()
        for visitor in self.visitors.pop(room.game_id, {}).values():
            if visitor.worker is not None:
                visitor.worker.cancel()
        for viewer in list(room.viewers):
            drop = getattr(viewer, "drop", None)
            if drop is not None:
                drop(SERVICE_RESTART)

    # --------------------------------------------------------------- the owner
    def _to_owner(self, room: Room, message: dict[str, Any]) -> None:
        op, node, conn = message.get("op"), message.get("node"), message.get("conn")
        if not isinstance(node, str):
            return
        self.seen[node] = _now()  # a message is as good as a heartbeat
        if op == "call":
            self._spawn(self._answer_call(room, node, message))
            return
        if not isinstance(conn, str):
            return
        visitors = self.visitors.setdefault(room.game_id, {})
        key = f"{node}/{conn}"
        visitor = visitors.get(key)
        if op == "join":
            if visitor is None:
                visitor = visitors[key] = self._visitor(node, conn, message)
                visitor.worker = asyncio.create_task(self._serve(room, visitor))
            visitor.inbox.put_nowait(("join", None))
        elif visitor is None:
            # A socket this process does not know (it joined an owner before this one):
            # it reconnects and joins here.
            self.hub.publish(node_topic(node), {"conn": conn, "drop": SERVICE_RESTART})
        elif op == "msg" and isinstance(message.get("data"), dict):
            visitor.inbox.put_nowait(("msg", message["data"]))
        elif op == "leave":
            visitor.inbox.put_nowait(("leave", None))

    def _visitor(self, node: str, conn: str, message: dict[str, Any]) -> Visitor:
        seat = message.get("seat")
        user = message.get("user")
        return Visitor(
            self,
            node,
            conn,
            seat if seat in (0, 1) and type(seat) is int else None,
            str(message.get("language", "en")),
            message.get("arbiter") is True,
            message.get("may_warn") is True,
            user if type(user) is int else None,
        )

    async def _serve(self, room: Room, visitor: Visitor) -> None:
        """A visitor's messages, one after another, as its own process would take them."""
        joined = False
        try:
            while True:
                op, data = await visitor.inbox.get()
                if op == "join":
                    if joined:  # a join repeated: the first one's answer went missing
                        visitor.send(
                            room.view(
                                visitor.seat, reads_chat=reads_chat(visitor), official=official(visitor)
                            )
                        )
                    else:
                        joined = True
                        await whole(room.join(visitor))
                elif op == "msg":
                    await dispatch(self.platform, room, visitor, visitor.user_id, data)
                else:
                    return
        except Exception:
            log.exception("game %s: a relayed socket failed", room.game_id)
            visitor.drop()
        finally:
            self.visitors.get(room.game_id, {}).pop(f"{visitor.node}/{visitor.conn}", None)
            if joined and not room.closed:
                with contextlib.suppress(Exception):
                    await whole(room.leave(visitor))

    async def _answer_call(self, room: Room, node: str, message: dict[str, Any]) -> None:
        call, action = message.get("call"), message.get("action")
        if not isinstance(call, str) or action not in OFFICIALS_ACTIONS:
            return
        reply: dict[str, Any] = {"call": call}
        try:
            await officiate(room, str(action), message.get("seat"), message.get("note", ""))
            reply["ok"] = Outcome.of(room).to_json()
        except Refused as refused:
            reply["refused"] = {"code": refused.code, "template": refused.template, "params": refused.params}
        except Exception:
            log.exception("game %s: an official's action from another process failed", room.game_id)
            reply["refused"] = {"code": "unavailable", "template": UNAVAILABLE, "params": {}}
        self.hub.publish(node_topic(node), reply)

    # ----------------------------------------------------------- another owner
    async def attach(
        self, game_id: str, owner: str, socket: Any, seat: int | None, user_id: int | None
    ) -> bool:
        """Join ``socket`` to the game ``owner`` runs; False when the owner did not answer."""
        conn = f"{next(self._ids)}"
        socket.relay_id = conn
        relayed = self.relayed[conn] = Relayed(game_id, owner, socket)
        join = {
            "op": "join",
            "node": self.node,
            "conn": conn,
            "seat": seat,
            "language": socket.language,
            "arbiter": socket.arbiter,
            "may_warn": socket.may_warn,
            "user": user_id,
        }
        for _ in range(3):
            self.hub.publish(game_topic(game_id), join)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(relayed.heard.wait(), self.join_wait_s)
                return True
        self.relayed.pop(conn, None)
        return False

    def forward(self, socket: Any, message: dict[str, Any]) -> None:
        relayed = self.relayed.get(getattr(socket, "relay_id", ""))
        if relayed is not None:
            self.hub.publish(
                game_topic(relayed.game_id),
                {"op": "msg", "node": self.node, "conn": socket.relay_id, "data": message},
            )

    def detach(self, socket: Any) -> None:
        relayed = self.relayed.pop(getattr(socket, "relay_id", ""), None)
        if relayed is not None:
            self.hub.publish(
                game_topic(relayed.game_id), {"op": "leave", "node": self.node, "conn": socket.relay_id}
            )

    async def call(self, game_id: str, owner: str, action: str, seat: object, note: object) -> Outcome:
        """An official's action on a game ``owner`` runs (Rooms.forward)."""
        call = f"{self.node}/{next(self._ids)}"
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call] = answer
        self.hub.publish(
            game_topic(game_id),
            {"op": "call", "node": self.node, "call": call, "action": action, "seat": seat, "note": note},
        )
        try:
            reply = await asyncio.wait_for(answer, max(5.0, self.lease_ms / 1000))
        except TimeoutError:
            raise Refused("unavailable", UNAVAILABLE) from None
        finally:
            self._calls.pop(call, None)
        if "ok" in reply:
            return Outcome.from_json(reply["ok"])
        refused = reply.get("refused", {})
        code, template = str(refused.get("code", "unavailable")), str(refused.get("template", UNAVAILABLE))
        raise Refused(code, template, **refused.get("params", {}))

    def _to_this_node(self, message: dict[str, Any]) -> None:
        call = message.get("call")
        if isinstance(call, str):
            answer = self._calls.get(call)
            if answer is not None and not answer.done():
                answer.set_result(message)
            return
        relayed = self.relayed.get(str(message.get("conn")))
        if relayed is None:
            return
        if "drop" in message:
            self.relayed.pop(str(message.get("conn")), None)
            relayed.socket.drop(SERVICE_RESTART)
            return
        relayed.heard.set()
        self.seen[relayed.owner] = _now()  # an answer is as good as a heartbeat
        shown = message.get("m")
        if isinstance(shown, dict | str):
            relayed.socket.send(shown)

    # ---------------------------------------------------------------- liveness
    async def _beat(self) -> None:
        pause_s = self.lease_ms / 3000
        while True:
            self.hub.publish(NODES_TOPIC, {"node": self.node})
            began = _now()
            await asyncio.sleep(pause_s)
            # Woken late, this process was the one stalled (a busy machine, a frozen
            # process): the others' heartbeats may still wait unread, so it judges no one
            # until a pause has passed on time.
            if _now() - began < 2 * pause_s:
                self._forget_the_quiet()

    def _heartbeat(self, message: dict[str, Any]) -> None:
        node = message.get("node")
        if isinstance(node, str):
            self.seen[node] = _now()

    def _quiet(self, node: str) -> bool:
        return _now() - self.seen.get(node, 0.0) > self.lease_ms / 1000

    def _forget_the_quiet(self) -> None:
        """Sockets of processes gone quiet leave their rooms here; sockets here whose
        owner went quiet reconnect (to the game's next owner)."""
        for game_id, visitors in list(self.visitors.items()):
            for visitor in list(visitors.values()):
                if self._quiet(visitor.node):
                    log.warning(
                        "game %s: process %s went quiet; its socket %s leaves and is told to reconnect",
                        game_id,
                        visitor.node,
                        visitor.conn,
                    )
                    self._send_away(game_id, visitor)
        for conn, relayed in list(self.relayed.items()):
            if relayed.heard.is_set() and self._quiet(relayed.owner):
                self.relayed.pop(conn, None)
                relayed.socket.drop(SERVICE_RESTART)

    def _after_reconnect(self) -> None:
        """Redis was away: messages may be missing both ways, so every relayed socket
        starts again, and the visitors leave and are told to come back."""
        for conn, relayed in list(self.relayed.items()):
            self.relayed.pop(conn, None)
            relayed.socket.drop(SERVICE_RESTART)
        for game_id, visitors in list(self.visitors.items()):
            for visitor in list(visitors.values()):
                self._send_away(game_id, visitor)

    def _send_away(self, game_id: str, visitor: Visitor) -> None:
        """The visitor leaves its room here, and its socket is told to reconnect: a
        process that only seemed gone (slow, or cut off from Redis for a moment) would
        otherwise keep a socket open that nothing reaches any more."""
        self.visitors.get(game_id, {}).pop(f"{visitor.node}/{visitor.conn}", None)
        visitor.inbox.put_nowait(("leave", None))
        visitor.drop()

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.append(task)
        task.add_done_callback(lambda done: self._tasks.remove(done) if done in self._tasks else None)


UNAVAILABLE = N_("the server that runs this game cannot be reached; try again")
