"""The archive's rollouts: a finished game's marked turns checked as ``tavla analyze
--rollout`` checks them (docs/analysis.md, docs/API.md).

A rollout takes from half a minute to several minutes a game, so a visitor asks for it
and follows it: the run is a row of ``analysis_rollouts`` that every server process
reads, and the process that started it writes each turn's result as it comes. A turn
is rolled out a few trials a call to the bots' workers (a second or two), so the bots'
moves go between the parts; a process runs one game's rollout at a time, the others
waiting their turn.

The run holds a random token and renews its heartbeat after every part (and while it
waits its turn). A process that dies leaves a heartbeat that stops: the next request
for that game takes the run over under a new token, and a run that lost its token
stops at its next write. A finished rollout is kept for good, as the record is.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tavla.analysis.checker import MoveReview, RolledLoss
from tavla.analysis.rollouts import default_settings, loss_of, marked_turns, trial_differences
from tavla.bots.network import Network
from tavla.bots.rollout import Roller, RolloutSettings
from tavla.core.definition import GameDefinition
from tavla.match.record import MatchRecord
from tavla.server.analysis import Analyses, check_analysable
from tavla.server.errors import ApiError
from tavla.server.i18n import N_
from tavla.server.live.leases import wall_ms
from tavla.server.live.thinking import BotThinking
from tavla.storage.models import AnalysisRollout

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

STALE_MS = 60_000
"""A run whose heartbeat is older than this is taken to have died with its process: a
part takes a second or two, and a waiting run renews it too."""
WAITING = 8
"""Rollouts one process holds at once, running or waiting; more are refused (503)."""


SITE_SETTINGS = {"chelebi": RolloutSettings(trials=144, truncate=10, variance_reduction=False)}
"""Where the site rolls out otherwise than ``tavla analyze --rollout``: a chelebi turn
with the luck taken out holds a worker for about half a minute, during which a bot on
that worker waits; 144 plain trials take about 7 s, for a like error per second of CPU
(docs/analysis.md)."""


def site_settings(game: str, trials: int | None = None, truncate: int | None = None) -> RolloutSettings:
    """How the site rolls out ``game``'s marked turns: its default, with the site's
    ``trials`` and ``truncate`` where they are set (``TAVLA_ROLLOUT_TRIALS``, ...)."""
    chosen = SITE_SETTINGS.get(game) or default_settings(game)
    if trials is not None:
        chosen = replace(chosen, trials=trials)
    if truncate is not None:
        chosen = replace(chosen, truncate=truncate)
    return chosen


@functools.cache
def _roller(game: str) -> Roller:
    return Roller(Network.shipped(game))


def trials_a_call(settings: RolloutSettings) -> int:
    """Trials of one turn played in one call to the workers: a second or a few, while a
    bot's move waits for the call. A trial with the luck taken out looks at all 21 rolls
    at every turn, several times a plain one's cost. Measured
    (benchmarks/analysis_rollouts.py ``--part``, docs/analysis.md): the longest 4
    reduced trials took 1.1 s in tabla and tapa, the longest 12 plain ones 3.6 s in
    chelebi and 7.6 s in gulbara, hence 6 of those."""
    return 4 if settings.variance_reduction else 6


def roll_out_trials(
    game: str, definition: GameDefinition, review: MoveReview, settings: RolloutSettings, chosen: range
) -> np.ndarray:
    """The ``chosen`` trials of a marked turn and the bot's best, rolled out by
    ``game``'s shipped network (``definition``: the game under the match's options):
    what a worker runs. Part by part they make the whole rollout's trials."""
    return trial_differences(_roller(game), definition, review, settings, chosen)


def settings_json(settings: RolloutSettings) -> dict[str, Any]:
    return {
        "trials": settings.trials,
        "truncate": settings.truncate,
        "variance_reduction": settings.variance_reduction,
    }


def status_json(row: AnalysisRollout | None) -> dict[str, Any] | None:
    """A run as the API tells it: ``{"state", "done", "total", "settings"}``; None when
    nobody asked for one."""
    if row is None:
        return None
    return {"state": row.state, "done": row.done, "total": row.total, "settings": row.settings}


def results_of(row: AnalysisRollout | None) -> dict[int, RolledLoss]:
    """The turns a finished run rolled out, by action index; none before it is done."""
    if row is None or row.state != "done":
        return {}
    label = RolloutSettings(
        trials=row.settings["trials"],
        truncate=row.settings["truncate"],
        variance_reduction=row.settings["variance_reduction"],
    ).label
    return {
        int(result["action"]): RolledLoss(
            float(result["loss"]), float(result["error"]), int(result["trials"]), label
        )
        for result in row.results
    }


@dataclass(frozen=True)
class _Run:
    game_id: str
    token: str
    record: MatchRecord
    settings: RolloutSettings


