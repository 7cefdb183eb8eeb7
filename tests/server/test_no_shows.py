"""The no-show procedure of a tournament's match (RULES.md 11.4; docs/tournaments.md).

The round starts and its games are made; the first game waits for both players. The
one who came is credited a point at 20, 25, 30 ... minutes after the start and wins by
forfeit at half the match length rounded up; credited points stand when the other
comes late; nothing is credited while nobody has come. The rooms' clock is replaced by
one the test moves, and the timer's work is run at the moment the test chooses.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, select, update
from tests.server.federation_world import sync_url
from tests.server.play import Seat
from tests.server.test_tournaments import enter_people, only_board
from tests.server.tournament_world import World, build_world

from tavla.server.live import room as room_module
from tavla.server.live.room import Room
from tavla.server.platform import Platform
from tavla.storage.models import GameAction, LiveGame, TournamentPairing

pytestmark = pytest.mark.timeout(180)

MINUTE = 60_000


class Clock:
    """The rooms' monotonic milliseconds, moved by the test."""

    def __init__(self) -> None:
        self.ms = 1_000_000

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(room_module, "monotonic_ms", fake)
    return fake


@pytest.fixture
def world(database_url: str, clock: Clock) -> Iterator[World]:
    yield from build_world(database_url)


def platform(world: World) -> Platform:
    found: Platform = world.site.platform
    return found


