"""A Swiss tournament made from a TRF16 report (docs/tournaments.md, "Importing a TRF
file"): exported after three rounds and imported again it has the same standings and
pairs the same next round; players are matched to the federation's players or enter as
guest entrants; a file that cannot be used is refused, naming the line, and creates
nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select
from tests.server.federation_world import sync_url
from tests.server.test_tournaments import refused
from tests.server.tournament_world import World, build_world

from tavla.server.tournaments.imports import player_lines
from tavla.storage.models import TournamentEntrant, User
from tavla.tournament.dutch import pair_round
from tavla.tournament.history import Colour, Entrant, Outcome, RoundEntry
from tavla.tournament.standings import standings
from tavla.tournament.trf import TrfPlayer, TrfTournament, read_trf, write_trf

IMPORT = "/api/federations/tbf/tournaments/import"


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    yield from build_world(database_url)


def boards(shown: dict[str, Any], number: int) -> list[tuple[int, int | None]]:
    return [(p["white_number"], p["black_number"]) for p in shown["played_rounds"][number - 1]["pairings"]]


def start_and_wait(world: World, tournament: int) -> int:
    number = int(world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")["round"])
    world.wait_round_official(tournament, number)
    return number


@pytest.mark.timeout(240)
def written(value: float) -> str:
    """Points and tie-breaks as the pages write them in English: "2.0", "1.5", "2.25"."""
    text = f"{value:.2f}"
    return text[:-1] if text.endswith("0") else text


def test_a_report_exported_after_three_rounds_imports_with_the_same_standings_and_next_round(
    world: World,
) -> None:
    original = world.create(game="abluka", format="swiss", rounds=4, match_lengths=[1])
    base = f"/api/tournaments/{original}"
    world.ok("POST", "admin", f"{base}/registration")
    for _ in range(8):  # (six can be left with no pairing for a fourth round)
        world.ok("POST", "admin", f"{base}/bots", {"level": "beginner"})
    world.ok("POST", "admin", f"{base}/check-in")
    for _ in range(3):
        start_and_wait(world, original)
    report = world.site.as_(None).get(f"{base}/trf").text
    assert read_trf(report).played_rounds == 3

    made = world.ok("POST", "admin", IMPORT, {"trf": report, "game": "abluka", "match_lengths": [1]})
    copy = int(made["id"])
    assert made["name"] == "Kupa" and made["format"] == "swiss" and made["state"] == "running"
    before, after = world.view(original), world.view(copy)
    assert (after["current_round"], after["standings_after"], after["rounds"]) == (3, 3, 4)
    assert after["standings"] == before["standings"]
    for number in (1, 2, 3):  # the same games (a report does not number the boards)
        assert sorted(boards(after, number)) == sorted(boards(before, number))
    # The bots are matched by name: the same accounts, still bots, who can play on.
    assert [(e["name"], e["start_number"], e["bot"]) for e in after["entrants"]] == [
        (e["name"], e["start_number"], e["bot"]) for e in before["entrants"]
    ]
    # Written back, the imported tournament is the same report.
    assert world.site.as_(None).get(f"/api/tournaments/{copy}/trf").text == report

    # Round 4 of both, and of `tavla pair` on the file, is one pairing.
    parsed = read_trf(report)
    expected = pair_round(parsed.entrants, 3, 4, frozenset(), parsed.first_colour)
    for tournament in (original, copy):
        assert world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds") == {"round": 4}
        assert boards(world.view(tournament), 4) == list(expected.games)
    final = world.wait(copy, lambda v: v["state"] == "finished", "the imported tournament finishing")
    assert sum(line["points"] for line in final["standings"]) == 16


def R(opponent: int | None, colour: str | None, outcome: Outcome) -> RoundEntry:
    return RoundEntry(opponent, None if colour is None else Colour(colour), outcome)


W, L, D, FW, FL = Outcome.WIN, Outcome.LOSS, Outcome.DRAW, Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS
U, H, Z = Outcome.PAIRING_BYE, Outcome.HALF_BYE, Outcome.ZERO_BYE
HAND_MADE = {
    # Two rounds of seven: a forfeit, a draw, two pairing byes, a half-point bye, an absence.
    1: ("ali", [R(5, "w", W), R(4, "b", L)]),
    2: ("outsider", [R(6, "w", FW), R(5, "b", W)]),
    3: ("Yılmaz, Ahmet", [R(7, "b", D), R(None, None, U)]),
    4: ("bora", [R(None, None, U), R(1, "w", W)]),
    5: ("Petrov, Ivan", [R(1, "b", L), R(2, "w", L)]),
    6: ("Demir, Cem", [R(2, "b", FL), R(None, None, H)]),
    7: ("Kaya, Elif", [R(3, "w", D), R(None, None, Z)]),
}


def hand_made(players: dict[int, tuple[str, list[RoundEntry]]] | None = None, first: str = "w") -> str:
    written = tuple(
        TrfPlayer(Entrant(number, name, 1600 - 10 * number, tuple(entries)))
        for number, (name, entries) in sorted((players or HAND_MADE).items())
    )
    return write_trf(TrfTournament(written, ("012 Ankara Açık",), total_rounds=4, first_colour=Colour(first)))


def user_of_entrant(world: World, tournament: int) -> dict[int | None, tuple[int, str, bool]]:
    """Start number (the column may be empty) -> the entrant's user: id, name, guest."""
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(TournamentEntrant.start_number, User.id, User.name, User.guest)
                .join(User, User.id == TournamentEntrant.user_id)
                .where(TournamentEntrant.tournament_id == tournament)
            )
            return {number: (user, name, guest) for number, user, name, guest in rows}
    finally:
        engine.dispose()


