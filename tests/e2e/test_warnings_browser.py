"""An arbiter's three warnings in a tournament game, in headless Chromium (RULES.md 8.3,
11.2, 11.4; docs/tournaments.md): the arbiter opens the game from the tournament, reads
the players' chat and closes it from the board, warns one
player three times with the board's button, and the arbiter's and both players' pages
show the match lost by warnings; the tournament page shows the result, which the
arbiter then makes official.

The setting up (federation, roles, tournament) goes through the JSON API from each
person's own page (their cookies and CSRF token), naming the site owner through
`tavla site-owner` as on a real server. Needs Debian's Chromium, the playwright package
and the server's packages; skipped without them.
"""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser import CHROMIUM
from tests.e2e.serving import database_for, tavla_command, tavla_server

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from tests.e2e.test_platform_browser import (  # noqa: E402  (after the skips: it needs playwright)
    Visitor,
    _shoot,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`tavla serve` on a fresh SQLite database: its URL and the database's."""
    folder = tmp_path_factory.mktemp("warnings-server")
    database = database_for("sqlite", folder)
    with tavla_server(folder, database) as url:
        yield url, database


API = """async ([method, path, body]) => {
  const meta = document.querySelector('meta[name="csrf-token"]');
  const response = await fetch(path, {
    method,
    headers: {"Content-Type": "application/json", "X-CSRF-Token": meta ? meta.content : ""},
    body: body === null ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  return {status: response.status, body: await response.json()};
}"""


def api(visitor: Visitor, method: str, path: str, body: Any = None) -> Any:
    """A request to the JSON API from ``visitor``'s page, as its own scripts make them."""
    answer = visitor.page.evaluate(API, [method, path, body])
    assert answer["status"] in (200, 201), (method, path, answer)
    return answer["body"]


LOST_BY_WARNINGS = """(loser) => {
  const game = window.tavlaGame;
  if (!game || !game.state) return false;
  const m = game.state.match;
  return m.over && m.forfeit === "warnings" && m.winner === 1 - loser;
}"""


def round_of_two(
    browser: Any, served: tuple[str, str], length: int
) -> tuple[dict[str, Visitor], dict[str, str], int, dict[str, Any]]:
    """A federation with its administrator and arbiter, and a one-round Swiss of ali and
    bora to ``length`` points, started: the visitors, their names, the tournament and its
    only board. Everything goes through each person's own page, as in the browser."""
    url, database = served
    suffix = uuid.uuid4().hex[:6]
    names = {role: f"{role}{suffix}" for role in ("owner", "admin", "arbiter", "ali", "bora")}
    people = {role: Visitor(browser, url) for role in names}
    for role, visitor in people.items():
        visitor.register(names[role])
    owner = tavla_command("site-owner", names["owner"], "--database", database)
    assert subprocess.run(owner, check=False).returncode == 0
    slug = f"tbf{suffix}"
    api(people["owner"], "POST", "/api/federations", {"name": f"Federasyon {suffix}", "slug": slug})
    api(people["owner"], "PUT", f"/api/federations/{slug}/administrators/{names['admin']}")
    admin = people["admin"]
    api(admin, "PUT", f"/api/federations/{slug}/arbiters/{names['arbiter']}")
    for player in ("ali", "bora"):
        api(admin, "PUT", f"/api/federations/{slug}/players/{names[player]}")
    body = {"name": "Kupa", "game": "tabla", "format": "swiss", "rounds": 1, "match_lengths": [length]}
    tournament = api(admin, "POST", f"/api/federations/{slug}/tournaments", body)["id"]
    api(admin, "POST", f"/api/tournaments/{tournament}/registration")
    for player in ("ali", "bora"):
        api(people[player], "PUT", f"/api/tournaments/{tournament}/entrants/me")
    api(admin, "POST", f"/api/tournaments/{tournament}/check-in")
    for player in ("ali", "bora"):
        api(people[player], "POST", f"/api/tournaments/{tournament}/entrants/me/check-in")
    api(admin, "POST", f"/api/tournaments/{tournament}/rounds")
    board = api(admin, "GET", f"/api/tournaments/{tournament}")["played_rounds"][-1]["pairings"][0]
    return people, names, tournament, board


WAITING_TEXTS = """() => {
  const game = window.tavlaGame;
  const match = game.state.match;
  const position = match.position;
  const text = (board, target) => {
    match.position = { ...position, board };
    return game.waitingText({ ...game.state.waiting, forfeit_at: target });
  };
  try {
    return [text(position.board, 1), text("grid", 2), text("grid", 1)];
  } finally {
    match.position = position;
  }
}"""


@pytest.mark.timeout(240)
def test_a_player_who_never_comes_is_awaited_then_forfeited_by_the_arbiter(
    browser: Any, served: tuple[str, str], screenshots: Path
) -> None:
    """The board of the player who came says whom it awaits and when his first point of
    the no-show procedure falls; the arbiter then declares the absent player's forfeit
    with the board's button, and the tournament shows a forfeit (docs/tournaments.md)."""
    people, names, tournament, board = round_of_two(browser, served, length=7)
    try:
        absent = board["black"]
        present = people["ali" if names["ali"] == board["white"] else "bora"]
        present.goto(f"/game/{board['game_id']}")
        page = present.page
        page.wait_for_function(
            "() => window.tavlaGame && window.tavlaGame.state && window.tavlaGame.state.waiting"
        )
        line = page.locator("#game .turn-line")
        page.wait_for_function(
            "() => document.querySelector('#game .turn-line').textContent.includes('credited a point')"
        )
        text = line.inner_text()
        assert f"Waiting for {absent}" in text and "4 points win by forfeit" in text, text
        assert "in 19:" in text or "in 20:00" in text, text  # 20 minutes from the round's start
        # The same text for other matches, the board's state changed for a moment: a
        # one-point match in the singular, Abluka's counted in sets.
        texts = page.evaluate(WAITING_TEXTS)
        assert "is credited a point in" in texts[0] and texts[0].endswith("; 1 point wins by forfeit")
        assert "is credited a set in" in texts[1] and texts[1].endswith("; 2 sets win by forfeit")
        assert "is credited a set in" in texts[2] and texts[2].endswith("; 1 set wins by forfeit")
        _shoot(page, screenshots, "no-show-waiting")

        arbiter = people["arbiter"]
        arbiter.goto(f"/game/{board['game_id']}")
        arbiter.page.wait_for_selector("#game[data-v] .board-svg[viewBox]")
        shown = arbiter.page.locator("#game .turn-line").inner_text()
        assert f"Waiting for {absent}" in shown, shown
        arbiter.page.once("dialog", lambda dialog: dialog.accept())
        arbiter.page.locator('#game button.btn-forfeit[data-seat="1"]').click()
        page.wait_for_function("() => window.tavlaGame.state.match.over", timeout=15_000)
        assert f"{absent} forfeited the match" in line.inner_text()
        _shoot(page, screenshots, "no-show-forfeited")
        arbiter.goto(f"/tournaments/{tournament}")
        row = arbiter.page.locator(f'tr[data-pairing="{board["id"]}"]')
        # The tournament records the result a moment after the board shows it (its own
        # handler of the finished game); the page follows it by polling.
        sync_api.expect(row).to_contain_text("forfeit", timeout=15_000)
        heading = arbiter.page.locator("#tournament").inner_text()
        assert "· 1 round" in heading and "1 rounds" not in heading, heading
        _shoot(arbiter.page, screenshots, "no-show-tournament")
    finally:
        for visitor in people.values():
            visitor.close()


@pytest.mark.timeout(240)
def test_an_arbiter_warns_a_player_three_times_from_the_board_and_the_match_is_lost(
    browser: Any, served: tuple[str, str], screenshots: Path
) -> None:
    people, names, tournament, board = round_of_two(browser, served, length=3)
    white = next(role for role in ("ali", "bora") if names[role] == board["white"])
    black = "bora" if white == "ali" else "ali"
    try:
        # The arbiter opens the game from the tournament's page.
        arbiter = people["arbiter"]
        arbiter.goto(f"/tournaments/{tournament}")
        with arbiter.page.expect_navigation():
            arbiter.page.locator(f'tr[data-pairing="{board["id"]}"] a').click()
        for role in ("arbiter", white, black):
            if role != "arbiter":
                people[role].goto(f"/game/{board['game_id']}")
            people[role].page.wait_for_selector("#game[data-v] .board-svg[viewBox]")
        page = arbiter.page

        # The arbiter reads the players' chat on his board and closes it there (RULES.md 11.2).
        talker = people[white].page
        talker.locator("#game .chat-form input").fill("merhaba hakem bey")
        talker.locator("#game .chat-form button[type=submit]").click()
        page.wait_for_function(
            "() => document.querySelector('#game .chat-log').textContent.includes('merhaba hakem bey')"
        )
        assert page.locator("#game .chat-form").is_hidden()  # he reads, never writes
        page.locator("#game button.btn-close-chat").click()
        page.wait_for_selector("#game .chat-log .chat-closed")
        assert page.locator("#game button.btn-close-chat").is_hidden()
        talker.wait_for_function("() => window.tavlaGame.state.chat.closed")
        assert talker.locator("#game section.chat").is_hidden()

        warn = page.locator('#game button.btn-warn[data-seat="0"]')
        assert warn.is_visible() and people[white].page.locator("#game .arbiter-tools").is_hidden()
        for count in (1, 2, 3):
            if count == 1:
                page.locator("#game input.warning-note").fill("telefonla konuşuyor")
            warn.click()
            page.wait_for_function(
                "(n) => window.tavlaGame.state.match.warnings[0] === n", arg=count, timeout=15_000
            )
        for role in ("arbiter", white, black):
            shown = people[role].page
            shown.wait_for_function(LOST_BY_WARNINGS, arg=0, timeout=15_000)
            assert "lost by warnings" in shown.locator("#game .turn-line").inner_text()
            counts = shown.locator("#game .warning-count.seat-0")
            assert counts.get_attribute("data-count") == "3"
            assert "telefonla konuşuyor" in shown.locator("#game .warning-notes").inner_text()
            _shoot(shown, screenshots, f"warned-{role}")
        assert page.locator("#game .arbiter-tools").is_hidden()  # nothing more to warn

        # The tournament page shows the result; the arbiter makes it official on the
        # tournament's administration page.
        arbiter.goto(f"/tournaments/{tournament}")
        row = page.locator(f'tr[data-pairing="{board["id"]}"]')
        sync_api.expect(row).to_contain_text("awaiting confirmation", timeout=15_000)
        arbiter.goto(f"/tournaments/{tournament}/admin")
        row = page.locator(f'tr[data-pairing="{board["id"]}"]')
        with page.expect_navigation():
            row.locator("button").click()
        arbiter.goto(f"/tournaments/{tournament}")
        row = page.locator(f'tr[data-pairing="{board["id"]}"]')
        assert "official" in row.inner_text()
        first = page.locator("#standings tbody tr").first
        assert names[black] in first.inner_text()
        _shoot(page, screenshots, "warned-tournament")
    finally:
        for visitor in people.values():
            visitor.close()
