"""Tournaments on the server (docs/tournaments.md): run through the API to their final
standings with bot entrants, results confirmed by both players or an arbiter, and
every forbidden action refused with nothing changed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, insert, text, update
from tests.server.federation_world import sync_url
from tests.server.play import Seat
from tests.server.test_i18n import untranslated
from tests.server.tournament_world import World, build_world

from tavla.server.i18n import translate, translations
from tavla.server.i18n_catalog import translated_languages
from tavla.storage.database import _alembic_config
from tavla.storage.models import TournamentPairing, User
from tavla.tournament.dutch import pair_round
from tavla.tournament.trf import read_trf


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    yield from build_world(database_url)


def run_to_the_end(world: World, tournament: int, bots: int, level: str = "beginner") -> dict[str, Any]:
    """Open registration, enter ``bots`` bots, open check-in and play every round."""
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/registration")
    for _ in range(bots):
        world.ok("POST", "admin", f"/api/tournaments/{tournament}/bots", {"level": level})
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/check-in")
    number = 0
    while True:
        number = world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")["round"]
        shown = world.wait_round_official(tournament, number)
        if shown["rounds"] is not None and number >= shown["rounds"]:
            # The last round: its results and the final table are written together.
            return world.wait(tournament, lambda v: v["state"] == "finished", "the tournament finishing")


def test_a_six_player_swiss_abluka_tournament_of_bots_runs_to_its_final_standings(world: World) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=3, match_lengths=[1])
    final = run_to_the_end(world, tournament, bots=6)
    assert final["state"] == "finished" and final["current_round"] == 3 and final["rounds"] == 3
    rounds = final["played_rounds"]
    assert [len(r["pairings"]) for r in rounds] == [3, 3, 3]
    met = set()
    for played in rounds:
        boards = played["pairings"]
        assert sorted(n for p in boards for n in (p["white_number"], p["black_number"])) == [1, 2, 3, 4, 5, 6]
        for pairing in boards:
            assert pairing["official"] and pairing["white_confirmed"] and pairing["black_confirmed"]
            assert pairing["result"] in ("white", "black")
            assert pairing["game_url"] == f"/game/{pairing['game_id']}"
            pair = frozenset((pairing["white_number"], pairing["black_number"]))
            assert pair not in met  # no pair meets twice (RULES 11.3)
            met.add(pair)
    # The games are the federation's, finished; one match point per game.
    games = world.games(tournament)
    assert len(games) == 9 and {status for _, status in games.values()} == {"finished"}
    assert len({federation for federation, _ in games.values()}) == 1
    standings = final["standings"]
    assert sum(line["points"] for line in standings) == 9
    assert sum(line["sets_won"] for line in standings) == 9  # one set a match: the winner's
    assert [line["rank"] for line in standings] == sorted(line["rank"] for line in standings)
    assert standings[0]["points"] >= standings[-1]["points"]
    ranks = {e["start_number"]: e["final_rank"] for e in final["entrants"]}
    assert ranks == {line["number"]: line["rank"] for line in standings}
    the_report_pairs_again_as_the_server_did(world, tournament, final)


def the_report_pairs_again_as_the_server_did(world: World, tournament: int, final: dict[str, Any]) -> None:
    """The TRF export holds the rounds: the Dutch pairing of each round from it is the
    pairing the server made, and its points are the standings'."""
    response = world.site.as_(None).get(f"/api/tournaments/{tournament}/trf")
    assert response.status_code == 200 and response.text.startswith("012 Kupa\nXXR 3\nXXC white1\n")
    report = read_trf(response.text)
    assert report.total_rounds == 3 and report.played_rounds == 3
    for played in final["played_rounds"]:
        again = pair_round(report.entrants, played["number"] - 1, 3, first_colour=report.first_colour)
        stored = tuple((p["white_number"], p["black_number"]) for p in played["pairings"])
        assert again.games == stored and again.bye is None
    points = {line["number"]: line["points"] for line in final["standings"]}
    assert {e.number: e.points for e in report.entrants} == points


