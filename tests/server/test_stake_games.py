"""Games for money from the lobby (RULES.md 12; docs/ledger.md, the platform): the
federation's own example to the cent, played over the websocket; the stake checked
when offered and accepted; a finish delivered twice, or by a second process, settles
once; a game with no winner releases both reservations."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, update
from tests.server.conftest import DATABASES, _postgres_database
from tests.server.federation_world import World, build_world, sync_url
from tests.server.play import Seat

from tavla import from_notation
from tavla.ledger.accounts import house_account
from tavla.ledger.service import Ledger
from tavla.server.events import GameFinished
from tavla.server.stakes.games import StakedGames
from tavla.storage.database import open_engine, sessions
from tavla.storage.models import LiveGame

pytestmark = pytest.mark.timeout(120)

EXAMPLE = {"game": "tabla", "length": 0, "cube": True, "federation": "tbf"}
STAKE = {"initial_cents": 200, "maximum_cents": 500}


def database_for(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "postgresql":
        return _postgres_database()
    return f"sqlite:///{tmp_path_factory.mktemp('stakes') / 'tavla.db'}"


@pytest.fixture(params=DATABASES)
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from build_world(database_for(request, tmp_path_factory))


def money(world: World, name: str) -> dict[str, Any]:
    answer = world.get(name, f"/api/federations/tbf/money/{name}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def fund(world: World, **cents: int) -> None:
    for name, amount in cents.items():
        made = world.post("admin", f"/api/federations/tbf/money/{name}/deposits", {"amount_cents": amount})
        assert made.status_code == 201, made.text


def offer(world: World, who: str = "player", **extra: Any) -> Any:
    return world.post(who, "/api/offers", {**EXAMPLE, "stake": STAKE, **extra})


def started_game(world: World) -> str:
    made = offer(world)
    assert made.status_code == 201, made.text
    accepted = world.post("opponent", f"/api/offers/{made.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    return str(accepted.json()["game_id"])


def wait_for(check: Any) -> None:
    deadline = time.monotonic() + 10
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the ledger never caught up")
        time.sleep(0.05)


def by_seat(first: Seat, second: Seat) -> dict[int, Seat]:
    return {first.state["seat"]: first, second.state["seat"]: second}


def catch_up(seats: dict[int, Seat]) -> None:
    top = max(seat.state["v"] for seat in seats.values())
    for seat in seats.values():
        seat.read_state_until(top)


def win_with_a_backgammon(world: World, game: str) -> str:
    """One player moves, the other resigns a backgammon (3 points) and it is accepted;
    the winner's name."""
    with (
        world.site.as_(world.people["player"]).websocket_connect(f"/ws/game/{game}") as a,
        world.site.as_(world.people["opponent"]).websocket_connect(f"/ws/game/{game}") as b,
    ):
        seats = by_seat(Seat(a), Seat(b))
        catch_up(seats)
        starter = seats[seats[0].match["actor"]]
        other = seats[1 - starter.state["seat"]]
        turn = from_notation(starter.match["position"]["tpn"]).legal_turns()[0].text
        assert starter.send({"kind": "move", "turn": turn})["type"] == "ack"
        catch_up(seats)
        assert other.send({"kind": "roll"})["type"] == "ack"
        catch_up(seats)
        assert other.send({"kind": "resign", "level": "backgammon"})["type"] == "ack"
        catch_up(seats)
        assert starter.send({"kind": "accept"})["type"] == "ack"
        catch_up(seats)
        final = starter.match
        assert final["over"] and final["results"][0]["points"] == 3
        names = final.get("names") or ("player", "opponent")
        return str(names[starter.state["seat"]])


def books(world: World) -> dict[str, Any]:
    answer: dict[str, Any] = world.get("admin", "/api/federations/tbf/books").json()
    return answer


def test_the_federations_example_to_the_cent(world: World) -> None:
    """S 2.00, M 5.00, won with 3 points: final stake 5.00; the winner keeps his 5.00,
    gets the loser's 5.00 and pays 0.50 (5% of the 10.00 pot): 9.50 in all."""
    fund(world, player=2000, opponent=2000)
    game = started_game(world)
    for name in ("player", "opponent"):
        held = money(world, name)
        assert (held["balance_cents"], held["reserved_cents"]) == (1500, 500)
        assert held["lines"][-1]["held"] and held["lines"][-1]["amount_cents"] == -500
    lobby = world.get("player", "/api/lobby").json()
    assert next(entry for entry in lobby["live"] if entry["id"] == game)["stake"] == {
        "federation": "tbf",
        "kind": "game",
        "initial_cents": 200,
        "maximum_cents": 500,
    }
    board = world.get("opponent", f"/game/{game}")
    assert 'id="stake"' in board.text and "2.00" in board.text and "5.00" in board.text
    winner = win_with_a_backgammon(world, game)
    loser = "opponent" if winner == "player" else "player"
    wait_for(lambda: money(world, winner)["balance_cents"] != 1500)
    won, lost = money(world, winner), money(world, loser)
    assert (won["balance_cents"], won["reserved_cents"]) == (2450, 0)
    assert (lost["balance_cents"], lost["reserved_cents"]) == (1500, 0)
    assert [(line["memo"], line["amount_cents"]) for line in won["lines"][-3:]] == [
        ("own reservation back", 500),
        (f"stake won from {loser}", 500),
        ("fee 5% of the pot", -50),
    ]
    assert won["lines"][-1]["balance_after_cents"] == 2450
    # The settlement says why it was made, in words the statement translates.
    assert {line["reason"] for line in won["lines"][-3:]} == {"official result: game over"}
    # The loser's whole reservation was his final stake: nothing comes back to him.
    assert [line["kind"] for line in lost["lines"]] == ["deposit", "reservation"]
    assert not lost["lines"][-1]["held"]
    report = books(world)
    assert report["fees_collected_cents"] == report["house_balance_cents"] == 50
    assert report["fee_by_game"] == [{"game_id": game, "fee_cents": 50}]
    assert report["total_cents"] == 0 and report["held_for_others_cents"] == 4000


