"""Ratings on the platform (docs/ratings.md): official tournament results rate both
players once, FIBS for the backgammon family and Glicko-2 per round for Abluka; each
federation's list shows only its own; the profile plots the history."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, insert, select, text, update
from tests.server.federation_world import sync_url
from tests.server.test_i18n import untranslated
from tests.server.test_tournaments import enter_people, in_play, page, resign
from tests.server.tournament_world import World, build_world

from tavla.ratings.fibs import FibsRating, rate_match
from tavla.ratings.glicko2 import Glicko2Rating, rate_all
from tavla.server.i18n import translate
from tavla.server.i18n_catalog import translated_languages
from tavla.server.ratings import apply, plot
from tavla.server.ratings.plot import PlotPoint, history_plot
from tavla.server.tournaments.stored import load, tournament_at
from tavla.storage.database import _alembic_config
from tavla.storage.models import Federation, PlayerRating, RatingChange, TournamentPairing, User

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    yield from build_world(database_url)


def play_round(
    world: World, tournament: int, winner_of: Any, confirm_by: str = "arbiter"
) -> list[tuple[str, str]]:
    """Start the next round; each board's loser resigns (``winner_of(white, black)``
    names the winner) and ``confirm_by`` makes the result official. (winner, loser) pairs."""
    number = world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")["round"]
    boards = world.view(tournament)["played_rounds"][-1]["pairings"]
    played = []
    for board in boards:
        if board["black"] is None:
            continue
        winner = winner_of(board["white"], board["black"])
        loser = board["black"] if winner == board["white"] else board["white"]
        resign(world, board["game_id"], loser=loser, winner=winner)
        world.wait(
            tournament, lambda v, b=board: _board(v, number, b["id"])["result"] is not None, "a result"
        )
        if confirm_by == "players":
            for name in (winner, loser):
                world.ok("POST", name, f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm")
        else:
            world.ok("POST", confirm_by, f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm")
        played.append((winner, loser))
    return played


def _board(view: dict[str, Any], number: int, pairing_id: int) -> dict[str, Any]:
    played = next(r for r in view["played_rounds"] if r["number"] == number)
    found: dict[str, Any] = next(p for p in played["pairings"] if p["id"] == pairing_id)
    return found


def ratings(world: World, federation: str, game: str) -> dict[str, dict[str, Any]]:
    listed = world.ok("GET", "nobody", f"/api/federations/{federation}/ratings/{game}")
    return {line["name"]: line for line in listed["ratings"]}


def history(world: World, *columns: Any) -> list[tuple[Any, ...]]:
    """The rating history's rows, ``columns`` of each, in the order they were made."""
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(select(*columns).order_by(RatingChange.id))]
    finally:
        engine.dispose()


def stored_changes(world: World) -> list[tuple[Any, ...]]:
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.connect() as connection:
            rows = connection.execute(select(RatingChange.__table__).order_by(RatingChange.id))
            ratings_rows = connection.execute(select(PlayerRating.__table__).order_by(PlayerRating.user_id))
            return [tuple(r) for r in rows] + [tuple(r) for r in ratings_rows]
    finally:
        engine.dispose()


FIRST_WINS = {
    frozenset(("ali", "bora")): "ali",
    frozenset(("ali", "cem")): "cem",
    frozenset(("bora", "cem")): "bora",
}


