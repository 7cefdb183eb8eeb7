"""A tournament's money (RULES.md 12; docs/ledger.md, the platform): the entry fee and
prize shares set at its creation, the fee charged on registration and refunded on
withdrawal, a sponsor's money added by an administrator, and the prizes paid from the
final table once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from tests.server.test_tournaments import enter_people, only_board, resign, run_to_the_end
from tests.server.tournament_world import World, build_world

from tavla.ledger.service import Ledger
from tavla.server.stakes.tournaments import pay_prizes
from tavla.storage.database import open_engine, sessions

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    yield from build_world(database_url)


def books(world: World) -> dict[str, Any]:
    found: dict[str, Any] = world.ok("GET", "admin", "/api/federations/tbf/books")
    return found


def balance_of(world: World, kind: str, owner: str) -> int:
    return sum(
        a["balance_cents"] for a in books(world)["accounts"] if a["kind"] == kind and a["owner"] == owner
    )


def pool(world: World, tournament: int) -> dict[str, Any]:
    found: dict[str, Any] = world.ok("GET", "nobody", f"/api/tournaments/{tournament}/money")["money"]
    return found


def test_the_entry_fee_is_charged_refunded_and_refused_when_short(world: World) -> None:
    tournament = world.create(game="tabla", format="knockout", match_lengths=[1], entry_fee_cents=300,
                              prize_shares=[100])  # fmt: skip
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/registration")
    world.ok("POST", "admin", "/api/federations/tbf/money/ali/deposits", {"amount_cents": 500})
    url = f"/api/tournaments/{tournament}/entrants/me"
    world.ok("PUT", "ali", url)
    assert balance_of(world, "player", "ali") == 200 and pool(world, tournament)["pool_cents"] == 300
    world.ok("DELETE", "ali", url)
    assert balance_of(world, "player", "ali") == 500 and pool(world, tournament)["pool_cents"] == 0
    world.ok("PUT", "ali", url)  # entering again pays again
    assert balance_of(world, "player", "ali") == 200 and pool(world, tournament)["pool_cents"] == 300
    short = world.send("PUT", "bora", url)
    assert short.status_code == 409 and short.json()["error"]["code"] == "insufficient_funds"
    assert [e["name"] for e in world.view(tournament)["entrants"]] == ["ali"]
    page = world.site.as_(None).get(f"/tournaments/{tournament}").text
    assert 'id="money"' in page and "3.00" in page and "100" in page
    assert books(world)["total_cents"] == 0


@pytest.mark.parametrize(
    "money",
    [
        {"entry_fee_cents": 300},  # a fee needs prize shares
        {"entry_fee_cents": -1, "prize_shares": [100]},
        {"entry_fee_cents": 2.5, "prize_shares": [100]},
        {"entry_fee_cents": 10**12, "prize_shares": [100]},
        {"entry_fee_cents": 100, "prize_shares": [-5, 50]},
        {"entry_fee_cents": 100, "prize_shares": [0, 0]},
    ],
    ids=repr,
)
def test_impossible_money_terms_are_refused(world: World, money: dict[str, Any]) -> None:
    body = {"name": "Kupa", "game": "tabla", "format": "knockout", "match_lengths": [1], **money}
    refused = world.send("POST", "admin", "/api/federations/tbf/tournaments", body)
    assert refused.status_code == 422, refused.text
    assert world.ok("GET", "nobody", "/api/federations/tbf/tournaments") == []


@pytest.mark.parametrize(
    ("shares", "said"),
    [
        ([0, 0], "prize_shares: at least one place wins a share above 0"),
        ([50, -5], "invalid request: prize_shares.1: Input should be greater than or equal to 0"),
    ],
)
def test_impossible_prize_shares_are_refused_in_the_site_s_words(
    world: World, shares: list[int], said: str
) -> None:
    body = {
        "name": "Kupa",
        "game": "tabla",
        "format": "knockout",
        "match_lengths": [1],
        "prize_shares": shares,
    }
    refused = world.send("POST", "admin", "/api/federations/tbf/tournaments", body)
    assert refused.status_code == 422 and refused.json()["error"]["message"] == said, refused.text


def test_a_sponsor_adds_to_the_pool_and_the_final_table_is_paid_once(world: World) -> None:
    tournament = world.create(game="tabla", format="knockout", match_lengths=[1, 1], prize_shares=[70, 30])
    gift = {"sponsor": "Efes", "amount_cents": 1000, "reference": "contract-1"}
    url = f"/api/tournaments/{tournament}/sponsorships"
    for who in ("ali", "arbiter", "other_admin", "nobody"):
        assert world.send("POST", who, url, gift).status_code in (401, 403)
    assert world.send("POST", "admin", url, {**gift, "amount_cents": 0.5}).status_code == 422
    given = world.ok("POST", "admin", url, gift)
    assert given["pool"]["pool_cents"] == 1000 and not given["repeated"]
    again = world.ok("POST", "admin", url, gift)  # the same contract, recorded twice
    assert again["repeated"] and pool(world, tournament)["pool_cents"] == 1000
    assert isinstance(given["id"], int) and again["id"] == given["id"]  # one movement in the books
    # The same contract with another sum: refused, the pool as it was.
    changed = world.send("POST", "admin", url, {**gift, "amount_cents": 2000})
    assert changed.status_code == 409 and changed.json()["error"]["code"] == "conflict", changed.text
    said = changed.json()["error"]["message"]
    assert said == "the reference contract-1 is already booked for another movement"
    assert pool(world, tournament)["pool_cents"] == 1000
    # A tournament without prizes has no pool to add to.
    plain = world.create(game="tabla", format="knockout", match_lengths=[1])
    refused = world.send("POST", "admin", f"/api/tournaments/{plain}/sponsorships", gift)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "no_pool", refused.text
    final = run_to_the_end(world, tournament, bots=4)
    ranked = sorted(final["entrants"], key=lambda e: e["final_rank"])
    first, second = ranked[0]["name"], ranked[1]["name"]
    world.wait(tournament, lambda _: pool(world, tournament)["status"] == "paid", "the prizes")
    assert balance_of(world, "player", first) == 700 and balance_of(world, "player", second) == 300
    assert pool(world, tournament)["pool_cents"] == 0
    before = books(world)
    assert before["total_cents"] == 0

    async def pay_again() -> None:
        engine = open_engine(world.database_url)
        try:
            await asyncio.gather(
                *(pay_prizes(Ledger(sessions(engine)), sessions(engine), tournament) for _ in range(3))
            )
        finally:
            await engine.dispose()

    asyncio.run(pay_again())
    assert books(world) == before
    late = world.send("POST", "admin", url, {**gift, "reference": "contract-2"})
    assert late.status_code == 409


def test_the_arbiters_confirmation_of_the_last_result_pays_the_prizes(world: World) -> None:
    """People, not bots: the last match ends, its result awaits confirmation and nothing is
    paid; the arbiter's confirmation makes it official, finishes the tournament and pays
    the final table from the pool (RULES.md 11.4, 12)."""
    tournament = world.create(game="tabla", format="swiss", rounds=1, match_lengths=[1], prize_shares=[100])
    world.ok(
        "POST",
        "admin",
        f"/api/tournaments/{tournament}/sponsorships",
        {"sponsor": "Efes", "amount_cents": 2500, "reference": "cup"},
    )
    enter_people(world, tournament, ("ali", "bora"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    board = only_board(world.view(tournament))
    resign(world, board["game_id"], board["black"], board["white"])
    shown = world.wait(tournament, lambda v: only_board(v)["result"] is not None, "the result")
    assert only_board(shown)["result"] == "white" and shown["state"] == "running"
    assert pool(world, tournament)["status"] != "paid" and balance_of(world, "player", board["white"]) == 0
    world.ok("POST", "arbiter", f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm")
    assert world.view(tournament)["state"] == "finished"
    world.wait(tournament, lambda _: pool(world, tournament)["status"] == "paid", "the prizes")
    assert balance_of(world, "player", board["white"]) == 2500
    assert balance_of(world, "player", board["black"]) == 0
    assert books(world)["total_cents"] == 0


@pytest.mark.parametrize("reference", [None, "contract-9"])
def test_a_sponsorship_meeting_a_closed_pool_takes_the_sponsor_s_money_back_out(
    world: World, reference: str | None
) -> None:
    """The pool closes (prizes paid) between the sponsorship's check of the tournament and
    its booking: refused, and the sponsor's deposit goes back out, however often sent."""
    tournament = world.create(game="tabla", format="knockout", match_lengths=[1], prize_shares=[100])

    async def close_the_pool() -> None:
        engine = open_engine(world.database_url)
        try:
            await Ledger(sessions(engine)).cancel_tournament(f"t{tournament}", actor="test")
        finally:
            await engine.dispose()

    asyncio.run(close_the_pool())
    gift = {"sponsor": "Efes", "amount_cents": 1000, "reference": reference}
    for _ in range(2):
        refused = world.send("POST", "admin", f"/api/tournaments/{tournament}/sponsorships", gift)
        assert refused.status_code == 409 and refused.json()["error"] == {
            "code": "finished",
            "message": "not now: the tournament's prize pool is closed",
        }, refused.text
        assert balance_of(world, "sponsor", "Efes") == 0 and books(world)["total_cents"] == 0
        assert pool(world, tournament)["pool_cents"] == 0
    if reference is not None:
        # The reference is spent: another tournament's pool does not take it either.
        other = world.create(game="tabla", format="knockout", match_lengths=[1], prize_shares=[100])
        again = world.send("POST", "admin", f"/api/tournaments/{other}/sponsorships", gift)
        assert again.status_code == 409 and again.json()["error"] == {
            "code": "conflict",
            "message": "the reference contract-9 is already booked for another movement",
        }, again.text
        assert pool(world, other)["pool_cents"] == 0 and books(world)["total_cents"] == 0