def account_id(world: World, name: str) -> int:
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            return int(
                connection.execute(
                    select(User.id).where(User.name == name, User.guest.is_(False))
                ).scalar_one()
            )
    finally:
        engine.dispose()


@pytest.mark.timeout(120)
def test_players_are_matched_by_name_or_enter_as_guests_and_every_result_kind_is_kept(world: World) -> None:
    text = hand_made()
    made = world.ok("POST", "admin", IMPORT, {"trf": "\ufeff" + text, "match_lengths": [3]})  # a BOM too
    tournament = int(made["id"])
    assert made["name"] == "Ankara Açık" and made["game"] == "abluka"
    users = user_of_entrant(world, tournament)
    # ali and bora are players of tbf: themselves. outsider has an account but is no
    # player of tbf: a guest entrant of the same name, not his account.
    assert users[1] == (account_id(world, "ali"), "ali", False)
    assert users[4] == (account_id(world, "bora"), "bora", False)
    assert users[2][1:] == ("outsider", True) and users[2][0] != account_id(world, "outsider")
    assert all(users[n][2] for n in (2, 3, 5, 6, 7)) and users[3][1] == "Yılmaz, Ahmet"

    shown = world.view(tournament)
    assert (shown["state"], shown["current_round"], shown["standings_after"]) == ("running", 2, 2)
    results = {
        (p["white_number"], p["black_number"]): p["result"] for p in shown["played_rounds"][0]["pairings"]
    }
    assert results == {(1, 5): "white", (2, 6): "white_ff", (7, 3): "draw", (4, None): "bye"}
    results = {
        (p["white_number"], p["black_number"]): p["result"] for p in shown["played_rounds"][1]["pairings"]
    }
    assert results == {(4, 1): "white", (5, 2): "black", (3, None): "bye", (6, None): "half_bye"}
    imported = [p for r in shown["played_rounds"] for p in r["pairings"]]
    assert all(p["official"] and p["game_id"] is None for p in imported)
    assert all(p["white_confirmed"] and p["black_confirmed"] for p in imported)  # nothing left to sign
    # The file's points, and its tie-breaks as the pure standings count them.
    report = read_trf(text)
    table = {s.number: s for s in standings(report.entrants, 2)}
    for line in shown["standings"]:
        expected = table[line["number"]]
        assert (line["name"], line["points"], line["buchholz"], line["buchholz_cut1"]) == (
            expected.name,
            expected.points,
            expected.buchholz,
            expected.buchholz_cut1,
        )
        assert line["sonneborn_berger"] == expected.sonneborn_berger
    # The pages show the kinds of result the site's own games never have.
    page = world.site.as_(None).get(f"/tournaments/{tournament}", params={"lang": "en"}).text
    assert "half-point bye" in page and "forfeit" in page
    # The standings' points and tie-breaks as each language writes them (halves here).
    for language, mark in (("en", "."), ("tr", ","), ("bg", ",")):
        shown_page = world.site.as_(None).get(f"/tournaments/{tournament}", params={"lang": language}).text
        start = shown_page.index('id="standings"')
        table_html = shown_page[start : shown_page.index("</table>", start)]
        rows = {
            int(cells[1]): cells[-5:]  # a guest's name is a cell of text too
            for cells in (re.findall(r"<td>([^<]*)</td>", row) for row in table_html.split("<tr>")[2:])
        }
        for line in shown["standings"]:
            figures = (line["points"], line["buchholz"], line["buchholz_cut1"], line["sonneborn_berger"])
            assert rows[line["number"]] == [
                *(written(value).replace(".", mark) for value in figures),
                str(line["sets_won"]),  # the file's game is played in sets
            ]
    # Guest entrants have no profile: their names are not links; the players' are.
    assert 'href="/u/ali"' in page and "Yılmaz, Ahmet" in page and 'href="/u/Yılmaz' not in page
    assert 'href="/u/outsider"' not in page
    assert [e["guest"] for e in shown["entrants"]] == [False, True, True, False, True, True, True]

    # Round 3 is the one `tavla pair` prints for the file.
    expected_pairing = pair_round(report.entrants, 2, 4, frozenset(), report.first_colour)
    assert world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds") == {"round": 3}
    third = boards(world.view(tournament), 3)
    bye = [] if expected_pairing.bye is None else [(expected_pairing.bye, None)]
    assert third == list(expected_pairing.games) + bye