def test_a_tabla_round_robin_is_rated_by_fibs_match_by_match(world: World) -> None:
    """Three players, three rounds of 1-point matches (one rests each round): the stored
    ratings are the FIBS formula applied in the order the results became official."""
    tournament = world.create(game="tabla", format="round_robin", match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora", "cem"))
    expected = {name: FibsRating() for name in ("ali", "bora", "cem")}
    for _ in range(3):
        for winner, loser in play_round(world, tournament, lambda w, b: FIRST_WINS[frozenset((w, b))]):
            expected[winner], expected[loser] = rate_match(expected[winner], expected[loser], 1)
    assert world.view(tournament)["state"] == "finished"
    shown = ratings(world, "tbf", "tabla")
    assert list(shown) == sorted(shown, key=lambda n: -expected[n].rating)  # best first
    for name, rating in expected.items():
        assert shown[name]["rating"] == pytest.approx(rating.rating, abs=0.006)
        assert shown[name]["experience"] == rating.experience == 2
        assert shown[name]["matches"] == 2 and shown[name]["deviation"] is None
    # Everyone won once and lost once, newcomers all (K = 5), yet the ratings differ:
    # each match is rated from the ratings the one before it left.
    assert len({round(r.rating, 2) for r in expected.values()}) > 1
    assert ratings(world, "tbf", "abluka") == {}  # another game's list is its own


def test_the_match_length_counts_in_the_change_and_the_experience(world: World) -> None:
    """A 2-point match won by a gammon resignation: sqrt(2) in the stake, 2 of experience."""
    tournament = world.create(game="tabla", format="swiss", rounds=1, match_lengths=[2])
    enter_people(world, tournament, ("ali", "bora"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    board = world.view(tournament)["played_rounds"][-1]["pairings"][0]
    from tests.server.play import Seat

    with (
        world.site.as_(world.people["bora"]).websocket_connect(f"/ws/game/{board['game_id']}") as giving_up,
        world.site.as_(world.people["ali"]).websocket_connect(f"/ws/game/{board['game_id']}") as taking,
    ):
        resigning, accepting = Seat(giving_up), Seat(taking)
        resigning.wait(in_play)  # the first game begins when both have come (RULES.md 11.4)
        assert resigning.send({"kind": "resign", "level": "gammon"})["type"] == "ack"
        accepting.wait(lambda state: state["match"]["phase"] == "resign")
        assert accepting.send({"kind": "accept"})["type"] == "ack"
        accepting.wait(lambda state: state["match"]["over"])
    world.wait(tournament, lambda v: v["played_rounds"][-1]["pairings"][0]["result"] is not None, "a result")
    world.ok("POST", "arbiter", f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm")
    winner, loser = rate_match(FibsRating(), FibsRating(), 2)
    shown = ratings(world, "tbf", "tabla")
    assert shown["ali"]["rating"] == pytest.approx(winner.rating, abs=0.006)  # 1500 + 5 x 4 x sqrt(2) / 2
    assert shown["ali"]["rating"] == pytest.approx(1514.14, abs=0.006)
    assert shown["bora"]["rating"] == pytest.approx(loser.rating, abs=0.006)
    assert shown["ali"]["experience"] == shown["bora"]["experience"] == 2
    # The next tournament in the game seeds its entrants by these ratings (and a
    # newcomer at the start rating).
    following = world.create(game="tabla", format="round_robin", match_lengths=[1])
    enter_people(world, following, ("ali", "bora", "cem"))
    entered = {e["name"]: e["rating"] for e in world.view(following)["entrants"]}
    assert entered == {"ali": round(winner.rating), "bora": round(loser.rating), "cem": 1500}
    assert entered["ali"] == 1514 and entered["bora"] == 1486


def test_abluka_is_rated_by_glicko2_one_round_at_a_time(world: World) -> None:
    """Four players, two Swiss rounds: a round's ratings change only when its last
    result is official, all from the values at the round's start (one rating period)."""
    tournament = world.create(game="abluka", format="swiss", rounds=2, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora", "cem", "deniz"))
    order = ("ali", "bora", "cem", "deniz")
    expected = {name: Glicko2Rating() for name in order}
    # Round 1: confirm the boards one by one and look between them.
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    boards = world.view(tournament)["played_rounds"][-1]["pairings"]
    assert len(boards) == 2
    games = []
    for index, board in enumerate(boards):
        winner = min(board["white"], board["black"], key=order.index)  # the earlier name wins
        loser = board["black"] if winner == board["white"] else board["white"]
        resign(world, board["game_id"], loser=loser, winner=winner)
        world.wait(tournament, lambda v, b=board: _board(v, 1, b["id"])["result"] is not None, "a result")
        world.ok("POST", "arbiter", f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm")
        games.append((winner, loser, 1.0))
        if index == 0:
            assert ratings(world, "tbf", "abluka") == {}  # the period is still open
    expected = rate_all(expected, games)
    # Round 2, the later name wins this time; its two players confirm themselves.
    played = play_round(world, tournament, lambda w, b: max(w, b, key=order.index), confirm_by="players")
    expected = rate_all(expected, [(w, lo, 1.0) for w, lo in played])
    shown = ratings(world, "tbf", "abluka")
    assert set(shown) == set(order)
    for name in order:
        assert shown[name]["rating"] == pytest.approx(expected[name].rating, abs=0.006)
        assert shown[name]["deviation"] == pytest.approx(expected[name].deviation, abs=0.006)
        assert shown[name]["matches"] == 2
    assert [line["rank"] for line in shown.values()] == [1, 2, 3, 4]
    # The history keeps each change's deviation before and after: newcomers start at
    # the starting deviation, which one period's results narrow.
    first_period = [
        row[1:]
        for row in history(
            world, RatingChange.round, RatingChange.deviation_before, RatingChange.deviation_after
        )
        if row[0] == 1
    ]
    assert len(first_period) == 4
    assert all(before == Glicko2Rating().deviation > after for before, after in first_period)


def test_a_result_is_rated_once_however_often_it_is_settled(world: World) -> None:
    tournament = world.create(game="tabla", format="swiss", rounds=1, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora"))
    (pair,) = play_round(world, tournament, lambda w, b: "bora", confirm_by="players")
    assert pair == ("bora", "ali")
    before = stored_changes(world)
    assert len([row for row in before if len(row) > 9]) == 2  # two history rows
    board = world.view(tournament)["played_rounds"][-1]["pairings"][0]
    for who in ("ali", "bora", "arbiter"):  # confirming an official result again
        world.ok("POST", who, f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm")
    platform = world.site.platform
    portal = world.site.portal

    async def apply_again() -> int:
        """What a restart or a second process reaching the same official result does."""
        async with platform.sessions() as db, db.begin():
            stored = await load(db, await tournament_at(db, tournament))
            pairing = next(p for p in stored.pairings if p.id == board["id"])
            return await apply.apply_official_result(db, stored, pairing)

    assert portal.call(apply_again) == 0
    assert portal.call(platform.tournaments.catch_up) == 0
    assert stored_changes(world) == before

    # Two processes that both looked before either wrote: the unique key stops the second.
    async def never_applied(*_: Any) -> bool:
        return False

    original = apply._already_applied
    apply._already_applied = never_applied  # type: ignore[assignment]
    try:
        assert portal.call(apply_again) == 0
    finally:
        apply._already_applied = original
    assert stored_changes(world) == before


def test_matches_against_bots_are_not_rated(world: World) -> None:
    tournament = world.create(game="abluka", format="knockout", match_lengths=[1])
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/registration")
    for _ in range(2):
        world.ok("POST", "admin", f"/api/tournaments/{tournament}/bots", {"level": "beginner"})
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/check-in")
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    world.wait(tournament, lambda v: v["state"] == "finished", "the bots' match")
    assert ratings(world, "tbf", "abluka") == {}
    assert stored_changes(world) == []


def test_a_forfeit_is_not_rated(world: World) -> None:
    """A win on a board without a game (an opponent who did not come) changes nothing."""
    tournament = world.create(game="tabla", format="swiss", rounds=1, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora"))
    world.ok("POST", "admin", f"/api/tournaments/{tournament}/rounds")
    board = world.view(tournament)["played_rounds"][-1]["pairings"][0]
    engine = create_engine(sync_url(world.database_url))
    with engine.begin() as connection:
        connection.execute(
            update(TournamentPairing)
            .where(TournamentPairing.id == board["id"])
            .values(result="white", white_score=1, game_id=None)
        )
    engine.dispose()
    confirmed = world.ok("POST", "arbiter", f"/api/tournaments/{tournament}/pairings/{board['id']}/confirm")
    assert confirmed["official"] and world.view(tournament)["state"] == "finished"
    assert ratings(world, "tbf", "tabla") == {}
    assert stored_changes(world) == []


def test_a_federations_ratings_are_invisible_to_another(world: World) -> None:
    tournament = world.create(game="tabla", format="swiss", rounds=1, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora"))
    play_round(world, tournament, lambda w, b: "ali")
    assert set(ratings(world, "tbf", "tabla")) == {"ali", "bora"}
    assert ratings(world, "bfb", "tabla") == {}
    page = world.site.as_(None).get("/federations/bfb/ratings/tabla")
    assert page.status_code == 200 and "ali" not in page.text and "bora" not in page.text
    ours = world.site.as_(None).get("/federations/tbf/ratings/tabla?sort=name")
    assert ours.status_code == 200
    assert ours.text.index('href="/u/ali"') < ours.text.index('href="/u/bora"')
    by_rating = world.ok("GET", "nobody", "/api/federations/tbf/ratings/tabla?sort=rating")["ratings"]
    assert [line["name"] for line in by_rating] == ["ali", "bora"]
    for url, code in (
        ("/api/federations/tbf/ratings/chess", "not_found"),
        ("/api/federations/tbf/ratings/tabla?sort=mood", "not_found"),
        ("/api/federations/nowhere/ratings/tabla", "not_found"),
    ):
        response = world.site.as_(None).get(url)
        assert response.status_code == 404 and response.json()["error"]["code"] == code, url
    assert world.site.as_(None).get("/federations/tbf/ratings/chess").status_code == 404


def test_the_profile_plots_the_history_and_lists_the_changes(world: World) -> None:
    tournament = world.create(game="tabla", format="round_robin", match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora", "cem"))
    for _ in range(3):
        play_round(world, tournament, lambda w, b: FIRST_WINS[frozenset((w, b))])
    page = world.site.as_(None).get("/u/ali")
    assert page.status_code == 200
    section = page.text[page.text.index('id="rating-tbf-tabla"') :]
    svg = section[section.index("<svg") : section.index("</svg>")]
    points = [
        (float(x), float(y)) for x, y in re.findall(r'<circle class="point" cx="([\d.]+)" cy="([\d.]+)"', svg)
    ]
    assert len(points) == 3  # the start and ali's two matches
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    assert all(0 <= x <= 360 and 0 <= y <= 200 for x, y in points)
    shown = ratings(world, "tbf", "tabla")["ali"]["rating"]
    assert f">{shown:.0f}</title></circle>" in svg  # the last point is the current rating
    rows = section[: section.index("</table>")].count("<tr>") - 1
    assert rows == 2  # the two changes, newest first
    # Each change is signed, up for the win (over bora) and down for the loss (to cem).
    body = section[section.index("<tbody>") : section.index("</tbody>")]
    cells = re.findall(r"<td>(Win|Loss)</td>\s*<td>[\d.]+</td>\s*<td>([^<]*)</td>", body)
    assert sorted(result for result, _ in cells) == ["Loss", "Win"]
    for result, change in cells:
        assert re.fullmatch(r"\+\d+\.\d\d" if result == "Win" else r"-\d+\.\d\d", change), (result, change)
    assert "bora" in section and "cem" in section
    assert 'id="rating-' not in world.site.as_(None).get("/u/deniz").text  # never rated


def test_the_profile_lists_each_federation_by_name_then_each_game(world: World) -> None:
    engine = create_engine(sync_url(world.database_url))
    try:
        with engine.begin() as connection:
            federation = {
                slug: id_ for slug, id_ in connection.execute(select(Federation.slug, Federation.id))
            }
            ali = connection.execute(select(User.id).where(User.name == "ali")).scalar_one()
            for slug, game in (("bfb", "tabla"), ("tbf", "tapa"), ("tbf", "abluka")):
                connection.execute(
                    insert(PlayerRating).values(
                        federation_id=federation[slug], game=game, user_id=ali, rating=1500.0, updated_ms=0
                    )
                )
    finally:
        engine.dispose()
    page = world.site.as_(None).get("/u/ali").text
    shown = re.findall(r'id="rating-(\w+)-(\w+)"', page)
    # "Türkiye Tavla Federasyonu" before "Българска федерация по табла", as the names sort.
    assert shown == [("tbf", "abluka"), ("tbf", "tapa"), ("bfb", "tabla")]


def test_migration_0005_adds_the_ratings_and_goes_back(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+pysqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "0004")
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "0005")
        assert connection.execute(text("SELECT count(*) FROM player_ratings")).scalar_one() == 0
        assert connection.execute(text("SELECT count(*) FROM rating_changes")).scalar_one() == 0
    with engine.begin() as connection:
        command.downgrade(_alembic_config(connection), "0004")
        tables = set(
            connection.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'")).scalars()
        )
        assert "player_ratings" not in tables and "rating_changes" not in tables
        assert "tournament_pairings" in tables
    engine.dispose()


def test_the_plot_puts_each_rating_in_the_frame_higher_up_for_higher() -> None:
    day_ms = 86_400_000
    points = [
        PlotPoint(1500, 0),
        PlotPoint(1540, day_ms),
        PlotPoint(1480, 40 * day_ms),
        PlotPoint(1510, 90 * day_ms),
    ]
    drawn = history_plot(points, "tbf · Tabla")
    xs, ys = zip(*drawn.points, strict=True)
    assert len(drawn.points) == 4 and drawn.svg.count('<circle class="point"') == 4
    assert xs[0] == plot.LEFT and xs[-1] == plot.WIDTH - plot.RIGHT
    assert list(xs) == sorted(xs) and len(set(xs)) == 4
    assert all(plot.TOP <= y <= plot.HEIGHT - plot.BOTTOM for y in ys)
    assert ys[1] < ys[3] < ys[0] < ys[2]  # 1540 highest on the page, 1480 lowest
    assert re.findall(r'class="y-label"[^>]*>(\d+)<', drawn.svg) == ["1480", "1500", "1520", "1540"]
    assert re.findall(r'class="x-label"[^>]*>([\d-]+)<', drawn.svg) == [
        "1970-01-01",
        "1970-02-10",
        "1970-04-01",
    ]
    # The first date starts at its point, the last ends at its own, the middle one centred.
    assert re.findall(r'class="x-label"[^>]*text-anchor="(\w+)"', drawn.svg) == ["start", "middle", "end"]
    assert 'aria-label="tbf · Tabla"' in drawn.svg
    alone = history_plot([PlotPoint(1500, 0)], "x")
    assert alone.points == ((plot.LEFT + (plot.WIDTH - plot.LEFT - plot.RIGHT) / 2, alone.points[0][1]),)
    assert plot.TOP < alone.points[0][1] < plot.HEIGHT - plot.BOTTOM  # a flat history gets a span
    assert re.findall(r'class="x-label"[^>]*text-anchor="(\w+)"', alone.svg) == ["middle"]
    with pytest.raises(ValueError):
        history_plot([], "x")


@pytest.mark.parametrize("language", translated_languages())
def test_the_ratings_pages_have_no_english_left(world: World, language: str) -> None:
    tournament = world.create(game="tabla", format="swiss", rounds=1, match_lengths=[1])
    enter_people(world, tournament, ("ali", "bora"))
    play_round(world, tournament, lambda w, b: "ali")
    names = ("ali", "bora", "Türkiye Tavla Federasyonu", "Tabla")
    for path in ("/federations/tbf/ratings/tabla", "/federations/tbf/ratings/abluka", "/u/ali"):
        shown = page(world, "nobody", path, language)
        assert shown.status_code == 200 and f'<html lang="{language}">' in shown.text, path
        assert translate(language, "Rating") in shown.text, path
        assert untranslated(language, shown.text, names) == [], path
    english = page(world, "nobody", "/u/ali", "en").text
    assert "Opponent" in english and len(untranslated(language, english, names)) > 3
    # The rating as each language writes it: a decimal comma in Turkish and Bulgarian.
    rating = f"{ratings(world, 'tbf', 'tabla')['ali']['rating']:.2f}"
    assert f'<p class="rating-now">{rating} ' in english
    assert (
        f'<p class="rating-now">{rating.replace(".", ",")} ' in page(world, "nobody", "/u/ali", language).text
    )
