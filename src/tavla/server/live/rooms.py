"""The rooms of this process: created for new games, taken over from the database.

A process holds only the games whose lease it holds (leases.py): it creates them, or
takes them over when their owner stopped, and stores their changes under the lease's
fence (gamerows.py). It renews its leases, lets go of a game whose lease went to
another, and finds the process that owns a game it does not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable

from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from tavla.match.actions import ActionKind, MatchAction
from tavla.match.settings import MatchSettings
from tavla.match.state import new_state
from tavla.server.events import Events, GameFinished
from tavla.server.i18n import N_
from tavla.server.live.basics import Refused, SeatInfo
from tavla.server.live.changes import Change
from tavla.server.live.dicefeed import DiceFeed, new_chain_end
from tavla.server.live.gamerows import GameRows, new_game_row, read_room
from tavla.server.live.leases import Holder, LeaseLost, Leases, new_node_id, wall_ms
from tavla.server.live.officials import OFFICIALS_ACTIONS, Forward, Outcome, officiate
from tavla.server.live.room import Room
from tavla.storage.models import LiveGame

log = logging.getLogger(__name__)
_JITTER = random.Random()
"""Spreads the lease sweeps of processes that started together; its own generator, so
that the server never moves the random state of the process it runs in."""


def new_game_id() -> str:
    return secrets.token_urlsafe(9)[:12]


class Rooms:
    """Every live game this process owns, by id."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        *,
        one_writer: bool = False,
        events: Events | None = None,
        leases: Leases | None = None,
    ) -> None:
        self.sessions = sessions
        self.events = events or Events()
        """Told when a game finishes (the tournaments listen; the rooms know nothing of them)."""
        engine = sessions.kw["bind"]
        if not isinstance(engine, AsyncEngine):
            raise TypeError("the rooms' sessions must be bound to an asynchronous engine")
        self.engine = engine
        self.rows = GameRows(engine)
        """Where the games' changes are stored."""
        self._writes = asyncio.Lock() if one_writer else None
        """SQLite takes one writer at a time: the rooms queue here, in turn, instead of
        in SQLite's busy handler, whose growing sleeps starve some writers for seconds."""
        self.rooms: dict[str, Room] = {}
        self.configure: Callable[[Room], None] = lambda room: None
        """Called on every room made or loaded (bots, listeners)."""
        self.leases = leases or Leases(engine, node=new_node_id(), lease_ms=5000, exclusive=True)
        self.on_lost: list[Callable[[Room], None]] = []
        """Told of a room this process let go of (another owns its game now, or it stops)."""
        self.forward: Forward | None = None
        """How an official's action reaches a game another process owns (relay.py)."""
        self._keeper: asyncio.Task[None] | None = None
        self._taking: dict[str, asyncio.Future[Room | None]] = {}
        self._doubtful: set[str] = set()
        """Games whose room this process let go of, unsure what was stored: it still holds
        their leases, so nobody else takes them; it builds their rooms again itself."""

    # ---------------------------------------------------------------- storage
    async def save(self, room: Room, change: Change) -> None:
        # The room adopts the change after it is stored: its state is still the one before.
        finishing = change.state.over and not room.state.over
        try:
            if self._writes is None:
                await self.rows.store(room, change)
            else:
                async with self._writes:
                    await self.rows.store(room, change)
        except LeaseLost:
            log.warning("game %s: another process owns it now; this one lets it go", room.game_id)
            # After the caller told its player that nothing was stored.
            asyncio.get_running_loop().call_soon(self._let_go, room)
            raise
        except DBAPIError as error:
            if error.connection_invalidated:
                # The connection broke in mid-transaction: the change may be stored or not.
                # The room would guess; it is built again from what the database holds.
                log.warning("game %s: unsure what was stored; the room is built again", room.game_id)
                self._doubtful.add(room.game_id)
                asyncio.get_running_loop().call_soon(self._let_go, room)
            raise
        if finishing:
            state = change.state
            score = (state.score[0], state.score[1])
            self.events.game_finished(GameFinished(room.game_id, room.federation_id, state.winner, score))

    # ---------------------------------------------------------------- rooms
    async def create(
        self,
        settings: MatchSettings,
        seats: tuple[SeatInfo, SeatInfo],
        *,
        spectators: bool = True,
        chat_on: tuple[bool, bool] = (True, True),
        client_seeds: tuple[str, str] = ("", ""),
        rematch_of: str | None = None,
        seed_chain_end: str | None = None,
        federation_id: int | None = None,
        game_id: str | None = None,
        await_players: bool = False,
    ) -> Room:
        """Create and store a new game, and begin its first game at once, or, with
        ``await_players`` (a tournament's game), when both players have come: until
        then the no-show procedure runs (RULES.md 11.4; a bot's seat comes at once)."""
        game_id = game_id or new_game_id()
        no_show_from = 0 if await_players else None
        arrived = tuple(0 if await_players and seat.bot is not None else None for seat in seats)
        chain_end = seed_chain_end or new_chain_end()
        room = Room(
            game_id,
            settings,
            seats,
            new_state(settings),
            [],
            DiceFeed(client_seeds, [], chain_end),
            save=self.save,
            spectators=spectators,
            chat_on=chat_on,
            federation_id=federation_id,
            no_show_from_ms=no_show_from,
            arrived=(arrived[0], arrived[1]),
            fence=1,
        )
        values = new_game_row(room, client_seeds=client_seeds, chain_end=chain_end, rematch_of=rematch_of)
        values.update(self.leases.new_game_values())
        if room.awaiting_players and None in arrived:
            await self.rows.insert(values)
            self.rooms[game_id] = room
            self.configure(room)
            room.schedule()
            return room
        self.configure(room)
        # The game's row is stored with its first change, in one transaction: a game
        # whose start failed leaves nothing behind (no live game that nobody plays).
        # Its room joins the others once stored, so a renewal meanwhile misses nothing.
        try:
            with self.rows.first_change_inserts(game_id, values):
                async with room.lock:
                    change = Change(state=room.state)
                    room._apply(change, MatchAction(ActionKind.START, None, "", room.now()))
                    room._advance(change)
                    await room._commit(change)
        except BaseException:
            await self._unmake(room)
            raise
        self.rooms[game_id] = room
        return room

    async def _unmake(self, room: Room) -> None:
        """Forget a new game whose first store failed. A broken connection leaves it
        unsure whether the commit went through: its rows go too (nobody has seen the
        game); if the database cannot even do that, the game is in doubt like any other
        (save) and this process builds its room again from what was stored."""
        self._let_go(room)
        with contextlib.suppress(Exception):
            await self.rows.delete(room.game_id)

    async def get(self, game_id: str) -> Room | None:
        """The game's room in this process, taking the game over if nobody holds it;
        None when the game is not live or another process owns it."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        # Two connections to a game not loaded yet take it over once, together.
        taking = self._taking.get(game_id)
        if taking is None:
            taking = self._taking[game_id] = asyncio.ensure_future(self._take(game_id))
            taking.add_done_callback(lambda _: self._taking.pop(game_id, None))
        return await asyncio.shield(taking)

    async def _take(self, game_id: str) -> Room | None:
        fence = await self.leases.claim(game_id)
        if fence is None:
            return None
        async with self.sessions() as db:
            row = await db.get(LiveGame, game_id)
            if row is None or row.status != "live":
                return None
            room = await read_room(db, row, save=self.save)
        room.fence = fence
        self.rooms[game_id] = room
        self.configure(room)
        room.schedule()
        log.info("game %s: taken over (fence %d)", game_id, fence)
        return room

    async def final(self, game_id: str) -> Room | None:
        """A finished game's room, rebuilt from its record to be shown (to a player who
        reconnects after the end, on any process); it acts and stores nothing."""
        async with self.sessions() as db:
            row = await db.get(LiveGame, game_id)
            if row is None or row.status != "finished":
                return None
            room = await read_room(db, row, save=self.save)
        room.close()
        return room

    async def owner_of(self, game_id: str) -> str | None:
        """The process that holds a live game elsewhere (its node), as the database says;
        None when nobody else holds it or it is not live. It reads and claims nothing:
        only :meth:`get` takes a game over."""
        return self._elsewhere((await self.leases.holders([game_id])).get(game_id))

    def _elsewhere(self, holder: Holder | None) -> str | None:
        if self.leases.exclusive or holder is None or holder.owner in (None, self.leases.node):
            return None  # (the only process: nobody else holds anything)
        if holder.lease_until_ms is None or holder.lease_until_ms < wall_ms():
            return None  # run out: its owner stopped or died
        return holder.owner

    async def locate(self, game_id: str) -> tuple[Room | None, str | None]:
        """A live game's room in this process (taken over if nobody holds it), else the
        process that owns it; (None, None) when it is not live. An owner that lets go of
        the game between the claim and the look is followed by one more claim, so a live
        game nobody holds is never reported as gone."""
        for _ in range(2):
            room = await self.get(game_id)
            if room is not None:
                return room, None
            holder = (await self.leases.holders([game_id])).get(game_id)
            if holder is None:
                return None, None  # not live (finished, or no such game)
            owner = self._elsewhere(holder)
            if owner is not None:
                return None, owner
        return None, None

    async def load_live(self) -> int:
        """Take over every live game nobody holds (at start-up, and every few seconds
        after: their owner stopped or died); the number taken."""
        taken = 0
        for game_id in await self.leases.unowned():
            if game_id not in self.rooms and await self.get(game_id) is not None:
                taken += 1
        return taken

    # ---------------------------------------------------------------- leases
    async def keep_leases(self) -> None:
        """Renew this process's leases and take over the games nobody holds, for ever."""
        pause_s = self.leases.lease_ms / 3000
        while True:
            # Processes that started together do not sweep in step.
            await asyncio.sleep(pause_s * _JITTER.uniform(0.8, 1.0))
            try:
                await self.renew()
                await self.load_live()
            except Exception:
                log.exception("the leases could not be renewed; trying again")

    async def renew(self) -> None:
        # Only the rooms there before the renewal are judged by it: a game made or taken
        # while the statement ran may be missing from what it saw, and is not lost.
        before = list(self.rooms.items())
        held = await self.leases.renew()
        for game_id, room in before:
            if room.over or room.closed or held.get(game_id) == room.fence:
                continue
            if game_id not in held and room.lock.locked():
                # A change in flight may have just finished the game: stored as over (so
                # no longer renewed) but not adopted yet. The next renewal judges it.
                continue
            log.warning("game %s: its lease went to another process; this one lets it go", game_id)
            self._let_go(room)
        for game_id in list(self._doubtful):
            if game_id in self.rooms or game_id not in held or await self.get(game_id) is not None:
                self._doubtful.discard(game_id)

    def start(self) -> None:
        self._keeper = asyncio.create_task(self.keep_leases())

    def _let_go(self, room: Room) -> None:
        if self.rooms.get(room.game_id) is room:
            del self.rooms[room.game_id]
        room.close()
        for listener in self.on_lost:
            listener(room)

    async def discard(self, room: Room) -> None:
        """Forget a game nobody is to play (one made twice by a race between processes,
        before anybody saw it): its room here, and its rows."""
        self._let_go(room)
        await self.rows.delete(room.game_id)

    # ---------------------------------------------------------------- officials
    async def officiate(
        self, game_id: str, action: str, seat: object = None, note: object = ""
    ) -> Outcome | None:
        """An official's action (``warn``, ``forfeit``, ``close_chat``), authorised by the
        caller, on the game wherever its room runs; None when the game is not live.
        Raises :class:`Refused` as the room does."""
        if action not in OFFICIALS_ACTIONS:
            raise ValueError(f"unknown official's action {action!r}")
        room, owner = await self.locate(game_id)
        if room is not None:
            await officiate(room, action, seat, note)
            return Outcome.of(room)
        if owner is None:
            return None
        if self.forward is None:
            raise Refused("unavailable", N_("the server that runs this game cannot be reached; try again"))
        return await self.forward(game_id, owner, action, seat, note)

    async def stop(self) -> None:
        """Close every room and let go of the leases, so another process takes the games
        over at once rather than when the leases run out."""
        if self._keeper is not None:
            self._keeper.cancel()
            await asyncio.gather(self._keeper, return_exceptions=True)
        fences = {game_id: room.fence for game_id, room in self.rooms.items() if not room.over}
        self.close()
        with contextlib.suppress(Exception):  # a database already gone keeps the leases till they run out
            await self.leases.release(fences)

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
