"""The rooms of this process: created for new games, rebuilt from the database.

A room is rebuilt from the stored settings and actions exactly as a record is
replayed; the stored steps of a turn in progress, the seeds and the chat follow.
A process holds only the games whose lease it holds (leases.py): it creates them,
or takes them over when their owner stopped, and stores their changes under the
lease's fence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, bindparam, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from tavla.match.actions import ActionKind, MatchAction, apply_action
from tavla.match.settings import MatchSettings
from tavla.match.state import new_state
from tavla.server.events import Events, GameFinished
from tavla.server.i18n import N_
from tavla.server.live.changes import Change, ChatLine
from tavla.server.live.dicefeed import DiceFeed, GameSeed, new_chain_end
from tavla.server.live.leases import Holder, LeaseLost, Leases, new_node_id, wall_ms
from tavla.server.live.room import Book, Refused, Room, SeatInfo
from tavla.storage.models import ChatMessage, GameAction, GameDice, LiveGame, User

ACTIONS = cast(Table, GameAction.__table__)
DICE = cast(Table, GameDice.__table__)
CHAT = cast(Table, ChatMessage.__table__)
GAMES = cast(Table, LiveGame.__table__)
# Statements made once: building one per change cost more than running it.
COUNT_DICE = DICE.update().where(
    DICE.c.game_id == bindparam("b_game"), DICE.c.game_number == bindparam("b_number")
)
# The fence makes the update, and so the whole change, conditional on the lease.
UPDATE_GAME = GAMES.update().where(GAMES.c.id == bindparam("b_id"), GAMES.c.fence == bindparam("b_fence"))
OFFICIALS_ACTIONS = ("warn", "forfeit", "close_chat")

log = logging.getLogger(__name__)


def new_game_id() -> str:
    return secrets.token_urlsafe(9)[:12]


@dataclass(frozen=True)
class Outcome:
    """The match after an official's action, wherever its room runs."""

    over: bool
    winner: int | None
    score: tuple[int, int]
    federation_id: int | None
    warnings: tuple[int, int] = (0, 0)
    forfeit: str | None = None
    """Why the match ended early (``MatchState.forfeit``), or None."""

    @classmethod
    def of(cls, room: Room) -> Outcome:
        state = room.state
        return cls(
            state.over,
            state.winner,
            (state.score[0], state.score[1]),
            room.federation_id,
            (state.warnings[0], state.warnings[1]),
            None if state.forfeit is None else str(state.forfeit),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "over": self.over,
            "winner": self.winner,
            "score": list(self.score),
            "federation_id": self.federation_id,
            "warnings": list(self.warnings),
            "forfeit": self.forfeit,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        score, warnings = data["score"], data["warnings"]
        return cls(
            data["over"],
            data["winner"],
            (score[0], score[1]),
            data["federation_id"],
            (warnings[0], warnings[1]),
            data["forfeit"],
        )


Forward = Callable[[str, str, str, object, object], Awaitable[Outcome]]
"""Runs an official's action in the process that owns the game: (game id, owner, action,
seat, note); raises :class:`Refused` as the room would."""


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
        self._unstored: dict[str, dict[str, Any]] = {}
        """The rows of new games, stored with their first change (create)."""
        self._doubtful: set[str] = set()
        """Games whose room this process let go of, unsure what was stored: it still holds
        their leases, so nobody else takes them; it builds their rooms again itself."""

    # ---------------------------------------------------------------- storage
    async def save(self, room: Room, change: Change) -> None:
        # The room adopts the change after it is stored: its state is still the one before.
        finishing = change.state.over and not room.state.over
        try:
            if self._writes is None:
                await self._store(room, change)
            else:
                async with self._writes:
                    await self._store(room, change)
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

    async def _store(self, room: Room, change: Change) -> None:
        # SQLAlchemy Core on one connection: a change is a handful of statements, and
        # the ORM's unit of work would cost more than they do (benchmarks/server_load.py).
        game_id = room.game_id
        async with self.engine.begin() as connection:
            new_game = self._unstored.get(game_id)
            if new_game is not None:
                await connection.execute(GAMES.insert().values(new_game))
            # The game's row first: its update holds the row (a claim waits for this
            # transaction) and, under another fence, stores nothing and says so.
            await self._update_game(connection, room, change)
            if change.actions:
                first = len(room.actions)
                await connection.execute(
                    ACTIONS.insert(),
                    [
                        {
                            "game_id": game_id,
                            "index": first + offset,
                            "kind": str(action.kind),
                            "seat": action.seat,
                            "value": action.value,
                            "t_ms": action.t_ms,
                        }
                        for offset, action in enumerate(change.actions)
                    ],
                )
            if change.new_dice:
                await connection.execute(
                    DICE.insert(),
                    [
                        {
                            "game_id": game_id,
                            "game_number": new.game_number,
                            "server_seed": new.server_seed,
                            "commitment": new.commitment,
                            "client_seed": new.client_seed,
                            "dice_drawn": 0,
                            "revealed": False,
                        }
                        for new in change.new_dice
                    ],
                )
            if change.dice_drawn is not None:
                await connection.execute(
                    COUNT_DICE,
                    {
                        "b_game": game_id,
                        "b_number": change.state.game_number,
                        "dice_drawn": change.dice_drawn,
                    },
                )
            if change.reveal:
                await connection.execute(
                    DICE.update()
                    .where(DICE.c.game_id == game_id, DICE.c.game_number.in_(change.reveal))
                    .values(revealed=True)
                )
            if change.chat is not None:
                await connection.execute(
                    CHAT.insert().values(
                        game_id=game_id,
                        index=len(room.chat),
                        seat=change.chat.seat,
                        text=change.chat.text,
                        t_ms=change.chat.t_ms,
                    )
                )

    @staticmethod
    async def _update_game(connection: Any, room: Room, change: Change) -> None:
        state = change.state
        values: dict[str, Any] = {
            "version": room.book.version,
            "last_seq0": room.book.last_seq[0],
            "last_seq1": room.book.last_seq[1],
            "last_ack0": room.book.last_ack[0],
            "last_ack1": room.book.last_ack[1],
            "pending_steps": change.pending_steps,
            "score": list(state.score),
            "clock_ms": change.clock_ms,
            "stored_wall_ms": wall_ms(),
        }
        if change.close_chat:
            values["chat_closed"] = True
        if change.arrived is not None:
            values["arrived0_ms"], values["arrived1_ms"] = change.arrived
        if state.over:
            values.update(status="finished", winner=state.winner, finished_ms=values["stored_wall_ms"])
        result = await connection.execute(
            UPDATE_GAME, {"b_id": room.game_id, "b_fence": room.fence, **values}
        )
        if result.rowcount != 1:
            raise LeaseLost(f"game {room.game_id} has another owner now")

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
        values: dict[str, Any] = {
            "id": game_id,
            "settings": settings.to_json(),
            "seat0_user_id": seats[0].user_id,
            "seat1_user_id": seats[1].user_id,
            "seat0_bot": seats[0].bot,
            "seat1_bot": seats[1].bot,
            "spectators": spectators,
            "chat0": chat_on[0],
            "chat1": chat_on[1],
            "seed_chain_end": chain_end,
            "client_seed0": client_seeds[0],
            "client_seed1": client_seeds[1],
            "status": "live",
            "version": 0,
            "pending_steps": [],
            "score": [0, 0],
            "created_ms": wall_ms(),
            "rematch_of": rematch_of,
            "federation_id": federation_id,
            "clock_ms": 0,
            "no_show_from_ms": no_show_from,
            "arrived0_ms": arrived[0],
            "arrived1_ms": arrived[1],
            **self.leases.new_game_values(),
        }
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
        if room.awaiting_players and None in arrived:
            async with self.engine.begin() as connection:
                await connection.execute(GAMES.insert().values(values))
            self.rooms[game_id] = room
            self.configure(room)
            room.schedule()
            return room
        self.configure(room)
        # The game's row is stored with its first change, in one transaction: a game
        # whose start failed leaves nothing behind (no live game that nobody plays).
        # Its room joins the others once stored, so a renewal meanwhile misses nothing.
        self._unstored[game_id] = values
        try:
            async with room.lock:
                change = Change(state=room.state)
                room._apply(change, MatchAction(ActionKind.START, None, "", room.now()))
                room._advance(change)
                await room._commit(change)
        except BaseException:
            await self._unmake(room)
            raise
        finally:
            self._unstored.pop(game_id, None)
        self.rooms[game_id] = room
        return room

    async def _unmake(self, room: Room) -> None:
        """Forget a new game whose first store failed. A broken connection leaves it
        unsure whether the commit went through: its rows go too (nobody has seen the
        game); if the database cannot even do that, the game is in doubt like any other
        (save) and this process builds its room again from what was stored."""
        self._let_go(room)
        with contextlib.suppress(Exception):
            await self._delete_rows(room.game_id)

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
            room = await self._rebuild(db, row)
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
            room = await self._rebuild(db, row)
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
            await asyncio.sleep(pause_s * random.uniform(0.8, 1.0))
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
            if not room.over and not room.closed and held.get(game_id) != room.fence:
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
        await self._delete_rows(room.game_id)

    async def _delete_rows(self, game_id: str) -> None:
        async with self.engine.begin() as connection:
            for table in (ACTIONS, DICE, CHAT):
                await connection.execute(table.delete().where(table.c.game_id == game_id))
            await connection.execute(GAMES.delete().where(GAMES.c.id == game_id))

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

    async def _rebuild(self, db: AsyncSession, row: LiveGame) -> Room:
        settings = MatchSettings.from_json(row.settings)
        stored = list(
            await db.scalars(
                select(GameAction).where(GameAction.game_id == row.id).order_by(GameAction.index)
            )
        )
        state = new_state(settings)
        actions: list[MatchAction] = []
        for item in stored:
            action = MatchAction(ActionKind(item.kind), item.seat, item.value, item.t_ms)
            state, recorded = apply_action(state, action)
            actions.append(recorded)
        dice_rows = list(await db.scalars(select(GameDice).where(GameDice.game_id == row.id)))
        seeds = [
            GameSeed(d.game_number, d.server_seed, d.commitment, d.client_seed, d.dice_drawn, d.revealed)
            for d in dice_rows
        ]
        chat_rows = list(
            await db.scalars(
                select(ChatMessage).where(ChatMessage.game_id == row.id).order_by(ChatMessage.index)
            )
        )
        seats = (
            await seat_info(db, row.seat0_user_id, row.seat0_bot),
            await seat_info(db, row.seat1_user_id, row.seat1_bot),
        )
        book = Book(row.version, [row.last_seq0, row.last_seq1], [row.last_ack0, row.last_ack1])
        return Room(
            row.id,
            settings,
            seats,
            state,
            actions,
            DiceFeed((row.client_seed0, row.client_seed1), seeds, row.seed_chain_end),
            save=self.save,
            book=book,
            spectators=row.spectators,
            chat_on=(row.chat0, row.chat1),
            chat=[ChatLine(c.seat, c.text, c.t_ms) for c in chat_rows],
            pending_steps=list(row.pending_steps),
            clock_base_ms=clock_at_takeover(row, max((a.t_ms for a in actions), default=0)),
            federation_id=row.federation_id,
            chat_closed=row.chat_closed,
            no_show_from_ms=row.no_show_from_ms,
            arrived=(row.arrived0_ms, row.arrived1_ms),
        )

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


async def officiate(room: Room, action: str, seat: object, note: object) -> None:
    if action == "warn":
        await room.warn(seat, note)
    elif action == "forfeit":
        await room.forfeit(seat, note)
    else:
        await room.close_chat()


def clock_at_takeover(row: LiveGame, last_action_ms: int) -> int:
    """Where a rebuilt room's clock goes on: from the stored clock, plus the time its
    owner was still alive after storing it (its clocks ran meanwhile); the time after
    the owner's last renewal (a crash, a stop, a takeover) is charged to nobody."""
    ran = 0
    if row.stored_wall_ms is not None and row.held_ms is not None:
        ran = max(0, row.held_ms - row.stored_wall_ms)
    return max(row.clock_ms + ran, last_action_ms)


async def seat_info(db: AsyncSession, user_id: int | None, bot: str | None) -> SeatInfo:
    """A seat of a stored game: a person, the site's bot, or a bot account (a
    tournament's bot entrant: the engine plays it under the account's name)."""
    if user_id is None:
        return SeatInfo(bot_name(bot or "?"), None, bot)
    user = await db.get(User, user_id)
    return SeatInfo(user.name if user else "?", user_id, bot)


def bot_name(level: str) -> str:
    return f"Tavla bot ({level})"