def test_a_four_player_knockout_of_bots_ends_with_the_champion_first(world: World) -> None:
    tournament = world.create(game="tabla", format="knockout", match_lengths=[1, 1])
    final = run_to_the_end(world, tournament, bots=4)
    assert final["rounds"] == 2 and [len(r["pairings"]) for r in final["played_rounds"]] == [2, 1]
    first = final["played_rounds"][0]["pairings"]
    # Seeds 1-4 and 2-3 in round 1 (knockout.py's bracket); the final is their winners'.
    assert {(p["white_number"], p["black_number"]) for p in first} == {(1, 4), (2, 3)}
    winners = {p["white_number"] if p["result"] == "white" else p["black_number"] for p in first}
    final_match = final["played_rounds"][1]["pairings"][0]
    assert {final_match["white_number"], final_match["black_number"]} == winners
    champion = (
        final_match["white_number"] if final_match["result"] == "white" else final_match["black_number"]
    )
    places = {line["number"]: line["rank"] for line in final["standings"]}
    assert places[champion] == 1 and sorted(places.values()) == [1, 2, 3, 3]
    assert sorted(e["final_rank"] for e in final["entrants"]) == [1, 2, 3, 3]
    no_report = world.site.as_(None).get(f"/api/tournaments/{tournament}/trf")
    assert (no_report.status_code, no_report.json()["error"]["code"]) == (409, "not_swiss")  # Swiss only


def test_a_round_robin_of_three_bots_rests_one_player_each_round(world: World) -> None:
    tournament = world.create(game="abluka", format="round_robin", match_lengths=[1])
    final = run_to_the_end(world, tournament, bots=3)
    assert final["rounds"] == 3
    met = set()
    for played in final["played_rounds"]:
        games = [p for p in played["pairings"] if p["black"] is not None]
        rests = [p for p in played["pairings"] if p["black"] is None]
        assert len(games) == 1 and len(rests) == 1 and rests[0]["result"] == "bye"
        met.add(frozenset((games[0]["white_number"], games[0]["black_number"])))
    assert met == {frozenset(p) for p in ((1, 2), (1, 3), (2, 3))}  # everyone met everyone
    assert sum(line["points"] for line in final["standings"]) == 3  # a rest scores nothing
    # A bot entrant is an account that plays under its own name, not the site's bot.
    for game_id in world.games(tournament):
        summary = world.site.as_(None).get(f"/api/games/{game_id}").json()
        assert summary["bots"] == [None, None] and all(summary["players"]), summary


def test_bot_entrants_are_numbered_by_level_past_the_names_people_took(world: World) -> None:
    """Each bot entrant is an account named by its level and number; a name an account
    already has is passed over, and a later tournament enters the same accounts."""
    # A person's account from before such names were kept for the bots (accounts.py).
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.begin() as connection:
            connection.execute(
                insert(User).values(name="Bot-Beginner-2", name_key="bot-beginner-2", created_ms=0)
            )
    finally:
        engine.dispose()
    first = world.create(game="abluka", format="round_robin", match_lengths=[1])
    world.ok("POST", "admin", f"/api/tournaments/{first}/registration")

    def enter(tournament: int, level: str) -> str:
        return str(world.ok("POST", "admin", f"/api/tournaments/{tournament}/bots", {"level": level})["name"])

    assert [enter(first, "beginner"), enter(first, "beginner"), enter(first, "hard")] == [
        "bot-beginner-1",
        "bot-beginner-3",
        "bot-hard-1",
    ]
    second = world.create(game="abluka", format="round_robin", match_lengths=[1])
    world.ok("POST", "admin", f"/api/tournaments/{second}/registration")
    assert [enter(second, "beginner"), enter(second, "beginner"), enter(second, "beginner")] == [
        "bot-beginner-1",
        "bot-beginner-3",
        "bot-beginner-4",
    ]


def enter_people(world: World, tournament: int, names: tuple[str, ...]) -> None:
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/registration")
    for name in names:
        world.ok("PUT", name, f"/api/tournaments/{tournament}/entrants/me")
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/check-in")
    for name in names:
        world.ok("POST", name, f"/api/tournaments/{tournament}/entrants/me/check-in")


