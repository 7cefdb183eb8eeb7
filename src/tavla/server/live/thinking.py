"""Where the server's bots think: worker processes beside the event loop.

A bot's search is Python code that holds the interpreter's lock for as long as it
thinks (up to the bot's movetime). On a thread of the server's own process it slowed
every game the process served, and one thread made the bots of all games wait for
each other (benchmarks/server_load.py ``--bot-games``, docs/deploy.md). Here each
engine call runs in one of ``processes`` worker processes, started on the first
call and at a lower CPU priority than the server, so that people's moves are
answered first when the bots keep every core busy.

Each worker answers one call at a time, so an engine's tables (Abluka's
transposition table) are never shared by two games. The archive's analyses of
finished games (:mod:`tavla.server.analysis`) run in the same workers.
``processes=0`` keeps the former arrangement, one worker thread in the server's
process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the server's (``nice``): a
person's move waits for no bot."""


SERVER_CHECK_S = 1.0
"""How often a worker checks that its server is still there."""


def _start_worker(server_pid: int) -> None:
    # A system that refuses it leaves the worker at the server's priority.
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    threading.Thread(target=_end_with, args=(server_pid,), name="tavla-bot-watch", daemon=True).start()
    import tavla.engine.builtin  # noqa: F401  (the engines register themselves)


def _end_with(server_pid: int) -> None:
    """Ends the worker once its server is gone. A server killed outright (SIGKILL, the
    out-of-memory killer) cannot stop its workers, and they would wait for calls for
    ever: a worker whose parent is no longer the server (it was handed to init) leaves."""
    while os.getppid() == server_pid:
        time.sleep(SERVER_CHECK_S)
    os._exit(0)


def engine_call(method: str, game: str, *args: Any) -> Any:
    """``engine_for(game).method(*args)``: what a worker runs, by name, so that only
    positions and plain data cross between the processes."""
    import tavla.engine.builtin  # noqa: F401
    from tavla.engine.registry import engine_for

    return getattr(engine_for(game), method)(*args)


class BotThinking:
    """Runs engine calls off the event loop: in worker processes, or on one thread."""

    def __init__(self, processes: int) -> None:
        if processes < 0:
            raise ValueError("processes must be 0 (a thread) or more")
        self.processes = processes
        self._executor: Executor | None = None
        self.replaced = 0
        """How many times dead workers' pool was replaced by a new one (logged each time)."""

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.processes == 0:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tavla-bot")
            else:
                # Spawned, not forked: the server's process has threads (the database's,
                # the event loop's helpers) that a fork would copy in mid-step.
                self._executor = ProcessPoolExecutor(
                    self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(os.getpid(),),
                )
        return self._executor

    async def call(self, method: str, game: str, *args: Any) -> Any:
        """``engine_for(game).method(*args)``, run by a worker."""
        return await self.run(engine_call, method, game, *args)

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` run by a worker (a module's function, so that a worker
        process can find it). A worker that dies (killed for memory, say) breaks its
        pool: a new pool is started and the call made once more; a second failure is
        raised."""
        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            return await loop.run_in_executor(pool, function, *args)
        except BrokenProcessPool:
            # Every call the broken pool held lands here: the first replaces the pool,
            # the others use its replacement.
            if self._executor is pool:
                log.warning("a bot worker process died; starting new ones")
                self._discard()
                self.replaced += 1
            return await loop.run_in_executor(self._pool(), function, *args)

    def _discard(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    @property
    def started(self) -> bool:
        return self._executor is not None

    async def aclose(self) -> None:
        """Stops the workers, after the calls they are running (each within its movetime)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


MOST_BY_DEFAULT = 4
"""The most workers a server starts unless told otherwise: each holds its own engines,
about 330 MiB with tapa's tables and the compiled generators (docs/deploy.md)."""


def default_processes() -> int:
    """One worker per core this process may run on, at most ``MOST_BY_DEFAULT``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this system
        cores = os.cpu_count() or 1
    return max(1, min(cores, MOST_BY_DEFAULT))
