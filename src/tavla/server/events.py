"""Typed events one domain of the server announces and others react to (ARCHITECTURE.md).

The live layer announces that a game finished; the tournaments record its result. The
live layer knows nothing of tournaments: it only calls the handlers given here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameFinished:
    """A live game (a match) has ended and is stored as finished.

    ``winner`` is the winning seat (None: no winner), ``score`` the points or, in
    Abluka, the sets each seat won."""

    game_id: str
    federation_id: int | None
    winner: int | None
    score: tuple[int, int]


GameFinishedHandler = Callable[[GameFinished], Awaitable[None]]


class Events:
    """Hands each event to its handlers, each in a task of its own: the room that
    finished is not held up by what others do with its result, and one handler's
    failure is logged without stopping the others."""

    def __init__(self) -> None:
        self._game_finished: list[GameFinishedHandler] = []
        self._running: set[asyncio.Task[None]] = set()

    def on_game_finished(self, handler: GameFinishedHandler) -> None:
        self._game_finished.append(handler)

    def game_finished(self, event: GameFinished) -> None:
        for handler in self._game_finished:
            task = asyncio.ensure_future(self._run(handler, event))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    @staticmethod
    async def _run(handler: GameFinishedHandler, event: GameFinished) -> None:
        try:
            await handler(event)
        except Exception:
            log.exception("a handler of %s failed", event)

    async def settle(self, timeout_s: float = 5.0) -> None:
        """Wait for the handlers still running (the server is stopping)."""
        if self._running:
            await asyncio.wait(list(self._running), timeout=timeout_s)