class Rollouts:
    """The rollouts this process runs, and the reading of everybody's."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        thinking: BotThinking,
        analyses: Analyses,
        settings_for: Callable[[str], RolloutSettings] = site_settings,
        clock: Callable[[], int] = wall_ms,
    ) -> None:
        self._sessions = sessions
        self._thinking = thinking
        self._analyses = analyses
        self._settings_for = settings_for
        self._clock = clock
        self._turn = asyncio.Lock()
        self._runs: dict[str, asyncio.Task[None]] = {}

    async def row(self, game_id: str) -> AnalysisRollout | None:
        async with self._sessions() as db:
            return await db.get(AnalysisRollout, game_id)

    async def start(
        self, game_id: str, finished: bool, record: MatchRecord, user_id: int
    ) -> dict[str, Any] | None:
        """Starts the rollout of the game's marked turns unless one is done or running;
        answers its state. Raises :class:`ApiError` 409 for a game that is not over or
        that no bot reviews, 503 while this process holds :data:`WAITING` runs."""
        check_analysable(finished, record.settings.game)
        settings = self._settings_for(record.settings.game)
        now = self._clock()
        async with self._sessions() as db:
            row = await db.get(AnalysisRollout, game_id)
            if row is not None and (
                row.state == "done" or (row.state == "running" and now - row.heartbeat_ms < STALE_MS)
            ):
                return status_json(row)
            if game_id in self._runs:  # this process holds it (a long wait can look stale)
                return status_json(row)
            if len(self._runs) >= WAITING:
                raise ApiError(503, "busy", N_("the bots are busy with other rollouts: try again later"))
            token = secrets.token_hex(16)
            fresh: dict[str, Any] = {
                "state": "running",
                "token": token,
                "settings": settings_json(settings),
                "done": 0,
                "total": None,
                "results": [],
                "requested_by": user_id,
                "created_ms": now,
                "heartbeat_ms": now,
                "finished_ms": None,
            }
            if row is not None and row.settings == fresh["settings"]:
                # A run cut short goes on from its last turn: the same turns rolled out
                # with the same settings meet the same dice, so nothing changes.
                fresh.update(done=row.done, total=row.total, results=row.results, created_ms=row.created_ms)
            if row is None:
                db.add(AnalysisRollout(game_id=game_id, **fresh))
                try:
                    await db.commit()
                except IntegrityError:  # another process started it a moment ago
                    await db.rollback()
                    return status_json(await db.get(AnalysisRollout, game_id, populate_existing=True))
            else:
                # Taken over only from the run that was read: two processes that both
                # found it stale cannot both win.
                taken = await db.execute(
                    update(AnalysisRollout)
                    .where(AnalysisRollout.game_id == game_id, AnalysisRollout.token == row.token)
                    .values(**fresh)
                )
                await db.commit()
                if taken.rowcount != 1:  # type: ignore[attr-defined]
                    return status_json(await db.get(AnalysisRollout, game_id, populate_existing=True))
        run = _Run(game_id, token, record, settings)
        self._runs[game_id] = asyncio.create_task(self._run(run), name=f"rollout {game_id}")
        return status_json(await self.row(game_id))

    async def _write(self, run: _Run, **values: Any) -> bool:
        """Stores ``values`` and a new heartbeat if ``run`` still holds its token."""
        async with self._sessions() as db:
            written = await db.execute(
                update(AnalysisRollout)
                .where(AnalysisRollout.game_id == run.game_id, AnalysisRollout.token == run.token)
                .values(heartbeat_ms=self._clock(), **values)
            )
            await db.commit()
        if written.rowcount != 1:  # type: ignore[attr-defined]
            log.info("the rollout of %s was taken over; this process stops it", run.game_id)
            return False
        return True

    async def _wait_turn(self, run: _Run) -> bool:
        """Waits for this process's other rollouts, keeping the heartbeat alive."""
        while True:
            try:
                await asyncio.wait_for(self._turn.acquire(), timeout=STALE_MS / 3000)
                return True
            except TimeoutError:
                if not await self._write(run):
                    return False

    async def _run(self, run: _Run) -> None:
        try:
            if not await self._wait_turn(run):
                return
            try:
                await self._roll_out(run)
            finally:
                self._turn.release()
        except asyncio.CancelledError:
            raise  # the server stops: the heartbeat stops too, and a later request resumes it
        except Exception:
            log.exception("the rollout of %s failed", run.game_id)
            await self._write(run, state="failed")
        finally:
            self._runs.pop(run.game_id, None)

    async def _roll_out(self, run: _Run) -> None:
        analysis = await self._analyses.analysis(run.game_id, run.record)
        turns = marked_turns(analysis)
        if not await self._write(run, total=len(turns)):
            return
        row = await self.row(run.game_id)
        results: list[dict[str, Any]] = [] if row is None else list(row.results)
        rolled_already = {result["action"] for result in results}
        game, definition = run.record.settings.game, run.record.settings.definition
        for review in turns:
            if review.action_index in rolled_already:
                continue
            parts: list[np.ndarray] = []
            step = trials_a_call(run.settings)
            for first in range(0, run.settings.trials, step):
                chosen = range(first, min(first + step, run.settings.trials))
                parts.append(
                    await self._thinking.run(roll_out_trials, game, definition, review, run.settings, chosen)
                )
                if not await self._write(run):
                    return
            rolled = loss_of(parts, run.settings)
            results.append(
                {
                    "action": review.action_index,
                    "loss": rolled.loss,
                    "error": rolled.error,
                    "trials": rolled.trials,
                }
            )
            if not await self._write(run, done=len(results), results=list(results)):
                return
        await self._write(run, state="done", finished_ms=self._clock())

    async def stop(self) -> None:
        """Cancels this process's runs (their rows are resumed by a later request)."""
        runs = list(self._runs.values())
        for task in runs:
            task.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
