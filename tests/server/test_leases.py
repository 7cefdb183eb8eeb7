"""Game leases (docs/API.md 8): one owner per live game, a fence raised at every change
of owner, and an owner that lost its game storing nothing more."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import func, select, update
from sqlalchemy.exc import OperationalError

from tavla.match.settings import MatchSettings
from tavla.server.live.basics import Refused
from tavla.server.live.leases import LeaseLost, Leases, wall_ms
from tavla.server.live.officials import Outcome
from tavla.server.live.room import SeatInfo
from tavla.server.live.rooms import Rooms
from tavla.storage.database import migrate, open_engine, sessions
from tavla.storage.models import GameAction, LiveGame

pytestmark = pytest.mark.timeout(60)

SEATS = (SeatInfo("ayse", None, "easy"), SeatInfo("ivan", None, "easy"))
SEEDS = ("ayse seed", "ivan seed")


def run(tmp_path: Path, scenario: Callable[[Any], Awaitable[None]]) -> None:
    """``scenario(engine)`` on a fresh SQLite database."""

    async def main() -> None:
        engine = open_engine(f"sqlite:///{tmp_path / 'tavla.db'}")
        try:
            await migrate(engine)
            await scenario(engine)
        finally:
            await engine.dispose()

    asyncio.run(main())


def rooms_of(engine: Any, node: str, *, exclusive: bool = False, lease_ms: int = 5000) -> Rooms:
    leases = Leases(engine, node=node, lease_ms=lease_ms, exclusive=exclusive)
    return Rooms(sessions(engine), one_writer=True, leases=leases)


async def a_game_of_first(engine: Any) -> tuple[Rooms, Rooms, Any]:
    """Two processes, "first" and "second", and a new game "first" runs."""
    first, second = rooms_of(engine, "first"), rooms_of(engine, "second")
    room = await first.create(MatchSettings(game="tabla"), SEATS, client_seeds=SEEDS)
    return first, second, room


async def holder(engine: Any, game_id: str) -> tuple[str | None, int]:
    async with engine.connect() as connection:
        row = (
            await connection.execute(select(LiveGame.owner, LiveGame.fence).where(LiveGame.id == game_id))
        ).one()
    return row[0], row[1]


async def actions(engine: Any, game_id: str) -> int:
    async with engine.connect() as connection:
        statement = select(func.count()).select_from(GameAction).where(GameAction.game_id == game_id)
        return int((await connection.execute(statement)).scalar_one())


def test_a_game_has_one_owner_until_its_lease_runs_out(tmp_path: Path) -> None:
    async def scenario(engine: Any) -> None:
        first, second, room = await a_game_of_first(engine)
        assert await holder(engine, room.game_id) == ("first", 1)
        # Held: the other process gets no room, and learns who owns the game.
        assert await second.get(room.game_id) is None
        assert await second.owner_of(room.game_id) == "first"
        assert await holder(engine, room.game_id) == ("first", 1)
        # Run out: the other takes it over, under a higher fence, from the stored record.
        async with engine.begin() as connection:
            await connection.execute(update(LiveGame).values(lease_until_ms=wall_ms() - 1))
        taken = await second.get(room.game_id)
        assert taken is not None and taken.fence == 2 and taken.state == room.state
        assert await holder(engine, room.game_id) == ("second", 2)
        # The old owner, unaware, tries to store its next change: nothing is stored.
        stored = await actions(engine, room.game_id)
        with pytest.raises(LeaseLost):
            await first.save(room, _a_change(room))
        assert await actions(engine, room.game_id) == stored
        await asyncio.sleep(0)  # the room is let go right after the refusal
        assert room.game_id not in first.rooms and room.closed
        # The new owner's renewal keeps it; the old one's renewal finds nothing of it.
        await second.renew()
        assert room.game_id in second.rooms
        first.close()
        second.close()

    run(tmp_path, scenario)


def _a_change(room: Any) -> Any:
    from tavla.server.live.changes import Change

    return Change(state=room.state, pending_steps=room.pending_steps)


def test_a_renewal_does_not_drop_a_game_made_while_it_ran(tmp_path: Path) -> None:
    async def scenario(engine: Any) -> None:
        rooms = rooms_of(engine, "first")
        renew = rooms.leases.renew
        made: list[str] = []

        async def renew_then_make() -> dict[str, int]:
            held = await renew()  # what the statement saw ...
            room = await rooms.create(
                MatchSettings(game="tabla"), SEATS, client_seeds=SEEDS
            )  # ... and a game made after it
            made.append(room.game_id)
            return held

        rooms.leases.renew = renew_then_make  # type: ignore[method-assign]
        await rooms.renew()
        assert made and made[0] in rooms.rooms and not rooms.rooms[made[0]].closed
        rooms.leases.renew = renew  # type: ignore[method-assign]
        await rooms.renew()  # the next renewal sees it held
        assert made[0] in rooms.rooms
        rooms.close()

    run(tmp_path, scenario)


def test_a_clean_stop_lets_go_at_once_and_one_process_alone_takes_over_at_once(tmp_path: Path) -> None:
    async def scenario(engine: Any) -> None:
        first, second, room = await a_game_of_first(engine)
        await first.stop()
        assert await holder(engine, room.game_id) == (None, 1)
        assert await second.load_live() == 1
        assert await holder(engine, room.game_id) == ("second", 2)
        # A process alone (no hub between processes) takes a crashed owner's games at
        # once, without waiting for the lease to run out.
        alone = rooms_of(engine, "alone", exclusive=True)
        assert await alone.load_live() == 1
        assert await holder(engine, room.game_id) == ("alone", 3)
        second.close()
        alone.close()

    run(tmp_path, scenario)


def test_looking_up_an_owner_claims_nothing_and_a_game_let_go_meanwhile_is_taken(tmp_path: Path) -> None:
    async def scenario(engine: Any) -> None:
        first, second, room = await a_game_of_first(engine)
        claims: list[str] = []
        claim = second.leases.claim

        async def counted(game_id: str) -> int | None:
            claims.append(game_id)
            return await claim(game_id)

        second.leases.claim = counted  # type: ignore[method-assign]
        # Held elsewhere: one claim (refused), then a read of who holds it.
        assert await second.locate(room.game_id) == (None, "first")
        assert claims == [room.game_id]
        # No such game: one claim (that finds nothing), and no second try.
        assert await second.locate("no-such-game") == (None, None)
        assert claims == [room.game_id, "no-such-game"]
        # A lease run out: the look says nobody holds it, and takes nothing.
        async with engine.begin() as connection:
            await connection.execute(update(LiveGame).values(lease_until_ms=wall_ms() - 1))
        assert await second.owner_of(room.game_id) is None
        assert await holder(engine, room.game_id) == ("first", 1)
        # The owner lets go between the claim and the look: the game is taken, not lost.
        async with engine.begin() as connection:
            await connection.execute(update(LiveGame).values(lease_until_ms=wall_ms() + 5000))
        claims.clear()

        async def refused_then_let_go(game_id: str) -> int | None:
            claims.append(game_id)
            if len(claims) == 1:
                await first.stop()
                return None
            return await claim(game_id)

        second.leases.claim = refused_then_let_go  # type: ignore[method-assign]
        taken, owner = await second.locate(room.game_id)
        assert taken is not None and owner is None and len(claims) == 2
        assert await holder(engine, room.game_id) == ("second", 2)
        second.close()

    run(tmp_path, scenario)


def test_a_process_takes_again_a_game_it_holds_and_no_other_process_does(tmp_path: Path) -> None:
    async def scenario(engine: Any) -> None:
        # The room is built again here (after a store it was unsure of): its own lease
        # still runs, and the game is taken again at once, under a new fence.
        first, second, room = await a_game_of_first(engine)
        assert await second.leases.claim(room.game_id) is None
        assert await first.leases.claim(room.game_id) == 2
        assert await holder(engine, room.game_id) == ("first", 2)
        first.close()
        second.close()

    run(tmp_path, scenario)


def test_an_officials_action_on_a_game_held_elsewhere_goes_to_its_owner_whole(tmp_path: Path) -> None:
    async def scenario(engine: Any) -> None:
        first, second, room = await a_game_of_first(engine)
        stored = await actions(engine, room.game_id)
        sent: list[tuple[Any, ...]] = []
        owners_answer = Outcome.of(room)

        async def forward(game_id: str, owner: str, action: str, seat: object, note: object) -> Outcome:
            sent.append((game_id, owner, action, seat, note))
            return owners_answer

        # Sent as it was asked, to the process that holds the game; nothing done here.
        second.forward = forward
        assert await second.officiate(room.game_id, "warn", 1, "slow play") is owners_answer
        assert sent == [(room.game_id, "first", "warn", 1, "slow play")]
        assert await actions(engine, room.game_id) == stored
        assert await holder(engine, room.game_id) == ("first", 1)
        # Nothing to reach it by: the caller hears the owner cannot be reached.
        second.forward = None
        with pytest.raises(Refused) as refused:
            await second.officiate(room.game_id, "forfeit", 0, "no show")
        assert refused.value.code == "unavailable" and len(sent) == 1
        first.close()
        second.close()

    run(tmp_path, scenario)


def test_a_game_whose_first_store_fails_leaves_nothing_behind(tmp_path: Path) -> None:
    async def scenario(engine: Any) -> None:
        rooms = rooms_of(engine, "first")
        update_game = rooms.rows.update_game

        async def database_away(connection: Any, room: Any, change: Any) -> None:
            raise OperationalError("UPDATE games", {}, OSError("the database is away"))

        rooms.rows.update_game = database_away  # type: ignore[method-assign]
        with pytest.raises(OperationalError):
            await rooms.create(MatchSettings(game="tabla"), SEATS, client_seeds=SEEDS)
        async with engine.connect() as connection:
            assert (await connection.execute(select(func.count()).select_from(LiveGame))).scalar_one() == 0
        assert rooms.rooms == {}
        # The database back, games are made as before, and there is nothing to take over.
        rooms.rows.update_game = update_game  # type: ignore[method-assign]
        room = await rooms.create(MatchSettings(game="tabla"), SEATS, client_seeds=SEEDS)
        assert list(rooms.rooms) == [room.game_id] and await actions(engine, room.game_id) > 0
        assert await rooms_of(engine, "second").load_live() == 0
        rooms.close()

    run(tmp_path, scenario)


def test_a_renewal_while_the_last_change_is_stored_keeps_the_room(tmp_path: Path) -> None:
    """The change that ends a game is stored (the game is no longer live, so its lease is
    not renewed) before the room adopts it: a renewal in between must not let it go."""

    async def scenario(engine: Any) -> None:
        rooms = rooms_of(engine, "first")
        room = await rooms.create(MatchSettings(game="tabla"), SEATS, client_seeds=SEEDS)
        async with engine.begin() as connection:
            await connection.execute(
                update(LiveGame).where(LiveGame.id == room.game_id).values(status="finished")
            )
        async with room.lock:  # the final change is still being adopted
            await rooms.renew()
        assert room.game_id in rooms.rooms and not room.closed
        # With no change in flight, a room whose game is no longer held is let go.
        await rooms.renew()
        assert room.game_id not in rooms.rooms and room.closed
        rooms.close()

    run(tmp_path, scenario)


def test_the_lease_sweeps_leave_the_process_random_state_alone(tmp_path: Path) -> None:
    """The sweeps' pauses are spread by a generator of their own: a server embedded in a
    program (or a test drawing examples beside it) never sees its random numbers move."""

    async def scenario(engine: Any) -> None:
        rooms = rooms_of(engine, "a", lease_ms=30)  # a sweep every 8-10 ms
        random.seed(12)
        before = random.getstate()
        sweeping = asyncio.create_task(rooms.keep_leases())
        await asyncio.sleep(0.15)
        sweeping.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeping
        assert random.getstate() == before

    run(tmp_path, scenario)


def test_the_games_nobody_holds_are_taken_up_a_batch_at_a_time(tmp_path: Path) -> None:
    """A sweep looks at a bounded batch of orphaned games; the next sweep finds the rest."""

    async def scenario(engine: Any) -> None:
        first, second = rooms_of(engine, "first"), rooms_of(engine, "second")
        made = [
            (await first.create(MatchSettings(game="tabla"), SEATS, client_seeds=SEEDS)).game_id
            for _ in range(3)
        ]
        assert await second.leases.unowned() == []  # "first" holds them all
        async with engine.begin() as connection:
            await connection.execute(update(LiveGame).values(owner=None))  # "first" stopped
        batch = await second.leases.unowned(limit=2)
        assert len(batch) == 2 and set(batch) < set(made)
        assert sorted(await second.leases.unowned()) == sorted(made)
        first.close()

    run(tmp_path, scenario)