def in_play(state: dict[str, Any]) -> bool:
    return state["match"]["phase"] in ("roll", "move")


def resign(world: World, game: str, loser: str, winner: str) -> None:
    """``loser`` resigns the game (an Abluka set) and ``winner`` accepts."""
    with (
        world.site.as_(world.people[loser]).websocket_connect(f"/ws/game/{game}") as giving_up,
        world.site.as_(world.people[winner]).websocket_connect(f"/ws/game/{game}") as taking,
    ):
        resigning, accepting = Seat(giving_up), Seat(taking)
        resigning.wait(in_play)  # the first game begins when both have come (RULES.md 11.4)
        assert resigning.send({"kind": "resign"})["type"] == "ack"
        accepting.wait(lambda state: state["match"]["phase"] == "resign")
        assert accepting.send({"kind": "accept"})["type"] == "ack"
        accepting.wait(lambda state: state["match"]["over"])


def only_board(shown: dict[str, Any]) -> dict[str, Any]:
    boards: list[dict[str, Any]] = shown["played_rounds"][-1]["pairings"]
    assert len(boards) == 1
    return boards[0]


CONFIRM_REFUSED = {
    "nobody": 401,  # no session
    "outsider": 403,  # no role in tbf
    "cem": 403,  # a player of tbf, not in this match
    "admin": 403,  # an administrator is not an arbiter
    "other_admin": 403,  # another federation's
    "owner": 403,  # the site owner has no power inside a federation
}


def test_a_result_needs_both_players_confirmations_and_refusals_change_nothing(world: World) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=1, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    board = only_board(world.view(tournament))
    assert (board["white"], board["black"]) == ("ali", "bora")  # equal ratings: by name
    confirm = f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm"
    early = world.send("POST", "ali", confirm)
    assert early.status_code == 409 and early.json()["error"] == {
        "code": "no_result",
        "message": "the match has no result yet",
    }
    resign(world, board["game_id"], loser="ali", winner="bora")
    shown = world.wait(tournament, lambda v: only_board(v)["result"] is not None, "the result")
    board = only_board(shown)
    assert board["result"] == "black" and not board["official"]
    assert not board["white_confirmed"] and not board["black_confirmed"]  # people confirm themselves
    assert shown["standings_after"] == 0 and shown["state"] == "running"
    before = world.snapshot()
    for who, status in CONFIRM_REFUSED.items():
        assert world.send("POST", who, confirm).status_code == status, who
    assert world.snapshot() == before
    assert world.ok("POST", "ali", confirm)["white_confirmed"]
    shown = world.view(tournament)
    assert not only_board(shown)["official"] and shown["state"] == "running"
    # The black player's page offers him his board's confirmation; another player's does not.
    assert f'data-url="{confirm}"' in page(world, "bora", f"/tournaments/{tournament}").text
    assert f'data-url="{confirm}"' not in page(world, "cem", f"/tournaments/{tournament}").text
    after_one = world.ok("POST", "bora", confirm)
    assert after_one["official"] and after_one["confirmed_by_arbiter"] is None
    final = world.view(tournament)
    assert final["state"] == "finished"
    assert [(line["name"], line["rank"]) for line in final["standings"]] == [("bora", 1), ("ali", 2)]


def test_a_bye_is_official_from_the_start_and_confirming_it_changes_nothing(world: World) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=1, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora", "cem"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    (bye,) = [b for b in world.view(tournament)["played_rounds"][-1]["pairings"] if b["black"] is None]
    assert bye["result"] == "bye" and bye["official"]
    confirm = f"/api/tournaments/{tournament}/pairings/{bye['id']}/confirm"
    before = world.snapshot()
    for who in (bye["white"], "arbiter"):
        answer = world.ok("POST", who, confirm)
        assert answer["official"] and answer["result"] == "bye" and answer["confirmed_by_arbiter"] is None
    assert world.snapshot() == before


