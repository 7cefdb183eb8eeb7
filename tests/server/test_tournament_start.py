"""A round whose games cannot all be made is not left half started: the administrator is
told, the round stays paired, and starting it again makes the games it lacks
(docs/tournaments.md, "When a round's games cannot be made")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.server.hostile import game_ids
from tests.server.tournament_world import World, build_world


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    yield from build_world(database_url)


class FailingOnce:
    """The rooms' ``create``, refusing the ``nth`` game it is asked for (once)."""

    def __init__(self, create: Any, nth: int) -> None:
        self.create = create
        self.nth = nth
        self.calls = 0

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls == self.nth:
            raise OSError("the database refused the game")
        return await self.create(*args, **kwargs)


class StoreFailingOnce:
    """The rooms' store, refusing the first change of the ``nth`` game it sees (once):
    the game's row is written, its start is not."""

    def __init__(self, save: Any, nth: int) -> None:
        self.save = save
        self.nth = nth
        self.games: list[str] = []

    async def __call__(self, room: Any, change: Any) -> None:
        if room.game_id not in self.games:
            self.games.append(room.game_id)
            if len(self.games) == self.nth:
                raise OSError("disk full")
        await self.save(room, change)


class BoardFailingOnce:
    """The rooms' ``create``, after which the ``nth`` game's board cannot be told its
    game (the database fails as the director writes it down)."""

    def __init__(self, create: Any, director: Any, nth: int) -> None:
        self.create = create
        self.director = director
        self.nth = nth
        self.calls = 0

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        room = await self.create(*args, **kwargs)
        self.calls += 1
        if self.calls == self.nth:
            sessions = self.director.sessions

            def failing() -> Any:
                self.director.sessions = sessions
                raise OSError("the database went away")

            self.director.sessions = failing
        return room


@pytest.mark.timeout(180)
@pytest.mark.parametrize("failing", ["create", "save", "board"])
def test_a_round_whose_third_game_fails_is_finished_by_starting_it_again(world: World, failing: str) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=3, match_lengths=[1])
    base = f"/api/tournaments/{tournament}"
    world.ok("POST", "admin", f"{base}/registration")
    for _ in range(6):
        world.ok("POST", "admin", f"{base}/bots", {"level": "beginner"})
    world.ok("POST", "admin", f"{base}/check-in")
    rooms = world.site.platform.rooms
    games_before = game_ids(world.database_url)
    # Either the rooms refuse to make the third game, or the database refuses its start,
    # or the third game is made but its board cannot be told.
    director = world.site.platform.tournaments
    wrapped, wrapper = {
        "create": ("create", FailingOnce(rooms.create, nth=3)),
        "save": ("save", StoreFailingOnce(rooms.save, nth=3)),
        "board": ("create", BoardFailingOnce(rooms.create, director, nth=3)),
    }[failing]
    setattr(rooms, wrapped, wrapper)
    try:
        answer = world.send("POST", "admin", f"{base}/rounds")
    finally:
        delattr(rooms, wrapped)  # the class's method again, for the games made from now on
    assert answer.status_code == 503, answer.text
    error = answer.json()["error"]
    assert error["code"] == "round_incomplete" and "1 of its games" in error["message"]

    shown = world.view(tournament)
    assert shown["state"] == "running" and shown["current_round"] == 1
    boards = shown["played_rounds"][0]["pairings"]
    assert len(boards) == 3 and [b["game_id"] is not None for b in boards] == [True, True, False]
    first_games = {b["board"]: b["game_id"] for b in boards if b["game_id"]}
    # The game that failed left nothing behind (no live game that no board knows of).
    assert game_ids(world.database_url) - games_before == set(first_games.values())
    admin_page = world.site.as_(world.people["admin"]).get(f"/tournaments/{tournament}/admin").text
    assert 'id="resume-round"' in admin_page and 'id="start-round"' not in admin_page
    assert "still without their game: 1." in admin_page

    # Again: the missing game is made, the two made before are kept, nothing is paired anew.
    assert world.ok("POST", "admin", f"{base}/rounds") == {"round": 1}
    shown = world.view(tournament)
    boards = shown["played_rounds"][0]["pairings"]
    assert shown["current_round"] == 1 and all(b["game_id"] for b in boards)
    assert {b["board"]: b["game_id"] for b in boards if b["board"] in first_games} == first_games
    assert len(world.games(tournament)) == 3
    admin_page = world.site.as_(world.people["admin"]).get(f"/tournaments/{tournament}/admin").text
    assert 'id="resume-round"' not in admin_page

    # The tournament goes on to its end as if nothing had happened.
    world.wait_round_official(tournament, 1)
    for number in (2, 3):
        assert world.ok("POST", "admin", f"{base}/rounds") == {"round": number}
        world.wait_round_official(tournament, number)
    final = world.wait(tournament, lambda v: v["state"] == "finished", "the tournament finishing")
    assert sum(line["points"] for line in final["standings"]) == 9
    assert len(world.games(tournament)) == 9