def start_round(world: World, length: int = 7) -> dict[str, Any]:
    """A one-round Swiss of ali and bora to ``length`` points, started: its board."""
    tournament = world.create(game="tabla", format="swiss", rounds=1, match_lengths=[length])
    enter_people(world, tournament, ("ali", "bora"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    board = only_board(world.view(tournament))
    board["tournament"] = tournament
    return board


def room_of(world: World, game: str) -> Room:
    async def get() -> Room:
        found = await platform(world).rooms.get(game)
        assert found is not None
        return found

    return world.site.portal.call(get)


def at_minute(world: World, clock: Clock, room: Room, minute: float) -> None:
    """Move the clock to ``minute`` after the round started and let the room's timer act."""
    clock.ms = room._loaded_mono - room._base_ms + int(minute * MINUTE)
    world.site.portal.call(room.tick)


def look(world: World, who: str, game: str) -> dict[str, Any]:
    with world.site.as_(world.people[who]).websocket_connect(f"/ws/game/{game}") as socket:
        return Seat(socket).state


def stored_actions(world: World, game: str) -> list[tuple[str, int | None, int]]:
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(GameAction.kind, GameAction.seat, GameAction.t_ms)
                .where(GameAction.game_id == game)
                .order_by(GameAction.index)
            )
            return [(kind, seat, t) for kind, seat, t in rows]
    finally:
        engine.dispose()


def test_the_present_player_is_credited_every_five_minutes_and_wins_at_half(
    world: World, clock: Clock
) -> None:
    """RULES.md 11.4: 15 minutes' grace, then a point per 5 minutes; 4 points of a 7-point
    match win by forfeit; the result reaches the tournament like any other."""
    board = start_round(world, length=7)
    game = board["game_id"]
    white = board["white"]
    seat_of_white = 0
    room = room_of(world, game)
    at_minute(world, clock, room, 2)
    shown = look(world, white, game)
    assert shown["match"]["game_number"] == 0 and shown["match"]["phase"] == "between"
    waiting = shown["waiting"]
    assert waiting["arrived"] == [True, False] and waiting["forfeit_at"] == 4
    assert waiting["credit_due_ms"] == 20 * MINUTE
    at_minute(world, clock, room, 19.99)
    assert room.state.score == (0, 0)
    at_minute(world, clock, room, 20)
    assert room.state.score == (1, 0) and not room.state.over
    at_minute(world, clock, room, 36)  # the server was busy: 25, 30 and 35 are all due
    state = room.state
    assert state.over and state.winner == seat_of_white and state.forfeit == "absent"
    assert state.score == (4, 0)
    absents = [(kind, seat, t) for kind, seat, t in stored_actions(world, game) if kind == "absent"]
    assert absents == [("absent", 1, minute * MINUTE) for minute in (20, 25, 30, 35)]
    shown = world.wait(
        board["tournament"], lambda v: only_board(v)["result"] is not None, "the forfeit's result"
    )
    # No game was played: a forfeit win, as a TRF file says "+" (unrated, no colour).
    assert only_board(shown)["result"] == "white_ff"
    # Recorded again the same way by the start-up catch-up, had nobody heard the end.
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.begin() as connection:
            connection.execute(
                update(TournamentPairing).where(TournamentPairing.game_id == game).values(result=None)
            )
    finally:
        engine.dispose()
    assert world.site.portal.call(platform(world).tournaments.catch_up) == 1
    assert only_board(world.view(board["tournament"]))["result"] == "white_ff"


def test_credited_points_stand_when_the_late_player_comes(world: World, clock: Clock) -> None:
    """The late player's arrival begins the first game at the score credited so far."""
    board = start_round(world, length=7)
    game = board["game_id"]
    room = room_of(world, game)
    at_minute(world, clock, room, 1)
    look(world, board["black"], game)  # black came; white is late
    at_minute(world, clock, room, 26)
    assert room.state.score == (0, 2)
    at_minute(world, clock, room, 27)
    with (
        world.site.as_(world.people[board["white"]]).websocket_connect(f"/ws/game/{game}") as late,
        world.site.as_(world.people[board["black"]]).websocket_connect(f"/ws/game/{game}") as waited,
    ):
        seat = Seat(late)
        playing = seat.wait(lambda state: state["match"]["game_number"] == 1)
        assert playing["waiting"] is None and playing["match"]["score"] == [0, 2]
        assert Seat(waited).wait(lambda state: state["match"]["phase"] in ("roll", "move"))
    at_minute(world, clock, room, 31)  # no more points once play has begun
    assert room.state.score == (0, 2) and room.state.game_number == 1
    assert [kind for kind, _, _ in stored_actions(world, game)].count("absent") == 2


def test_nothing_is_credited_while_nobody_has_come(world: World, clock: Clock) -> None:
    """Both absent: the server decides nothing (an arbiter settles it)."""
    board = start_round(world, length=5)
    game = board["game_id"]
    room = room_of(world, game)
    at_minute(world, clock, room, 90)
    assert room.state.score == (0, 0) and not room.state.over and room.deadline() is None
    shown = look(world, "arbiter", game)  # an observer does not count as a player
    assert shown["waiting"]["arrived"] == [False, False] and shown["waiting"]["credit_due_ms"] is None


def test_a_late_arrival_counts_the_marks_from_his_own_arrival(world: World, clock: Clock) -> None:
    """Who came at minute 22 was credited nothing for minute 20: his first point is at 25."""
    board = start_round(world, length=5)
    game = board["game_id"]
    room = room_of(world, game)
    at_minute(world, clock, room, 22)
    assert look(world, board["white"], game)["waiting"]["credit_due_ms"] == 25 * MINUTE
    at_minute(world, clock, room, 24.9)
    assert room.state.score == (0, 0)
    at_minute(world, clock, room, 25)
    assert room.state.score == (1, 0)


def test_arrivals_survive_a_restart(world: World, clock: Clock) -> None:
    """Who came is stored: a room rebuilt from the database goes on crediting him, its
    clock continuing from the last moment stored."""
    board = start_round(world, length=3)
    game = board["game_id"]
    room = room_of(world, game)
    at_minute(world, clock, room, 5)
    look(world, board["white"], game)
    for _ in range(500):  # the server hears the page close a moment later
        if not room.viewers:
            break
        time.sleep(0.01)
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            row = connection.execute(
                select(
                    LiveGame.no_show_from_ms, LiveGame.arrived0_ms, LiveGame.arrived1_ms, LiveGame.clock_ms
                ).where(LiveGame.id == game)
            ).one()
    finally:
        engine.dispose()
    assert row[0] == 0 and row[1] == 5 * MINUTE and row[2] is None and row[3] >= 5 * MINUTE
    rooms = platform(world).rooms

    def stop_for_half_an_hour() -> None:
        # In the server's own thread, so that nothing rebuilds the room in between; its
        # leases are no longer renewed, as those of a stopped server.
        if rooms._keeper is not None:
            rooms._keeper.cancel()
        rooms.rooms.pop(game).close()
        clock.ms += 30 * MINUTE  # the server was down half an hour: nobody is charged for it

    world.site.portal.call(stop_for_half_an_hour)
    rebuilt = room_of(world, game)
    assert rebuilt is not room and rebuilt.arrived == (5 * MINUTE, None)
    # The clock goes on from the one stored, plus the time the server was still alive
    # after storing it (until its last renewal); the half hour down is not counted.
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            stored, held = connection.execute(
                select(LiveGame.stored_wall_ms, LiveGame.held_ms).where(LiveGame.id == game)
            ).one()
    finally:
        engine.dispose()
    assert stored is not None and held is not None  # stored, and held on after that
    assert rebuilt.now() == row[3] + max(0, held - stored) < row[3] + 5000
    at_minute(world, clock, rebuilt, 19.9)
    assert rebuilt.state.score == (0, 0)
    at_minute(world, clock, rebuilt, 25)
    assert rebuilt.state.over and rebuilt.state.winner == 0 and rebuilt.state.score == (2, 0)


def test_a_lobby_game_starts_at_once(world: World, clock: Clock) -> None:
    """Only a tournament's match waits: a game made in the lobby begins when made."""
    from tavla.match.settings import MatchSettings
    from tavla.server.live.room import SeatInfo
    from tavla.server.live.views import waiting

    async def create() -> Room:
        seats = (SeatInfo("ali", None, None), SeatInfo("bora", None, None))
        return await platform(world).rooms.create(
            MatchSettings("tabla", 3), seats, client_seeds=("ab12", "cd34")
        )

    made: Room = world.site.portal.call(create)
    assert made.state.game_number == 1 and not made.awaiting_players
    assert waiting(made) is None


def test_when_nobody_came_the_arbiter_forfeits_both(world: World, clock: Clock) -> None:
    """Neither player came: the arbiter's forfeit of both is a double forfeit on the
    board, official at once (docs/tournaments.md, No-shows)."""
    board = start_round(world, length=5)
    room = room_of(world, board["game_id"])
    at_minute(world, clock, room, 40)
    world.ok(
        "POST", "arbiter", f"/api/games/{board['game_id']}/forfeit", {"seat": None, "note": "kimse gelmedi"}
    )
    shown = world.wait(
        board["tournament"], lambda v: only_board(v)["result"] is not None, "the double forfeit"
    )
    assert only_board(shown)["result"] == "both_ff" and only_board(shown)["official"] is True
    assert [kind for kind, _, _ in stored_actions(world, board["game_id"])] == ["void"]
