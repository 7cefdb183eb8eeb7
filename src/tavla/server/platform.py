"""Everything one server process holds, made once at start-up and shared by requests."""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from tavla.ledger.service import Ledger
from tavla.realtime.hub import Hub
from tavla.server.analysis import Analyses
from tavla.server.events import Events
from tavla.server.limits import Limits
from tavla.server.live.bots import BotChooser
from tavla.server.live.leases import Leases, new_node_id
from tavla.server.live.room import Room
from tavla.server.live.rooms import Rooms
from tavla.server.live.thinking import BotThinking, default_processes
from tavla.server.lobby import DIRTY_TOPIC, Lobby
from tavla.server.relay import Relay
from tavla.server.rollouts import Rollouts, site_settings
from tavla.server.security import Passwords
from tavla.server.settings import Settings
from tavla.server.stakes import tournaments as tournament_money
from tavla.server.stakes.games import StakedGames
from tavla.server.tournaments.director import Director
from tavla.storage.database import migrate, open_engine, sessions

log = logging.getLogger(__name__)

LOBBY_CHANGES_EVERY_S = 0.25


@dataclass
class Platform:
    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    hub: Hub
    rooms: Rooms
    lobby: Lobby
    limits: Limits
    tournaments: Director
    staked: StakedGames
    passwords: Passwords
    """Hashes and checks the accounts' passwords at the site's cost."""
    thinking: BotThinking = field(init=False)
    """Where the bots' engines run (worker processes, started on the first bot's turn)."""
    relay: Relay = field(init=False)
    """Carries the games' traffic to and from the other processes (one process: unused)."""
    analyses: Analyses = field(init=False)
    """The finished games' reviews this process made (the archive's analysis)."""
    rollouts: Rollouts = field(init=False)
    """The rollouts of finished games' marked turns (stored: every process sees them)."""
    ready: bool = False
    _catching_up: asyncio.Task[None] | None = None
    _lobby_dirty: bool = False
    handlers: set[asyncio.Task[None]] = field(default_factory=set)
    """The websocket handlers running now: stopping waits for them before closing the database."""

    @classmethod
    def build(cls, settings: Settings) -> Platform:
        engine = open_engine(settings.database_url)
        maker = sessions(engine)
        hub = Hub()
        if settings.redis_url:
            from tavla.realtime.redis_hub import RedisHub  # only a site of several processes needs redis

            hub = RedisHub(settings.redis_url, settings.redis_prefix)
        # One process owns every game at once; several share them through leases.
        leases = Leases(engine, node=new_node_id(), lease_ms=settings.lease_ms, exclusive=not hub.distributed)
        rooms = Rooms(maker, one_writer=engine.dialect.name == "sqlite", events=Events(), leases=leases)
        staked = StakedGames(Ledger(maker), maker)
        lobby = Lobby(maker, rooms, hub, staked)
        platform = cls(
            settings,
            engine,
            maker,
            hub,
            rooms,
            lobby,
            Limits(settings),
            Director(maker, rooms),
            staked,
            Passwords(
                settings.password_time_cost, settings.password_memory_kib, settings.password_hashes_at_once
            ),
        )
        # The tournaments hear of finished games; the rooms never import them.
        rooms.events.on_game_finished(platform.tournaments.game_finished)
        rooms.events.on_game_finished(staked.game_finished)
        platform.tournaments.on_finished.append(
            lambda tournament_id: tournament_money.pay_prizes(staked.ledger, maker, tournament_id)
        )
        processes = settings.bot_processes
        platform.thinking = BotThinking(default_processes() if processes is None else processes)
        chooser = BotChooser(settings.bot_movetime_ms, platform.thinking)
        platform.analyses = Analyses(platform.thinking)
        rollout_settings = functools.partial(
            site_settings, trials=settings.rollout_trials, truncate=settings.rollout_truncate
        )
        platform.rollouts = Rollouts(maker, platform.thinking, platform.analyses, rollout_settings)

        platform.relay = relay = Relay(platform, hub, leases.node, settings.lease_ms)
        rooms.forward = relay.call
        rooms.on_lost.append(relay.let_go)

        def configure(room: Room) -> None:
            room.bot_chooser = chooser
            room.bot_delay_ms = settings.bot_delay_ms
            room.on_change.append(platform._room_changed)
            relay.owned(room)

        rooms.configure = configure
        return platform

    async def catch_up(self) -> None:
        """Record, settle and pay what finished games left undone: their owner stopped or
        died between storing a game's end and its consequences. Each step happens once
        however many processes run it (the ledger's and the boards' own guards)."""
        await self.tournaments.catch_up()
        await self.staked.catch_up()
        await tournament_money.pay_finished(self.staked.ledger, self.sessions)

    async def _catch_up_for_ever(self) -> None:
        # At start-up only would leave a dead owner's last results to the next restart.
        while True:
            await asyncio.sleep(2 * self.settings.lease_ms / 1000)
            try:
                await self.catch_up()
            except Exception:
                log.exception("catching up on finished games failed; trying again")

    def _room_changed(self, room: Room) -> None:
        # The lobby lists live games and their scores: it changes when a game does. Its
        # readers redraw at most four times a second, so the changes of all the rooms of
        # a quarter of a second travel as one message (through Redis: one per process,
        # not one per move).
        if self._lobby_dirty:
            return
        self._lobby_dirty = True
        asyncio.get_running_loop().call_later(LOBBY_CHANGES_EVERY_S, self._tell_lobby)

    def _tell_lobby(self) -> None:
        self._lobby_dirty = False
        self.hub.publish(DIRTY_TOPIC, {})

    async def start(self) -> None:
        # First: loading the live games already publishes their changes.
        await self.hub.start()
        try:
            await migrate(self.engine)
            self.relay.start()
            await self.rooms.load_live()
            await self.catch_up()
        except BaseException:
            await self.relay.stop()
            await self.hub.close()  # a start that failed leaves no connection behind
            raise
        self.rooms.start()
        self._catching_up = asyncio.create_task(self._catch_up_for_ever())
        # What start-up made (modules, rules tables) lives as long as the process: the
        # collector need not walk it again, and collects less often among many rooms,
        # whose pauses showed in the slowest answers (benchmarks/server_load.py).
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)
        self.ready = True

    async def stop(self) -> None:
        self.ready = False
        if self._catching_up is not None:
            self._catching_up.cancel()
            await asyncio.gather(self._catching_up, return_exceptions=True)
        await self.rooms.stop()
        # A handler still storing a player's departure must finish before the
        # database goes: a connection cut in mid-write would never close.
        running = [task for task in self.handlers if not task.done()]
        if running:
            await asyncio.wait(running, timeout=5)
        from tavla.server.gameplay import finish_running

        await finish_running()
        await self.rooms.events.settle()
        await self.rollouts.stop()
        await self.relay.stop()
        await self.hub.close()
        await self.thinking.aclose()
        await self.limits.close()
        await self.engine.dispose()