def test_an_arbiter_makes_a_result_official_alone(world: World) -> None:
    tournament = world.create(game="abluka", format="knockout", match_lengths=[1])
    enter_people(world, tournament, ("cem", "deniz"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    board = only_board(world.view(tournament))
    resign(world, board["game_id"], loser="deniz", winner="cem")
    world.wait(tournament, lambda v: only_board(v)["result"] is not None, "the result")
    confirmed = world.ok("POST", "arbiter", f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm")
    assert confirmed["official"] and confirmed["confirmed_by_arbiter"] == "arbiter"
    assert not confirmed["white_confirmed"] and not confirmed["black_confirmed"]
    final = world.view(tournament)
    assert final["state"] == "finished"
    assert {e["name"]: e["final_rank"] for e in final["entrants"]} == {"cem": 1, "deniz": 2}


def refused(world: World, who: str, method: str, url: str, status: int, body: Any = None) -> Any:
    """``who`` tries; the answer is ``status`` and no tournament row changed. The answer."""
    before = world.snapshot()
    response = world.send(method, who, url, body)
    assert response.status_code == status, (who, url, response.text)
    assert world.snapshot() == before, (who, url)
    return response


NOT_ADMINISTRATORS = {
    "nobody": 401,
    "ali": 403,
    "arbiter": 403,
    "outsider": 403,
    "other_admin": 403,
    "owner": 403,
}


def test_only_the_federations_administrators_run_its_tournaments(world: World) -> None:
    create = "/api/federations/tbf/tournaments"
    for who, status in NOT_ADMINISTRATORS.items():
        refused(world, who, "POST", create, status, {"name": "Kupa", "format": "swiss", "rounds": 3})
    tournament = world.create(game="tabla", format="swiss", rounds=1, match_lengths=[1])
    base = f"/api/tournaments/{tournament}"
    for who, status in NOT_ADMINISTRATORS.items():
        refused(world, who, "POST", f"{base}/registration", status)
    refused(world, "ali", "PUT", f"{base}/entrants/me", 409)  # not open yet
    refused(world, "admin", "POST", f"{base}/check-in", 409)  # registration comes first
    world.ok("POST", "admin", f"{base}/registration")
    for who, status in NOT_ADMINISTRATORS.items():
        refused(world, who, "POST", f"{base}/bots", status, {"level": "beginner"})
        refused(world, who, "POST", f"{base}/check-in", status)
    # Only the federation's players enter (its administrators and arbiters are not players).
    for who, status in {
        "nobody": 401,
        "outsider": 403,
        "admin": 403,
        "arbiter": 403,
        "other_admin": 403,
    }.items():
        refused(world, who, "PUT", f"{base}/entrants/me", status)
    anonymous = refused(world, "nobody", "PUT", f"{base}/entrants/me", 401)
    assert anonymous.json()["error"]["message"] == "sign in (or play as a guest) first"
    world.ok("PUT", "ali", f"{base}/entrants/me")
    refused(world, "ali", "PUT", f"{base}/entrants/me", 409)  # once is enough
    refused(world, "ali", "POST", f"{base}/entrants/me/check-in", 409)  # check-in is not open
    refused(world, "bora", "POST", f"{base}/entrants/me/check-in", 404)  # not registered
    world.ok("PUT", "bora", f"{base}/entrants/me")
    world.ok("POST", "admin", f"{base}/check-in")
    refused(world, "cem", "PUT", f"{base}/entrants/me", 409)  # registration is closed
    world.ok("POST", "ali", f"{base}/entrants/me/check-in")
    for who, status in NOT_ADMINISTRATORS.items():
        refused(world, who, "POST", f"{base}/rounds", status)
    refused(world, "admin", "POST", f"{base}/rounds", 409)  # only ali checked in: no field
    world.ok("POST", "bora", f"{base}/entrants/me/check-in")
    world.ok("POST", "admin", f"{base}/rounds")
    refused(world, "admin", "POST", f"{base}/rounds", 409)  # round 1 is not official yet
    # Withdrawing once it runs is for good, not a refund (test_tournament_withdrawals.py);
    # somebody who takes no part has nothing to withdraw from.
    refused(world, "cem", "DELETE", f"{base}/entrants/me", 404)


def test_a_tournament_refuses_impossible_settings(world: World) -> None:
    create = "/api/federations/tbf/tournaments"
    # Each refusal names the setting at fault, as the form's field is named.
    for choice, field in (
        ({"name": "Kupa", "game": "chess"}, "game"),
        ({"name": "Kupa", "format": "ladder"}, "format"),
        ({"name": "Kupa", "format": "swiss"}, "rounds"),  # a Swiss tournament needs its rounds
        ({"name": "Kupa", "format": "knockout", "rounds": 3}, "rounds"),
        ({"name": "Kupa", "format": "swiss", "rounds": 3, "match_lengths": [1, 3]}, "match_lengths"),
        ({"name": "Kupa", "format": "knockout", "match_lengths": [0]}, "match_lengths"),
        ({"name": "K", "format": "knockout"}, "name"),
        ({"name": "Kupa", "game": "abluka", "format": "knockout", "match_lengths": [2]}, "match_lengths"),
    ):
        answer = refused(world, "admin", "POST", create, 422, choice)
        assert answer.json()["error"]["message"].startswith(f"{field}: "), (choice, answer.text)
    too_long = {"name": "Kupa", "format": "knockout", "match_lengths": [26]}
    said = refused(world, "admin", "POST", create, 422, too_long).json()["error"]["message"]
    assert said == "match_lengths: each length is 1 to 25"
    # The longest match the site plays is allowed.
    world.create(game="tabla", format="knockout", match_lengths=[25])


def page(world: World, who: str, path: str, language: str = "en") -> Any:
    """``path`` as ``who`` reads it in ``language`` (an account reads its own language)."""
    player = world.people[who]
    if player is None:
        return world.site.as_(None).get(path, params={"lang": language})
    world.ok("PUT", who, "/api/me/preferences", {"language": language})
    try:
        return world.site.as_(player).get(path)
    finally:
        world.ok("PUT", who, "/api/me/preferences", {"language": "en"})


def test_the_pages_show_the_tournament_to_everybody_and_its_running_to_its_officials(world: World) -> None:
    assert 'id="create-tournament"' in page(world, "admin", "/federations/tbf/admin").text
    tournament = world.create(game="abluka", format="knockout", match_lengths=[1])
    assert f'href="/tournaments/{tournament}"' in page(world, "nobody", "/federations/tbf").text
    admin_page = f"/tournaments/{tournament}/admin"
    assert 'id="open-registration"' in page(world, "admin", admin_page).text
    final = run_to_the_end(world, tournament, bots=2)
    public = page(world, "nobody", f"/tournaments/{tournament}")
    assert public.status_code == 200
    assert f'data-version="{final["version"]}"' in public.text and "/static/tournament.js" in public.text
    assert 'id="trf"' not in public.text  # a knockout has no TRF report
    board = final["played_rounds"][0]["pairings"][0]
    assert f'href="/game/{board["game_id"]}"' in public.text and 'id="standings"' in public.text
    for entrant in final["entrants"]:
        assert f'href="/u/{entrant["name"]}"' in public.text
    assert page(world, "admin", admin_page).status_code == 200
    assert page(world, "arbiter", admin_page).status_code == 200
    assert 'id="open-registration"' not in page(world, "arbiter", admin_page).text
    for who in ("nobody", "ali", "outsider", "other_admin", "owner"):
        refused_page = page(world, who, admin_page)
        assert refused_page.status_code == 403, who
        assert "only the administrators and arbiters of Türkiye Tavla Federasyonu" in refused_page.text


def test_a_player_registers_checks_in_and_confirms_on_the_pages(world: World) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=1, match_lengths=[1])
    path = f"/tournaments/{tournament}"
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/registration")
    assert 'id="register"' in page(world, "ali", path).text
    assert 'id="register"' not in page(world, "outsider", path).text  # not a player of tbf
    for name in ("ali", "bora"):
        world.ok("PUT", name, f"/api/tournaments/{tournament}/entrants/me")
    assert 'id="register"' not in page(world, "ali", path).text  # done
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/check-in")
    assert 'id="check-in"' in page(world, "ali", path).text
    for name in ("ali", "bora"):
        world.ok("POST", name, f"/api/tournaments/{tournament}/entrants/me/check-in")
    assert 'id="check-in"' not in page(world, "ali", path).text
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    board = only_board(world.view(tournament))
    resign(world, board["game_id"], loser="bora", winner="ali")
    world.wait(tournament, lambda v: only_board(v)["result"] is not None, "the result")
    confirm = f'data-url="/api/tournaments/{tournament}/pairings/{board["id"]}/confirm"'
    assert confirm in page(world, "ali", path).text
    assert confirm not in page(world, "cem", path).text and confirm not in page(world, "nobody", path).text
    assert confirm in page(world, "arbiter", f"{path}/admin").text
    assert confirm not in page(world, "admin", f"{path}/admin").text  # not an arbiter


@pytest.mark.parametrize("language", translated_languages())
def test_the_tournament_pages_have_no_english_left(world: World, language: str) -> None:
    tournament = world.create(game="abluka", format="swiss", rounds=1, match_lengths=[1])
    final = run_to_the_end(world, tournament, bots=2)
    names = (*(e["name"] for e in final["entrants"]), "Kupa")
    for who, path in (
        ("nobody", f"/tournaments/{tournament}"),
        ("admin", f"/tournaments/{tournament}/admin"),
        ("arbiter", f"/tournaments/{tournament}/admin"),
        ("admin", "/federations/tbf/admin"),
        ("nobody", "/federations/tbf"),
    ):
        shown = page(world, who, path, language)
        assert shown.status_code == 200 and f'<html lang="{language}">' in shown.text, (who, path)
        assert translate(language, "Final standings") in shown.text or "federations" in path
        assert untranslated(language, shown.text, names) == [], (who, path)
        if path == f"/tournaments/{tournament}":
            # A round's tables are not the game's board: "Masa", not "Tahta".
            table = translations(language).pgettext("a pairing's table in a round", "Board")
            assert table != translations(language).gettext("Board")
            assert f"<th>{table}</th>" in shown.text and f'data-label="{table}"' in shown.text
    english = page(world, "nobody", f"/tournaments/{tournament}", "en").text
    assert len(untranslated(language, english, names)) > 10  # the check sees English where it is
    assert "<th>Board</th>" in english


def test_a_result_missed_while_nobody_listened_is_recorded_at_start_up(world: World) -> None:
    """The director records at start-up the games that ended between their last change
    and the result (a stop at the wrong moment): here the result is wiped by hand."""
    tournament = world.create(game="abluka", format="swiss", rounds=1, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    board = only_board(world.view(tournament))
    resign(world, board["game_id"], loser="bora", winner="ali")
    world.wait(tournament, lambda v: only_board(v)["result"] is not None, "the result")
    engine = create_engine(sync_url(world.database_url))
    with engine.begin() as connection:
        connection.execute(update(TournamentPairing).values(result=None, white_score=0, black_score=0))
    engine.dispose()
    assert only_board(world.view(tournament))["result"] is None
    platform = world.site.platform
    assert world.site.portal.call(platform.tournaments.catch_up) == 1
    recorded = only_board(world.view(tournament))
    assert (recorded["result"], recorded["white_score"], recorded["black_score"]) == ("white", 1, 0)
    assert world.site.portal.call(platform.tournaments.catch_up) == 0


def test_migration_0004_keeps_accounts_and_goes_back(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+pysqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "0003")
        connection.execute(
            text(
                "INSERT INTO users (id, name, name_key, guest, language, home_side, created_ms, site_owner)"
                " VALUES (1, 'ayse', 'ayse', 0, 'tr', 'right', 0, 0)"
            )
        )
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "head")
        assert connection.execute(text("SELECT bot_level FROM users")).scalar_one() is None
        assert connection.execute(text("SELECT count(*) FROM tournaments")).scalar_one() == 0
    with engine.begin() as connection:
        command.downgrade(_alembic_config(connection), "0003")
        assert connection.execute(text("SELECT name FROM users")).scalar_one() == "ayse"
        tables = connection.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'")).scalars()
        assert not any(name.startswith("tournament") for name in tables)
    engine.dispose()
