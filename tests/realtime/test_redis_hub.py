"""The hub between processes (src/tavla/realtime/redis_hub.py) on a real Redis.

Two hubs in one event loop stand for two server processes: each has its own Redis
connections, and nothing but Redis joins them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import socket
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import TimeoutError as RedisTimeout
from tests.realtime.conftest import RedisServer, free_port

from tavla.realtime.redis_hub import HubNotStarted, HubUnavailable, RedisHub

pytestmark = pytest.mark.timeout(60)


def hub(url: str) -> RedisHub:
    return RedisHub(url, "test:", ping_every_s=0.5, backoff_s=(0.05, 0.3), start_timeout_s=5)


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the awaited condition never held")
        await asyncio.sleep(0.01)


async def both(redis_url: str, scenario: Callable[[RedisHub, RedisHub], Awaitable[None]]) -> None:
    first, second = hub(redis_url), hub(redis_url)
    await first.start()
    await second.start()
    try:
        await scenario(first, second)
    finally:
        await first.close()
        await second.close()


def test_two_hubs_exchange_messages_in_order_both_ways_and_agree_on_one_order(
    redis_server: RedisServer,
) -> None:
    seen: dict[str, list[Any]] = {"first": [], "second": []}

    async def scenario(first: RedisHub, second: RedisHub) -> None:
        first.subscribe("room", lambda message: seen["first"].append(message["n"]))
        second.subscribe("room", lambda message: seen["second"].append(message["n"]))
        await first.settled()
        await second.settled()
        for n in range(30):
            first.publish("room", {"n": f"a{n}"})
            second.publish("room", {"n": f"b{n}"})
        await until(lambda: len(seen["first"]) == 60 and len(seen["second"]) == 60)

    asyncio.run(both(redis_server.url, scenario))
    for name in ("first", "second"):
        assert [n for n in seen[name] if n[0] == "a"] == [f"a{n}" for n in range(30)]
        assert [n for n in seen[name] if n[0] == "b"] == [f"b{n}" for n in range(30)]
    # Delivered when Redis sends it back, so both processes show one order.
    assert seen["first"] == seen["second"]


def test_only_the_topic_subscribed_is_delivered_and_json_survives_the_trip(redis_server: RedisServer) -> None:
    lobby: list[Any] = []

    async def scenario(first: RedisHub, second: RedisHub) -> None:
        second.subscribe("lobby", lobby.append)
        await second.settled()
        first.publish("user:7", {"type": "started"})
        first.publish("lobby", {"type": "lobby", "offers": [{"id": 1, "by": "ayşe", "for": None}]})
        await until(lambda: len(lobby) == 1)
        await asyncio.sleep(0.1)

    asyncio.run(both(redis_server.url, scenario))
    assert lobby == [{"type": "lobby", "offers": [{"id": 1, "by": "ayşe", "for": None}]}]


def test_unsubscribing_stops_delivery_and_the_last_one_leaves_the_redis_channel(
    redis_server: RedisServer,
) -> None:
    kept: list[Any] = []
    gone: list[Any] = []

    async def listeners(client: Redis) -> int:
        counts = await client.pubsub_numsub("test:room")
        return int(counts[0][1])

    async def scenario(first: RedisHub, second: RedisHub) -> None:
        unsubscribe_kept = second.subscribe("room", kept.append)
        unsubscribe_gone = second.subscribe("room", gone.append)
        await second.settled()
        first.publish("room", {"n": 1})
        await until(lambda: len(kept) == 1 and len(gone) == 1)
        unsubscribe_gone()
        assert second.subscribers("room") == 1
        first.publish("room", {"n": 2})
        await until(lambda: len(kept) == 2)
        await asyncio.sleep(0.1)
        assert gone == [{"n": 1}]
        client = Redis.from_url(redis_server.url)
        try:
            assert await listeners(client) == 1
            unsubscribe_kept()
            assert second.subscribers("room") == 0
            deadline = asyncio.get_running_loop().time() + 5
            while await listeners(client) and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.02)
            assert await listeners(client) == 0
        finally:
            await client.aclose()

    asyncio.run(both(redis_server.url, scenario))
    assert kept == [{"n": 1}, {"n": 2}]


def test_a_publish_before_start_is_refused_and_after_close_dropped(redis_server: RedisServer) -> None:
    heard: list[Any] = []

    async def scenario() -> None:
        early = hub(redis_server.url)
        with pytest.raises(HubNotStarted):
            early.publish("room", {"n": 0})
        listener = hub(redis_server.url)
        await early.start()
        await listener.start()
        listener.subscribe("room", heard.append)
        await listener.settled()
        with pytest.raises(TypeError):
            early.publish("room", {"when": object()})  # cannot travel as JSON: refused at once
        await early.close()
        early.publish("room", {"n": "after close"})  # dropped, no error
        assert early.dropped == 0  # (the count is of what Redis missed while the hub ran)
        other = hub(redis_server.url)
        await other.start()
        other.publish("room", {"n": "marker"})
        await until(lambda: len(heard) == 1)
        await asyncio.sleep(0.2)
        await other.close()
        await listener.close()

    asyncio.run(scenario())
    assert heard == [{"n": "marker"}]


def test_a_hub_refuses_to_start_without_redis() -> None:
    async def scenario() -> None:
        url = f"redis://127.0.0.1:{free_port()}/0"
        lonely = RedisHub(url, start_timeout_s=0.5, backoff_s=(0.05, 0.1))
        with pytest.raises(HubUnavailable) as refused:
            await lonely.start()
        # The operator reads where the hub looked and how long it waited.
        assert str(refused.value) == f"Redis at {url} did not answer within 0.5 s"

    asyncio.run(scenario())


@contextlib.contextmanager
def refusing_port() -> Iterator[int]:
    """A port whose queue of new connections is full: Linux drops the requests that come
    next without an answer, as an address that swallows packets does."""
    with socket.socket() as full:
        full.bind(("127.0.0.1", 0))
        full.listen(0)
        port = int(full.getsockname()[1])
        waiting = [socket.socket() for _ in range(3)]
        try:
            for connection in waiting:
                connection.setblocking(False)
                with contextlib.suppress(BlockingIOError):
                    connection.connect(("127.0.0.1", port))
            yield port
        finally:
            for connection in waiting:
                connection.close()


def test_neither_connection_waits_longer_than_its_timeout_for_a_redis_that_does_not_take_it() -> None:
    # (A connection that stays waiting would hold the hub, or every message behind it.)
    async def scenario() -> None:
        with refusing_port() as port:
            silent = RedisHub(f"redis://127.0.0.1:{port}/0", connect_timeout_s=0.3)
            loop = asyncio.get_running_loop()
            try:
                for connection in (silent._sender, silent._listener):
                    began = loop.time()
                    with pytest.raises(RedisTimeout):
                        await asyncio.wait_for(connection.ping(), 5)
                    assert loop.time() - began < 2
            finally:
                await silent.close()

    asyncio.run(scenario())


def test_the_sender_waits_no_longer_than_its_timeout_for_a_redis_that_never_answers(
    redis_server: RedisServer,
) -> None:
    """A Redis that takes the connection and the message and says nothing (frozen, or
    gone without a word on a half-open connection): the message is given up, so those
    queued behind it go out once a Redis answers again."""

    async def scenario() -> None:
        silent = RedisHub(redis_server.url, connect_timeout_s=0.3)
        loop = asyncio.get_running_loop()
        redis_server.pause()
        try:
            began = loop.time()
            with pytest.raises(RedisTimeout):
                await asyncio.wait_for(silent._sender.publish("test:room", "{}"), 5)
            assert loop.time() - began < 2
        finally:
            redis_server.resume()
            await silent.close()

    asyncio.run(scenario())


def test_retrying_leaves_the_process_random_state_alone() -> None:
    """The pauses between tries are spread by a generator of the hub's own."""

    async def scenario() -> None:
        lonely = RedisHub(f"redis://127.0.0.1:{free_port()}/0", start_timeout_s=0.5, backoff_s=(0.02, 0.04))
        random.seed(12)
        before = random.getstate()
        with pytest.raises(HubUnavailable):
            await lonely.start()
        assert random.getstate() == before

    asyncio.run(scenario())


