"""Withdrawing from a running tournament (docs/tournaments.md, "Withdrawals"): the
open match is forfeited (live game or not), later rounds leave the player out (Swiss)
or give his opponents forfeit wins (knockout, round robin), forfeits are unrated, the
standings keep him marked, and every forbidden withdrawal is refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, func, select, text, update
from tests.server.federation_world import sync_url
from tests.server.test_tournaments import enter_people, page, refused, resign
from tests.server.tournament_world import World, build_world

from tavla.server.i18n import translate
from tavla.storage.database import _alembic_config
from tavla.storage.models import GameAction, LiveGame, RatingChange, TournamentPairing


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    yield from build_world(database_url)


def boards(shown: dict[str, Any], number: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = shown["played_rounds"][number - 1]["pairings"]
    return found


def board_of(shown: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in boards(shown, shown["current_round"]) if name in (p["white"], p["black"]))


def query(world: World, statement: Any) -> list[Any]:
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            return list(connection.execute(statement))
    finally:
        engine.dispose()


def rating_changes(world: World) -> int:
    return int(query(world, select(func.count()).select_from(RatingChange))[0][0])


def entrant(shown: dict[str, Any], name: str) -> dict[str, Any]:
    return next(e for e in shown["entrants"] if e["name"] == name)


def play_out(world: World, tournament: int, loser: str, winner: str) -> None:
    """``loser`` resigns the board he plays against ``winner`` and both confirm it."""
    board = board_of(world.view(tournament), loser)
    resign(world, board["game_id"], loser=loser, winner=winner)
    world.wait(tournament, lambda v: board_of(v, loser)["result"] is not None, "the result")
    for name in (loser, winner):
        world.ok("POST", name, f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm")


def test_a_swiss_player_who_withdraws_forfeits_his_game_and_is_paired_no_more(world: World) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=2, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora", "cem", "deniz"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    shown = world.view(tournament)
    # Equal ratings: numbered by name; round 1 pairs 1-3 and 4-2 (FIDE Dutch).
    assert [(p["white"], p["black"]) for p in boards(shown, 1)] == [("ali", "cem"), ("deniz", "bora")]
    ali_game = board_of(shown, "ali")["game_id"]

    world.ok("DELETE", "ali", f"/api/tournaments/{tournament}/entrants/me")
    shown = world.view(tournament)
    forfeited = board_of(shown, "ali")
    assert forfeited["result"] == "black_ff" and forfeited["official"]  # cem wins, at once
    assert entrant(shown, "ali")["withdrawn"] and entrant(shown, "ali")["withdrawn_round"] == 1
    status = query(world, select(LiveGame.status, LiveGame.winner).where(LiveGame.id == ali_game))
    assert status == [("finished", 1)]
    actions = select(GameAction.kind).where(GameAction.game_id == ali_game)
    last = query(world, actions.order_by(GameAction.index.desc()).limit(1))
    assert last == [("forfeit",)]  # the room's forfeit ended the match, not a resignation
    assert board_of(shown, "bora")["result"] is None  # the other board plays on

    # Twice, or back in: refused, nothing changes.
    refused(world, "ali", "DELETE", f"/api/tournaments/{tournament}/entrants/me", 409)
    refused(world, "ali", "PUT", f"/api/tournaments/{tournament}/entrants/me", 409)
    # The arbiter withdraws deniz (start number 4), saying why; his live game is bora's.
    withdrawal = f"/api/tournaments/{tournament}/players/4/withdrawal"
    silent = refused(world, "arbiter", "POST", withdrawal, 422, {"reason": "  "})
    assert silent.json()["error"]["message"] == "reason: an official who withdraws a player says why"
    world.ok("POST", "arbiter", withdrawal, {"reason": "ill"})
    shown = world.view(tournament)
    assert board_of(shown, "bora")["result"] == "black_ff" and board_of(shown, "bora")["official"]
    assert entrant(shown, "deniz")["withdrawn_note"] == "ill"
    assert rating_changes(world) == 0  # a round of forfeits rates nobody

    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    shown = world.view(tournament)
    assert [{p["white"], p["black"]} for p in boards(shown, 2)] == [{"bora", "cem"}]  # the two left
    play_out(world, tournament, loser="bora", winner="cem")
    final = world.view(tournament)
    assert final["state"] == "finished"
    lines = {line["name"]: line for line in final["standings"]}
    assert lines["ali"]["withdrawn"] and lines["deniz"]["withdrawn"] and not lines["cem"]["withdrawn"]
    assert (lines["cem"]["points"], lines["bora"]["points"], lines["ali"]["points"]) == (2, 1, 0)
    assert rating_changes(world) == 2  # round 2's game alone: bora and cem
    trf = world.site.as_(None).get(f"/api/tournaments/{tournament}/trf").text
    ali_line = next(line for line in trf.splitlines() if "ali" in line)
    # A forfeit lost to cem (3), no colour as no game counts, then absent (Z) in round 2.
    assert ali_line.rstrip().endswith("   3 - -  0000 - Z")
    public = page(world, "nobody", f"/tournaments/{tournament}", "tr").text
    assert translate("tr", "withdrawn") in public


def test_a_knockout_opponent_of_a_withdrawn_player_goes_on_without_playing(world: World) -> None:
    tournament = world.create(game="abluka", format="knockout", match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora", "cem", "deniz"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    shown = world.view(tournament)
    assert [(p["white"], p["black"]) for p in boards(shown, 1)] == [("ali", "deniz"), ("bora", "cem")]
    withdrawal = f"/api/tournaments/{tournament}/players/4/withdrawal"
    world.ok("POST", "admin", withdrawal, {"reason": "did not come"})
    assert board_of(world.view(tournament), "ali")["result"] == "white_ff"
    play_out(world, tournament, loser="cem", winner="bora")
    # bora withdraws before the final is made: it is made decided, without a game.
    world.ok("DELETE", "bora", f"/api/tournaments/{tournament}/entrants/me")
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    final = world.view(tournament)
    (board,) = boards(final, 2)
    assert (board["white"], board["black"], board["result"]) == ("ali", "bora", "white_ff")
    assert board["game_id"] is None and board["official"]
    assert final["state"] == "finished"
    ranks = {e["name"]: e["final_rank"] for e in final["entrants"]}
    assert ranks == {"ali": 1, "bora": 2, "cem": 3, "deniz": 3}


def test_round_robin_games_of_a_withdrawn_player_are_forfeit_wins_without_a_game(world: World) -> None:
    tournament = world.create(game="abluka", format="round_robin", match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora", "cem"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    rest = next(p for p in boards(world.view(tournament), 1) if p["black"] is None)["white"]
    playing = sorted({"ali", "bora", "cem"} - {rest})
    world.ok("DELETE", playing[0], f"/api/tournaments/{tournament}/entrants/me")
    leaver = playing[0]
    for number in (2, 3):
        world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
        for board in boards(world.view(tournament), number):
            if board["black"] is None:
                continue  # a rest (the leaver's too) stays a rest
            if leaver in (board["white"], board["black"]):
                assert board["game_id"] is None and board["official"]
                assert board["result"] == ("black_ff" if board["white"] == leaver else "white_ff")
            else:
                play_out(world, tournament, loser=board["black"], winner=board["white"])
    final = world.view(tournament)
    assert final["state"] == "finished"
    leaver_line = next(line for line in final["standings"] if line["name"] == leaver)
    assert leaver_line["points"] == 0 and leaver_line["withdrawn"]
    assert sum(line["points"] for line in final["standings"]) == 3  # three matches, each decided


def test_a_board_still_without_its_game_gets_the_forfeit_directly(world: World) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=1, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    engine = create_engine(sync_url(world.database_url))
    with engine.begin() as connection:  # as a start that failed before making the game
        connection.execute(update(TournamentPairing).values(game_id=None))
    engine.dispose()
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/players/2/withdrawal", {"reason": "left"})
    final = world.view(tournament)
    (board,) = boards(final, 1)
    assert board["result"] == "white_ff" and board["official"] and final["state"] == "finished"


WITHDRAWAL_REFUSED = {
    "nobody": 401,
    "bora": 403,  # another player
    "outsider": 403,  # no role in tbf
    "other_admin": 403,  # another federation's administrator
    "owner": 403,  # the site owner has no power inside a federation
}


def test_only_the_player_or_an_official_of_the_federation_withdraws_him(world: World) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=1, match_lengths=[1])
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/registration")
    world.ok("PUT", "admin", "/api/federations/tbf/players/arbiter")
    enter_people_from_registration = ("ali", "bora", "arbiter")
    for name in enter_people_from_registration:
        world.ok("PUT", name, f"/api/tournaments/{tournament}/entrants/me")
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/check-in")
    official = f"/api/tournaments/{tournament}/players/1/withdrawal"
    refused(world, "admin", "POST", official, 409, {"reason": "too early"})  # check-in: not running
    for name in enter_people_from_registration:
        world.ok("POST", name, f"/api/tournaments/{tournament}/entrants/me/check-in")
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    for who, status in WITHDRAWAL_REFUSED.items():
        refused(world, who, "POST", official, status, {"reason": "because"})
    refused(world, "arbiter", "POST", official, 403, {"reason": "a rival"})  # he plays in it himself
    refused(world, "cem", "DELETE", f"/api/tournaments/{tournament}/entrants/me", 404)  # not entered
    nobody_nine = f"/api/tournaments/{tournament}/players/9/withdrawal"
    refused(world, "admin", "POST", nobody_nine, 404, {"reason": "x"})
    path = f"/tournaments/{tournament}"
    own = page(world, "ali", path).text
    assert 'id="withdraw"' in own and "data-confirm=" in own
    assert 'id="withdraw"' not in page(world, "cem", path).text
    assert 'id="withdrawals"' in page(world, "admin", f"{path}/admin").text
    assert 'id="withdrawals"' not in page(world, "arbiter", f"{path}/admin").text


def test_migration_0007_adds_the_withdrawal_columns_and_goes_back(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+pysqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "0005")
        connection.execute(
            text(
                "INSERT INTO users (id, name, name_key, guest, language, home_side, created_ms, site_owner)"
                " VALUES (1, 'ayse', 'ayse', 0, 'tr', 'right', 0, 0)"
            )
        )
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "0007")
        columns = {row[1] for row in connection.execute(text("PRAGMA table_info(tournament_entrants)"))}
        assert {"withdrawn_round", "withdrawn_by", "withdrawn_note"} <= columns
    with engine.begin() as connection:
        command.downgrade(_alembic_config(connection), "0005")
        columns = {row[1] for row in connection.execute(text("PRAGMA table_info(tournament_entrants)"))}
        assert "withdrawn_note" not in columns and "withdrawn" in columns
        assert connection.execute(text("SELECT name FROM users")).scalar_one() == "ayse"
    engine.dispose()
