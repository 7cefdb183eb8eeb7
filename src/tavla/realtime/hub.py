"""The in-memory hub: topics, subscribers, and messages delivered in order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Subscriber = Callable[[dict[str, Any]], None]


class Hub:
    """Delivers each message published on a topic to the topic's subscribers, at once.

    Subscribers must not block: a websocket subscriber queues the message for its
    own writer task.
    """

    def __init__(self) -> None:
        self._topics: dict[str, list[Subscriber]] = {}
        self.on_reconnect: list[Callable[[], None]] = []
        """Called when the hub came back after losing the other processes: what they
        published meanwhile is lost (never in one process)."""

    async def start(self) -> None:
        """Nothing to connect in one process; a hub between processes connects here."""

    async def close(self) -> None:
        """Nothing to let go of in one process."""

    def subscribe(self, topic: str, subscriber: Subscriber) -> Callable[[], None]:
        """Add ``subscriber``; the returned function removes it."""
        subscribers = self._topics.setdefault(topic, [])
        subscribers.append(subscriber)

        def unsubscribe() -> None:
            if subscriber in subscribers:
                subscribers.remove(subscriber)
            if not subscribers:
                self._topics.pop(topic, None)

        return unsubscribe

    distributed = False
    """Whether a message published here reaches other processes too (RedisHub)."""

    def publish(self, topic: str, message: dict[str, Any]) -> None:
        self._deliver(topic, message)

    def publish_here(self, topic: str, message: dict[str, Any]) -> None:
        """Deliver ``message`` to this process's subscribers only: what each process
        makes for its own connections (the lobby's snapshot)."""
        self._deliver(topic, message)

    def _deliver(self, topic: str, message: dict[str, Any]) -> None:
        for subscriber in list(self._topics.get(topic, ())):
            subscriber(message)

    def subscribers(self, topic: str) -> int:
        return len(self._topics.get(topic, ()))