def count_users(world: World) -> int:
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(User)).scalar_one())
    finally:
        engine.dispose()


def replace_line(text: str, number: int, old: str, new: str) -> str:
    lines = text.splitlines()
    assert old in lines[number - 1], lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old, new, 1)
    return "\n".join(lines) + "\n"


@pytest.mark.timeout(120)
def test_a_file_that_cannot_be_used_is_refused_naming_the_line_and_creates_nothing(world: World) -> None:
    good = hand_made()
    lines = good.splitlines()
    assert lines[:3] == ["012 Ankara Açık", "XXR 4", "XXC white1"] and lines[3].startswith("001    1")
    twice_ali = {**HAND_MADE, 4: ("ALI", HAND_MADE[4][1])}  # the same player of tbf twice
    contradiction = {
        **HAND_MADE,
        5: ("Petrov, Ivan", [R(1, "b", W), R(2, "w", L)]),  # 1 and 5 both won their game
        1: ("ali", [R(5, "w", W), R(4, "b", Outcome.LOSS)]),
    }
    forfeits_only = {
        n: (f"Player {n}", [R(n + 3 if n <= 3 else n - 3, None, FW if n <= 3 else FL)]) for n in range(1, 7)
    }
    bad_files = {
        # read_trf's own checks
        replace_line(good, 7, "0000 - U", "0000 - Q"): "line 7, columns",
        replace_line(good, 4, "   5 w 1", "   5 x 1"): "line 4, column",
        good.replace("001    7", "001    9"): "start numbers must run 1..7",
        # the site's
        hand_made(contradiction): "line 4: round 1: the results 1 and 1 of players 1 and 5 contradict",
        hand_made(twice_ali): "lines 4 and 7 both name ali",
        good.replace("XXR 4\n", ""): "the number of rounds is missing",
        replace_line(good, 10, "0000 - Z", "0000 - Z  0000 - H"): "line 10: player 7 is marked absent",
        good.replace("XXR 4", "XXR 7"): "7 Swiss rounds need more than 7 players",
        good.replace("XXR 4", "XXR 1"): "2 rounds are written but XXR says the tournament has 1",
        "012 Empty\nXXR 3\n": "no player (001) lines",
        # Round 1 all forfeits without colours: only XXC says who had White, and the site
        # reads the first colour back from the games' colours (white when there are none).
        hand_made(forfeits_only, first="b"): "round 2 would be paired otherwise than the file pairs it",
    }
    before, users = world.snapshot(), count_users(world)
    for text, message in bad_files.items():
        answer = world.send("POST", "admin", IMPORT, {"trf": text})
        assert answer.status_code == 422, (message, answer.text)
        error = answer.json()["error"]
        assert error["code"] == "bad_trf" and message in error["message"], (message, error)
        assert error["message"].startswith("the TRF file cannot be used: ")
        assert world.snapshot() == before and count_users(world) == users, message
    for who, status in {"nobody": 401, "ali": 403, "arbiter": 403, "other_admin": 403, "owner": 403}.items():
        refused(world, who, "POST", IMPORT, status, {"trf": good})
    assert count_users(world) == users
    # The same refusal in the asker's language: the frame translated, the detail as written.
    world.ok("PUT", "admin", "/api/me/preferences", {"language": "tr"})
    answer = world.send("POST", "admin", IMPORT, {"trf": good.replace("XXR 4\n", "")})
    assert answer.status_code == 422 and "XXR" in answer.json()["error"]["message"]
    assert not answer.json()["error"]["message"].startswith("the TRF file")
    world.ok("PUT", "admin", "/api/me/preferences", {"language": "en"})


def test_the_federation_admin_page_offers_the_import(world: World) -> None:
    page = world.site.as_(world.people["admin"]).get("/federations/tbf/admin").text
    assert 'id="import-tournament"' in page and 'type="file"' in page


def test_each_players_line_is_found_by_its_start_number_up_to_four_digits() -> None:
    # A refusal names the line at fault: the start number is columns 5-8 of a 001 line.
    text = "012 Izmir Kupasi\n001    7 m    Ali\nXXR 3\n001 1000 w    Ayse\n001   7  repeated\n"
    assert player_lines(text) == {7: 2, 1000: 4}


def test_a_player_whose_line_stops_early_was_absent_from_the_rounds_after(world: World) -> None:
    # Kaya's line gives round 1 only (where the hand-made report marks her Z in round 2).
    stopped = {**HAND_MADE, 7: ("Kaya, Elif", [R(3, "w", D)])}
    made = world.ok("POST", "admin", IMPORT, {"trf": hand_made(stopped), "match_lengths": [3]})
    shown = world.view(int(made["id"]))
    assert shown["current_round"] == 2
    second = shown["played_rounds"][1]["pairings"]
    assert all(7 not in (p["white_number"], p["black_number"]) for p in second)
    assert len(second) == 4