def _deliver(world: World, event: GameFinished, times: int) -> None:
    """The finish handled by another process's ledger: its own engine, ``times``
    handlers at once."""

    async def run() -> None:
        engine = open_engine(world.database_url)
        try:
            staked = StakedGames(Ledger(sessions(engine)), sessions(engine))
            await asyncio.gather(*(staked.game_finished(event) for _ in range(times)))
        finally:
            await engine.dispose()

    asyncio.run(run())


def test_a_finish_delivered_again_or_elsewhere_changes_nothing(world: World) -> None:
    fund(world, player=2000, opponent=2000)
    game = started_game(world)
    winner = win_with_a_backgammon(world, game)
    wait_for(lambda: money(world, winner)["balance_cents"] == 2450)
    before = books(world)
    seat = 0 if winner == "player" else 1
    _deliver(world, GameFinished(game, world.federation_id("tbf"), seat, (3, 0) if seat == 0 else (0, 3)), 4)
    assert books(world) == before

    async def audit() -> list[str]:
        engine = open_engine(world.database_url)
        try:
            return await Ledger(sessions(engine)).audit()
        finally:
            await engine.dispose()

    assert asyncio.run(audit()) == []


def test_a_game_that_cannot_start_gives_both_stakes_back_and_leaves_the_offer_open(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both stakes were held when the game's first store failed: they are released, the
    books say why, and the offer waits for the next taker."""
    fund(world, player=1000, opponent=1000)
    made = offer(world)
    assert made.status_code == 201, made.text

    async def no_game(*args: Any, **kwargs: Any) -> Any:
        raise OSError("disk full")

    monkeypatch.setattr(world.site.platform.lobby.rooms, "create", no_game)
    with pytest.raises(OSError):  # the test client raises what a site answers with a 500
        world.post("opponent", f"/api/offers/{made.json()['id']}/accept")
    for name in ("player", "opponent"):
        back = money(world, name)
        assert (back["balance_cents"], back["reserved_cents"]) == (1000, 0)
        released = back["lines"][-1]
        assert (released["kind"], released["reason"]) == ("release", "the game could not start")
    assert [o["id"] for o in world.get("player", "/api/lobby").json()["offers"]] == [made.json()["id"]]
    assert books(world)["total_cents"] == 0


def test_a_game_with_no_winner_releases_both_reservations_once(world: World) -> None:
    fund(world, player=1000, opponent=1000)
    game = started_game(world)
    assert money(world, "player")["balance_cents"] == 500
    _deliver(world, GameFinished(game, world.federation_id("tbf"), None, (0, 0)), 3)
    for name in ("player", "opponent"):
        back = money(world, name)
        assert (back["balance_cents"], back["reserved_cents"]) == (1000, 0)
        assert [line["kind"] for line in back["lines"]] == ["deposit", "reservation", "release"]
        assert [line["game_id"] for line in back["lines"]] == [None, game, game]  # a link to the game
    assert books(world)["total_cents"] == 0
    assert house_account("tbf").owner == ""


def test_a_stake_needs_the_money_and_the_federation(world: World) -> None:
    fund(world, player=400, opponent=2000)
    short = offer(world)
    assert short.status_code == 409 and short.json()["error"]["code"] == "insufficient_funds"
    outsider = offer(world, "outsider")
    assert outsider.status_code == 403
    for bad, status, message in (
        ({"stake": {"stake_cents": 100}}, 422, "a single game's stake is an initial and a maximum stake"),
        (
            {"stake": {"initial_cents": 300, "maximum_cents": 200}},
            422,
            "the maximum stake, 2.00, is below the initial stake, 3.00",
        ),
        (
            {"stake": {"initial_cents": 1.5, "maximum_cents": 200}},
            422,
            "invalid request: stake.initial_cents: Input should be a valid integer",
        ),
        ({"federation": None}, 422, "a stake is played within a federation: choose both"),
        ({"federation": "nowhere"}, 404, "no federation has the address nowhere"),
        ({"length": 5}, 422, "a match is played for one fixed stake"),
    ):
        refused = offer(world, "opponent", **bad)
        assert (refused.status_code, refused.json()["error"]["message"]) == (status, message), bad
    # Each in the reader's language, its amounts as his language writes them.
    assert world._send("PUT", "opponent", "/api/me/preferences", {"language": "tr"}).status_code == 200
    turkish = offer(world, "opponent", stake={"initial_cents": 300000, "maximum_cents": 200})
    assert turkish.json()["error"]["message"] == "en yüksek bahis (2,00) başlangıç bahsinden (3.000,00) düşük"
    assert world.get("player", "/api/lobby").json()["offers"] == []


def test_accepting_without_the_money_refuses_and_the_offer_stays_open(world: World) -> None:
    fund(world, player=2000, opponent=300)
    made = offer(world)
    assert made.status_code == 201, made.text
    refused = world.post("opponent", f"/api/offers/{made.json()['id']}/accept")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "insufficient_funds"
    not_member = world.post("outsider", f"/api/offers/{made.json()['id']}/accept")
    assert not_member.status_code == 403
    assert [o["id"] for o in world.get("player", "/api/lobby").json()["offers"]] == [made.json()["id"]]
    assert money(world, "player")["balance_cents"] == 2000
    fund(world, opponent=200)
    accepted = world.post("opponent", f"/api/offers/{made.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    assert money(world, "opponent")["balance_cents"] == 0


def test_a_match_is_played_for_a_fixed_stake(world: World) -> None:
    fund(world, player=1000, opponent=1000)
    made = offer(world, length=3, stake={"stake_cents": 700})
    assert made.status_code == 201, made.text
    listed = world.get("player", "/api/lobby").json()["offers"][0]["settings"]
    assert listed["stake"] == {"kind": "match", "stake_cents": 700} and listed["federation"] == "tbf"
    assert world.post("opponent", f"/api/offers/{made.json()['id']}/accept").status_code == 200
    assert money(world, "opponent")["reserved_cents"] == 700


def test_a_game_that_finished_while_nobody_listened_is_settled_at_start_up(world: World) -> None:
    """The server stopped between a game's end and its settlement: the start-up's
    catch-up settles it from the stored result, and a second start-up moves nothing."""
    fund(world, player=2000, opponent=2000)
    game = started_game(world)
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.begin() as connection:
            connection.execute(
                update(LiveGame).where(LiveGame.id == game).values(status="finished", winner=1, score=[0, 2])
            )
    finally:
        engine.dispose()

    async def start_up() -> int:
        engine = open_engine(world.database_url)
        try:
            return await StakedGames(Ledger(sessions(engine)), sessions(engine)).catch_up()
        finally:
            await engine.dispose()

    assert asyncio.run(start_up()) == 1
    # 2 points at 2.00: final stake 4.00, pot 8.00, fee 0.40; the loser gets 1.00 back.
    assert money(world, "opponent")["balance_cents"] == 1500 + 500 + 400 - 40
    assert money(world, "player")["balance_cents"] == 1500 + 100
    assert asyncio.run(start_up()) == 0
    assert books(world)["fees_collected_cents"] == 40


def test_a_maker_who_spent_his_stake_voids_his_offer_without_telling_his_balance(world: World) -> None:
    fund(world, player=600, opponent=2000)
    made = offer(world)
    assert made.status_code == 201, made.text
    spent = world.post("admin", "/api/federations/tbf/money/player/withdrawals", {"amount_cents": 550})
    assert spent.status_code == 201, spent.text
    refused = world.post("opponent", f"/api/offers/{made.json()['id']}/accept")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "insufficient_funds"
    assert "0.50" not in refused.text and "50" not in refused.json()["error"]["message"]
    assert world.get("player", "/api/lobby").json()["offers"] == []
    assert money(world, "player")["balance_cents"] == 50 and money(world, "opponent")["balance_cents"] == 2000


@pytest.fixture(params=DATABASES)
def quick_world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The world on a server whose leases (and so its catching up) are short."""
    yield from build_world(database_for(request, tmp_path_factory), lease_ms=500)


def test_a_game_whose_owner_died_after_its_end_is_settled_by_a_running_process(quick_world: World) -> None:
    """The owner stored the game's end and died before settling it (another process's
    name now holds it): the running process settles it within a few leases, once."""
    world = quick_world
    fund(world, player=2000, opponent=2000)
    game = started_game(world)
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.begin() as connection:
            connection.execute(
                update(LiveGame)
                .where(LiveGame.id == game)
                .values(status="finished", winner=1, score=[0, 2], owner="dead", fence=LiveGame.fence + 1)
            )
    finally:
        engine.dispose()
    wait_for(lambda: money(world, "player")["balance_cents"] == 1500 + 100)
    assert money(world, "opponent")["balance_cents"] == 1500 + 500 + 400 - 40
    time.sleep(1.5)  # more rounds of catching up change nothing
    assert money(world, "opponent")["balance_cents"] == 1500 + 500 + 400 - 40
    assert books(world)["fees_collected_cents"] == 40
    # The process let go of the game it held: its room no longer plays it.
    assert game not in world.platform.rooms.rooms
