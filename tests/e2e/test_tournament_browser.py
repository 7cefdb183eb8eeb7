"""A federation's Swiss Abluka tournament run from start to final standings in headless
Chromium: the administrator works in the browser only (forms and buttons), six bots
play, and a visitor's public page follows the tournament live, without a reload.

The site owner's part (the federation, its administrator) is done in the browser too;
only naming the site owner is `tavla site-owner`, as on a real server. Needs Debian's
Chromium, the playwright package and the server's packages; skipped without them.
Screenshots of every page the administrator sees go to $TAVLA_SCREENSHOTS (default: a
temporary directory).
"""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser import CHROMIUM
from tests.e2e.serving import FAST_BOTS, database_for, tavla_command, tavla_server

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

BOTS = 6
ROUNDS = 3
ROUND_WAIT_MS = 60_000
"""A round of beginner bots at 50 ms a move takes seconds; the page polls every three."""


ROWS_OFF_SCREEN = """() => [...document.querySelectorAll(".pairings td, #entrants td")]
  .filter((cell) => cell.getBoundingClientRect().right > document.documentElement.clientWidth
    || cell.closest(".card").scrollWidth > cell.closest(".card").clientWidth)
  .map((cell) => cell.textContent)"""
"""The cells of the rounds' pairings and of the entrants not wholly on the screen, or in
a card that scrolls sideways."""

NAMES_AFTER_SCROLLING = """() => {
  const card = document.querySelector("#standings").closest(".card");
  card.scrollLeft = card.scrollWidth;
  const edge = card.getBoundingClientRect().left;
  return [...document.querySelectorAll("#standings tbody td.name")].map((cell) => {
    const box = cell.getBoundingClientRect();
    return card.scrollLeft > 0 && box.left >= edge && box.right <= innerWidth;
  });
}"""
"""Whether each player's name in the standings is still on the screen with the card
scrolled to its right end (and whether the card scrolled at all)."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`tavla serve` on a fresh SQLite database; its URL and the database's. (The
    tournaments' storage is tested on PostgreSQL too by tests/server/test_tournaments.py
    and tests/realtime/test_tournament_across_processes.py; this walk-through of pages
    takes half a minute a database.)"""
    folder = tmp_path_factory.mktemp("tournament-server")
    database = database_for("sqlite", folder)
    with tavla_server(folder, database, FAST_BOTS) as url:
        yield url, database


