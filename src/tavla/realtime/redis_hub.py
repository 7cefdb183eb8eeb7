"""The hub between processes: the in-memory hub's interface, carried by Redis pub/sub.

Every message goes to Redis first and each process, its publisher included, hands it
to its own subscribers when it comes back: Redis puts one channel's messages in one
order, so every process delivers a topic's messages in that same order.

Redis pub/sub keeps nothing: what is published while Redis cannot be reached is
dropped (and counted in the log), and what others published meanwhile never arrives.
The hub reconnects with growing pauses and subscribes again to what its subscribers
still want.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from tavla.realtime.hub import Hub, Subscriber

log = logging.getLogger(__name__)
_JITTER = random.Random()
"""Spreads the pauses of processes that started or lost Redis together; its own
generator, so that the server never moves the random state of the process it runs in."""

CONTROL = "~hub"
"""A channel every connection listens on, so that it is subscribed even with no topic."""


class HubNotStarted(RuntimeError):
    """A message published before ``start()``: the caller's order of start-up is wrong."""


class HubUnavailable(RuntimeError):
    """Redis could not be reached when the hub started."""


class RedisHub(Hub):
    def __init__(
        self,
        url: str,
        prefix: str = "tavla:",
        *,
        start_timeout_s: float = 10.0,
        ping_every_s: float = 5.0,
        backoff_s: tuple[float, float] = (0.1, 5.0),
        queue_limit: int = 10_000,
        connect_timeout_s: float = 5.0,
    ) -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix
        self.start_timeout_s = start_timeout_s
        self.ping_every_s = ping_every_s
        self.backoff_s = backoff_s
        self.queue_limit = queue_limit
        self.dropped = 0
        """Messages this process published that never reached Redis, since it started."""
        self._state = "new"  # new -> running -> closed
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._up = asyncio.Event()
        self._changed = asyncio.Event()
        self._confirmed: set[str] = set()
        self._confirmed_changed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._lost: tuple[float, int] | None = None
        self._overflowing = False
        """Since when Redis is unreachable, and how many messages were dropped before."""
        # Neither connection waits longer than ``connect_timeout_s`` for a Redis that does
        # not take it (an address that drops the packets, a server too busy to accept),
        # and the sender waits as long for an answer. After Redis came back, the sender's
        # pooled connection is the dead one: one retry on a fresh connection sends the
        # message instead of dropping it.
        self._sender: Redis = Redis.from_url(
            url,
            retry=Retry(NoBackoff(), 1),
            socket_timeout=connect_timeout_s,
            socket_connect_timeout=connect_timeout_s,
        )
        # The listener's own retries would hide a lost connection: it reconnects here,
        # with backoff. It waits for messages without a time limit; pings find it dead.
        self._listener: Redis = Redis.from_url(
            url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=connect_timeout_s
        )

    distributed = True

    # ------------------------------------------------------------- the interface
    def subscribe(self, topic: str, subscriber: Subscriber) -> Callable[[], None]:
        unsubscribe_here = super().subscribe(topic, subscriber)
        self._changed.set()

        def unsubscribe() -> None:
            unsubscribe_here()
            self._changed.set()

        return unsubscribe

    def publish(self, topic: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for Redis; it is delivered here, too, when Redis sends it back.

        Refused before ``start()``; dropped after ``close()``, while Redis is unreachable,
        or when the queue for Redis is full.
        """
        if self._state == "new":
            raise HubNotStarted("publish before the hub started: call await hub.start() first")
        text = json.dumps(message, separators=(",", ":"))  # refuses what cannot travel, here
        if self._state == "closed":
            log.debug("hub closed: message on %r dropped", topic)
            return
        if not self._up.is_set():
            self.dropped += 1
            return
        if self._outbox.qsize() >= self.queue_limit:
            self.dropped += 1
            if not self._overflowing:
                self._overflowing = True
                log.warning(
                    "Redis at %s is too slow: %d messages wait; new ones are dropped",
                    self.url,
                    self.queue_limit,
                )
            return
        self._outbox.put_nowait((self.prefix + topic, text))

    # ---------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        if self._state != "new":
            raise RuntimeError(f"a hub starts once (this one is {self._state})")
        self._state = "running"
        self._tasks = [asyncio.create_task(self._stay_connected()), asyncio.create_task(self._send())]
        try:
            await asyncio.wait_for(self._up.wait(), self.start_timeout_s)
        except TimeoutError:
            await self.close()
            waited = self.start_timeout_s
            raise HubUnavailable(f"Redis at {self.url} did not answer within {waited} s") from None

    async def close(self) -> None:
        """Send what is queued (for a second at most), then disconnect."""
        if self._state == "closed":
            return
        running = self._state == "running"
        self._state = "closed"
        if running and self._up.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._outbox.join(), 1.0)
        pending = set(self._tasks)
        while pending:
            for task in pending:
                task.cancel()
            # On Python 3.11 asyncio.wait_for may swallow a cancel that meets its inner
            # call failing at the same moment (the reconnect loop then goes on): cancel again.
            _, pending = await asyncio.wait(pending, timeout=0.5)
        self._up.clear()
        await self._sender.aclose()
        await self._listener.aclose()

    @property
    def connected(self) -> bool:
        return self._up.is_set()

    async def settled(self) -> None:
        """Wait until Redis confirmed a subscription for every topic subscribed here.

        Until then a message another process publishes on a new topic may pass by.
        """
        while not self._wanted() <= self._confirmed:
            self._confirmed_changed.clear()
            await self._confirmed_changed.wait()

    # ---------------------------------------------------------------- internals
    def _wanted(self) -> set[str]:
        return {self.prefix + topic for topic in self._topics}

    async def _send(self) -> None:
        while True:
            if self._outbox.empty():
                self._overflowing = False
            channel, text = await self._outbox.get()
            try:
                if self._up.is_set():
                    await self._sender.publish(channel, text)
                else:
                    self.dropped += 1
            except (RedisError, OSError) as error:
                self.dropped += 1
                log.debug("publish on %r failed: %s", channel, error)
            finally:
                self._outbox.task_done()

    async def _stay_connected(self) -> None:
        pause = self.backoff_s[0]
        loop = asyncio.get_running_loop()
        while self._state == "running":
            pubsub = self._listener.pubsub()
            try:
                # A Redis that accepts connections but does not answer (stopped, or
                # swamped) must not hold the hub: the handshake gets as long as pings do.
                await asyncio.wait_for(pubsub.subscribe(self.prefix + CONTROL), 3 * self.ping_every_s)
                await self._session(pubsub)
            except Exception as error:
                if self._lost is None:
                    self._lost = (loop.time(), self.dropped)
                    log.warning(
                        "lost Redis at %s (%s): reconnecting; messages published meanwhile are dropped",
                        self.url,
                        error or type(error).__name__,
                    )
            finally:
                was_up = self._up.is_set()
                self._up.clear()
                self._confirmed.clear()
                with contextlib.suppress(Exception):
                    # untyped before redis 8.2, typed from it: either way passes
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]
            if was_up:
                pause = self.backoff_s[0]
            # Processes that lost Redis together come back spread out, not in one burst.
            await asyncio.sleep(pause * _JITTER.uniform(0.8, 1.2))
            pause = min(pause * 2, self.backoff_s[1])

    def _came_back(self) -> None:
        self._up.set()
        if self._lost is not None:
            since, dropped_before = self._lost
            self._lost = None
            log.warning(
                "Redis at %s is back after %.1f s: %d messages published here meanwhile were "
                "dropped, and what other processes published meanwhile was missed",
                self.url,
                asyncio.get_running_loop().time() - since,
                self.dropped - dropped_before,
            )
            for listener in list(self.on_reconnect):
                try:
                    listener()
                except Exception:
                    log.exception("a listener of the hub's reconnection failed")

    async def _session(self, pubsub: PubSub) -> None:
        """Listen on one connection until it fails: a reader, and a keeper that
        subscribes, unsubscribes and pings; only the keeper writes to the connection."""
        heard = [asyncio.get_running_loop().time()]
        subscribed: set[str] = set()
        self._changed.set()
        reader = asyncio.create_task(self._read(pubsub, heard))
        keeper = asyncio.create_task(self._keep(pubsub, heard, subscribed))
        try:
            done, _ = await asyncio.wait({reader, keeper}, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()
        finally:
            for task in (reader, keeper):
                task.cancel()
            await asyncio.gather(reader, keeper, return_exceptions=True)

    async def _keep(self, pubsub: PubSub, heard: list[float], subscribed: set[str]) -> None:
        loop = asyncio.get_running_loop()
        next_ping = loop.time() + self.ping_every_s
        while True:
            self._changed.clear()
            wanted = self._wanted()
            if wanted - subscribed:
                await pubsub.subscribe(*(wanted - subscribed))
            if subscribed - wanted:
                await pubsub.unsubscribe(*(subscribed - wanted))
            subscribed.clear()
            subscribed.update(wanted)
            # Pings go out on time even while subscriptions keep changing.
            now = loop.time()
            if now >= next_ping:
                if now - heard[0] > 3 * self.ping_every_s:
                    raise ConnectionError("Redis did not answer three pings")
                await pubsub.ping()
                next_ping = now + self.ping_every_s
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), next_ping - loop.time())

    async def _read(self, pubsub: PubSub, heard: list[float]) -> None:
        loop = asyncio.get_running_loop()
        while True:
            message = await pubsub.get_message(timeout=None)
            heard[0] = loop.time()
            if message is None:
                continue
            kind = message["type"]
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else channel
            if kind == "subscribe":
                self._confirmed.add(channel)
                self._confirmed_changed.set()
                if channel == self.prefix + CONTROL:
                    self._came_back()
            elif kind == "unsubscribe":
                self._confirmed.discard(channel)
                self._confirmed_changed.set()
            elif kind == "message" and channel.startswith(self.prefix):
                self._hand_over(channel[len(self.prefix) :], message["data"])

    def _hand_over(self, topic: str, data: bytes | str) -> None:
        try:
            decoded = json.loads(data)
        except ValueError:
            log.warning("a message on %r is not JSON: dropped", topic)
            return
        if not isinstance(decoded, dict):
            log.warning("a message on %r is not a JSON object: dropped", topic)
            return
        for subscriber in list(self._topics.get(topic, ())):
            try:
                subscriber(decoded)
            except Exception:
                # One broken subscriber must not stop the others, nor the listening.
                log.exception("a subscriber of %r failed", topic)