def test_close_cancels_again_a_task_that_swallowed_its_cancel() -> None:
    """On Python 3.11 ``asyncio.wait_for`` may swallow a cancel that meets its inner call
    failing at that moment, and the reconnect loop goes on: a hub that could not start
    hung in ``close`` about once in a hundred tries. ``close`` sends the cancel again."""

    async def scenario() -> None:
        hub = RedisHub(f"redis://127.0.0.1:{free_port()}/0", start_timeout_s=0.5)

        async def stubborn() -> None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(3600)  # the first cancel is lost, as in the race
            await asyncio.sleep(3600)

        hub._state = "running"
        hub._tasks = [asyncio.create_task(stubborn())]
        await asyncio.sleep(0)
        await asyncio.wait_for(hub.close(), 5)
        assert all(task.done() for task in hub._tasks)

    asyncio.run(scenario())


def test_both_hubs_reconnect_after_redis_restarts_and_say_what_was_lost(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    seen: dict[str, list[Any]] = {"first": [], "second": []}
    caplog.set_level(logging.WARNING, logger="tavla.realtime.redis_hub")

    async def scenario(first: RedisHub, second: RedisHub) -> None:
        first.subscribe("room", lambda message: seen["first"].append(message["n"]))
        second.subscribe("room", lambda message: seen["second"].append(message["n"]))
        await first.settled()
        await second.settled()
        first.publish("room", {"n": "before"})
        await until(lambda: seen["first"] == seen["second"] == ["before"])
        redis_server.kill()
        await until(lambda: not first.connected and not second.connected)
        first.publish("room", {"n": "while down"})
        assert first.dropped == 1
        redis_server.start()
        await until(lambda: first.connected and second.connected)
        await first.settled()
        await second.settled()
        first.publish("room", {"n": "after, from the first"})
        second.publish("room", {"n": "after, from the second"})
        await until(lambda: len(seen["first"]) == 3 and len(seen["second"]) == 3)
        assert first.dropped == 1 and second.dropped == 0

    asyncio.run(both(redis_server.url, scenario))
    for name in ("first", "second"):
        assert seen[name][0] == "before" and "while down" not in seen[name]
        assert set(seen[name][1:]) == {"after, from the first", "after, from the second"}
    lines = [record.getMessage() for record in caplog.records]
    assert sum("lost Redis" in line for line in lines) == 2
    assert any(
        "is back" in line and "1 messages published here meanwhile were dropped" in line for line in lines
    )


def test_a_listening_connection_redis_drops_is_noticed_and_its_loss_told(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis drops a subscriber's connection of its own accord (one too slow to read:
    its output buffer overflowed) and stays up. What was published meanwhile is lost:
    the hub must say so and tell its listeners (the lobby catches up), not reconnect
    quietly."""
    caplog.set_level(logging.WARNING, logger="tavla.realtime.redis_hub")
    seen: list[Any] = []
    told: list[str] = []

    async def scenario(first: RedisHub, second: RedisHub) -> None:
        second.subscribe("room", lambda message: seen.append(message["n"]))
        second.on_reconnect.append(lambda: told.append("back"))
        await second.settled()
        admin = Redis.from_url(redis_server.url)
        try:
            assert await admin.client_kill_filter(_type="pubsub") >= 2  # both hubs' listeners
        finally:
            await admin.aclose()
        await until(lambda: told == ["back"] and first.connected and second.connected)
        await first.settled()
        await second.settled()
        first.publish("room", {"n": "after"})
        await until(lambda: seen == ["after"])

    asyncio.run(both(redis_server.url, scenario))
    lines = [record.getMessage() for record in caplog.records]
    assert sum("lost Redis" in line for line in lines) == 2
    assert sum("is back" in line for line in lines) == 2


def test_a_redis_that_stops_answering_is_noticed_by_pings_and_left_until_it_answers(
    redis_server: RedisServer,
) -> None:
    """SIGSTOP keeps the connections open but silent: only the pings can tell, even
    while sockets keep coming and going (subscriptions change all the time)."""
    seen: list[Any] = []

    async def churn(busy: RedisHub) -> None:
        while True:
            busy.subscribe("churn", lambda message: None)()
            await asyncio.sleep(0.05)

    async def scenario(first: RedisHub, second: RedisHub) -> None:
        second.subscribe("room", lambda message: seen.append(message["n"]))
        await second.settled()
        churning = asyncio.create_task(churn(first))
        redis_server.pause()
        try:
            await until(lambda: not first.connected and not second.connected)
            first.publish("room", {"n": "while silent"})
        finally:
            redis_server.resume()
            churning.cancel()
        await until(lambda: first.connected and second.connected)
        await second.settled()
        first.publish("room", {"n": "after"})
        await until(lambda: seen == ["after"])
        assert first.dropped == 1

    asyncio.run(both(redis_server.url, scenario))


def test_a_hub_that_lost_redis_closes_at_once_without_waiting_for_what_it_queued(
    redis_server: RedisServer,
) -> None:
    """A server stopping sends what it queued (for a second at most) only while Redis
    is there to take it: with Redis gone the wait would be for nothing."""

    async def scenario() -> None:
        quick = hub(redis_server.url)
        await quick.start()
        loop = asyncio.get_running_loop()
        redis_server.pause()
        try:
            quick.publish("room", {"n": "into the silence"})  # the sender waits for an answer
            await until(lambda: not quick.connected)
            began = loop.time()
            await quick.close()
            assert loop.time() - began < 0.8
        finally:
            redis_server.resume()

    asyncio.run(scenario())


def test_a_failing_subscriber_stops_neither_the_others_nor_the_listening(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    heard: list[Any] = []

    def broken(message: dict[str, Any]) -> None:
        raise RuntimeError("a broken subscriber")

    async def scenario(first: RedisHub, second: RedisHub) -> None:
        second.subscribe("room", broken)
        second.subscribe("room", heard.append)
        await second.settled()
        first.publish("room", {"n": 1})
        first.publish("room", {"n": 2})
        await until(lambda: len(heard) == 2)
        assert second.connected

    asyncio.run(both(redis_server.url, scenario))
    assert heard == [{"n": 1}, {"n": 2}]
    assert sum("a subscriber of 'room' failed" in record.getMessage() for record in caplog.records) == 2


def test_a_full_queue_drops_new_messages_and_says_so_once(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    heard: list[Any] = []

    async def scenario() -> None:
        small = RedisHub(redis_server.url, "test:", queue_limit=3)
        listener = hub(redis_server.url)
        await small.start()
        await listener.start()
        try:
            listener.subscribe("room", lambda message: heard.append(message["n"]))
            await listener.settled()
            for n in range(10):  # no await between them: the sender cannot run
                small.publish("room", {"n": n})
            assert small.dropped == 7
            await until(lambda: len(heard) == 3)
            small.publish("room", {"n": "later"})  # the queue drained: accepted again
            await until(lambda: len(heard) == 4)
        finally:
            await small.close()
            await listener.close()

    asyncio.run(scenario())
    assert heard == [0, 1, 2, "later"]
    assert sum("too slow" in record.getMessage() for record in caplog.records) == 1
