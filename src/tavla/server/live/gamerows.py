"""The rows of a live game: a change stored under the game's fence, a room read back
from what was stored, and the rows of a game nobody is to play deleted.

A room is read back from the stored settings and actions exactly as a record is
replayed; the stored steps of a turn in progress, the seeds and the chat follow.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, cast

from sqlalchemy import Table, bindparam, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from tavla.match.actions import ActionKind, MatchAction, apply_action
from tavla.match.settings import MatchSettings
from tavla.match.state import new_state
from tavla.server.live.basics import Book, SeatInfo, bot_name, site_bot_level
from tavla.server.live.changes import Change, ChatLine
from tavla.server.live.dicefeed import DiceFeed, GameSeed
from tavla.server.live.leases import LeaseLost, wall_ms
from tavla.server.live.room import Room, SaveChange
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


class GameRows:
    """Writes the live games' rows; each change in one transaction on one connection."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._unstored: dict[str, dict[str, Any]] = {}
        """The rows of new games, stored with their first change (first_change_inserts)."""

    async def insert(self, values: dict[str, Any]) -> None:
        """Store a new game's row alone (a game that awaits its players)."""
        async with self.engine.begin() as connection:
            await connection.execute(GAMES.insert().values(values))

    @contextlib.contextmanager
    def first_change_inserts(self, game_id: str, values: dict[str, Any]) -> Iterator[None]:
        """Meanwhile, the game's row is stored with its first change, in one transaction:
        a game whose start failed leaves nothing behind."""
        self._unstored[game_id] = values
        try:
            yield
        finally:
            self._unstored.pop(game_id, None)

    async def store(self, room: Room, change: Change) -> None:
        """Store a change the room has not adopted yet; raises :class:`LeaseLost` when the
        game's fence moved on (another process owns it), and stores nothing then."""
        # SQLAlchemy Core on one connection: a change is a handful of statements, and
        # the ORM's unit of work would cost more than they do (benchmarks/server_load.py).
        game_id = room.game_id
        async with self.engine.begin() as connection:
            new_game = self._unstored.get(game_id)
            if new_game is not None:
                await connection.execute(GAMES.insert().values(new_game))
            # The game's row first: its update holds the row (a claim waits for this
            # transaction) and, under another fence, stores nothing and says so.
            await self.update_game(connection, room, change)
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
    async def update_game(connection: Any, room: Room, change: Change) -> None:
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

    async def delete(self, game_id: str) -> None:
        """Delete a game's rows: its actions, dice, chat and the game itself."""
        async with self.engine.begin() as connection:
            for table in (ACTIONS, DICE, CHAT):
                await connection.execute(table.delete().where(table.c.game_id == game_id))
            await connection.execute(GAMES.delete().where(GAMES.c.id == game_id))


def new_game_row(
    room: Room, *, client_seeds: tuple[str, str], chain_end: str, rematch_of: str | None
) -> dict[str, Any]:
    """The row of a game just made, before its first change (its lease's columns apart)."""
    return {
        "id": room.game_id,
        "settings": room.settings.to_json(),
        "seat0_user_id": room.seats[0].user_id,
        "seat1_user_id": room.seats[1].user_id,
        "seat0_bot": room.seats[0].bot,
        "seat1_bot": room.seats[1].bot,
        "spectators": room.spectators,
        "chat0": room.chat_on[0],
        "chat1": room.chat_on[1],
        "seed_chain_end": chain_end,
        "client_seed0": client_seeds[0],
        "client_seed1": client_seeds[1],
        "status": "live",
        "version": 0,
        "pending_steps": [],
        "score": [0, 0],
        "created_ms": wall_ms(),
        "rematch_of": rematch_of,
        "federation_id": room.federation_id,
        "clock_ms": 0,
        "no_show_from_ms": room.no_show_from_ms,
        "arrived0_ms": room.arrived[0],
        "arrived1_ms": room.arrived[1],
    }


async def read_room(db: AsyncSession, row: LiveGame, *, save: SaveChange) -> Room:
    """The room of a stored game, as it stood after its last stored change; it stores
    its changes through ``save``."""
    settings = MatchSettings.from_json(row.settings)
    stored = list(
        await db.scalars(select(GameAction).where(GameAction.game_id == row.id).order_by(GameAction.index))
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
        await db.scalars(select(ChatMessage).where(ChatMessage.game_id == row.id).order_by(ChatMessage.index))
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
        save=save,
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


def site_bots(row: LiveGame) -> list[str | None]:
    """The site bot's level at each seat of a stored game (None where it does not play)."""
    return [
        site_bot_level(row.seat0_user_id, row.seat0_bot),
        site_bot_level(row.seat1_user_id, row.seat1_bot),
    ]