def _submit(page: Any, form: str, **fields: str) -> None:
    """Fill ``form``'s fields (a select by its value) and submit it; the page reloads."""
    located = page.locator(form)
    for name, value in fields.items():
        field = located.locator(f"[name={name}]")
        if field.evaluate("(element) => element.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    with page.expect_navigation():
        located.locator("button[type=submit]").click()


def _click(page: Any, selector: str) -> None:
    """Click a button that sends its request; the page reloads when it succeeded."""
    with page.expect_navigation():
        page.locator(selector).click()


def _points(text: str) -> float:
    return float(text.strip())


def federation_in_browser(
    owner: Visitor, admin: Visitor, database: str, suffix: str, name: str, slug: str
) -> None:
    """``owner`` and ``admin`` register; the first, named site owner as on a real server,
    creates the federation in the browser and appoints the second its administrator."""
    owner.register(f"owner{suffix}")
    admin.register(f"admin{suffix}")
    subprocess.run(tavla_command("site-owner", f"owner{suffix}", "--database", database), check=True)
    owner.goto("/federations")
    _submit(owner.page, "#create-federation", name=name, slug=slug)
    owner.goto(f"/federations/{slug}/admin")
    _submit(owner.page, "#appoint-administrator", name=f"admin{suffix}")


@pytest.mark.timeout(240)
def test_an_administrator_runs_a_swiss_abluka_tournament_of_bots_in_the_browser(
    browser: Any, served: tuple[str, str], screenshots: Path
) -> None:
    url, database = served
    owner, admin, visitor = Visitor(browser, url), Visitor(browser, url), Visitor(browser, url)
    suffix = uuid.uuid4().hex[:6]
    try:
        # The site owner creates the federation and appoints its administrator.
        federation_in_browser(owner, admin, database, suffix, "Ankara Tavla Kulübü", f"atk{suffix}")

        # The administrator, in the browser only from here.
        page = admin.page
        admin.goto("/federations")
        page.get_by_role("link", name="Ankara Tavla Kulübü").click()
        page.get_by_role("link", name="Administration").click()
        page.wait_for_selector("#create-tournament")
        _shoot(page, screenshots, "tournament-01-federation-admin")
        _submit(
            page,
            "#create-tournament",
            name="Ankara Abluka Açık",
            game="abluka",
            format="swiss",
            match_lengths="1",
            rounds=str(ROUNDS),
        )
        page.get_by_role("link", name="Ankara Abluka Açık").click()
        page.wait_for_url("**/tournaments/*")
        tournament_path = page.url.removeprefix(url)
        _shoot(page, screenshots, "tournament-02-public-draft")
        page.get_by_role("link", name="Administration").click()
        page.wait_for_selector("#open-registration")
        _shoot(page, screenshots, "tournament-03-admin-draft")
        _click(page, "#open-registration")
        for count in range(1, BOTS + 1):
            _submit(page, "#add-bot", level="beginner")
            assert page.locator("#entrants tbody tr").count() == count
        _shoot(page, screenshots, "tournament-04-admin-registration")
        _click(page, "#open-check-in")
        entrants = page.locator("#entrants tbody tr")
        assert entrants.count() == BOTS and all(
            entrants.nth(i).locator("td").nth(3).inner_text() == "✓" for i in range(BOTS)
        )  # bots are checked in when entered
        _shoot(page, screenshots, "tournament-05-admin-check-in")

        # A visitor watches the public page from before the first round to the end.
        visitor.goto(tournament_path)
        visitor.page.evaluate("() => { window.sameDocument = true; }")

        for number in range(1, ROUNDS + 1):
            start = page.locator("#start-round")
            start.wait_for(timeout=ROUND_WAIT_MS)  # put in place when the round before is official
            assert start.inner_text() == f"Start round {number}"
            _click(page, "#start-round")
            assert page.locator(".pairings").count() == number
            _shoot(page, screenshots, f"tournament-06-admin-round-{number}")
            # Bots confirm their results themselves: nothing waits for the arbiter.
            page.wait_for_selector(
                f"h2:has-text('Standings after round {number}'), h2:has-text('Final standings')",
                timeout=ROUND_WAIT_MS,
            )
            assert page.locator("button:has-text('Confirm the result')").count() == 0

        page.wait_for_selector("h2:has-text('Final standings')", timeout=ROUND_WAIT_MS)
        assert page.locator("#start-round").count() == 0
        _shoot(page, screenshots, "tournament-07-admin-finished")

        # The visitor's page came to the final table by itself, without a reload.
        shown = visitor.page
        shown.wait_for_selector("h2:has-text('Final standings')", timeout=ROUND_WAIT_MS)
        assert shown.evaluate("() => window.sameDocument") is True
        headers = shown.locator("#standings thead th").all_inner_texts()
        assert headers == [
            "Rank",
            "No.",
            "Player",
            "Points",
            "Buchholz",
            "Buchholz cut 1",
            "Sonneborn-Berger",
            "Sets won",
        ]
        rows = shown.locator("#standings tbody tr")
        assert rows.count() == BOTS
        points = [_points(rows.nth(i).locator("td").nth(3).inner_text()) for i in range(BOTS)]
        games = shown.locator(".pairings tbody tr").count()
        assert games == ROUNDS * BOTS // 2 and sum(points) == games
        assert points == sorted(points, reverse=True)
        assert shown.locator(".pairings strong:has-text('official')").count() == games
        assert "Finished" in shown.locator("#tournament").inner_text()
        _shoot(shown, screenshots, "tournament-08-public-final")
        shown.set_viewport_size({"width": 390, "height": 844})
        _shoot(shown, screenshots, "tournament-09-public-final-phone")
        # On a phone each board of a round and each entrant is a block, every cell on the screen.
        assert shown.evaluate(ROWS_OFF_SCREEN) == []
        # The standings scroll sideways there, each name held at the card's left edge.
        assert shown.evaluate(NAMES_AFTER_SCROLLING) == [True] * BOTS
        final_table = shown.locator("#standings tbody").inner_text()

        # The administrator downloads the report and imports it as a new tournament.
        admin.goto(tournament_path)
        with page.expect_download() as download:
            page.locator("#trf").click()
        report = Path(download.value.path())
        admin.goto(f"/federations/atk{suffix}/admin")
        form = page.locator("#import-tournament")
        # A file that cannot be used: the refusal names the line, nothing is made.
        broken = report.with_name("broken.trf")
        lines = report.read_text(encoding="utf-8").splitlines()
        broken.write_text("\n".join([*lines[:3], lines[3][:95] + "Q" + lines[3][96:], *lines[4:]]) + "\n")
        assert form.locator(".file-name").inner_text() == "No file chosen"
        form.locator("[name=trf]").set_input_files(str(broken))
        assert form.locator(".file-name").inner_text() == "broken.trf"
        form.locator("[name=name]").fill("Kopya")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#import-tournament .status:has-text('line 4')")
        admin.errors.clear()  # the refusal's 422 was wanted
        _shoot(page, screenshots, "tournament-10-import-refused")
        assert page.locator("#tournaments li").count() == 1
        form.locator("[name=trf]").set_input_files(str(report))
        form.locator("[name=match_lengths]").fill("1")
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        page.wait_for_selector("h2:has-text('Final standings')")
        assert page.locator("h1").inner_text() == "Kopya"
        assert page.locator("#standings tbody").inner_text() == final_table
        _shoot(page, screenshots, "tournament-11-imported")
    finally:
        for person in (owner, admin, visitor):
            person.close()
