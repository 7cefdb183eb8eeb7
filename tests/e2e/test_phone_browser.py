"""The platform's pages on a phone's screen (360 px), in headless Chromium: the lobby's
offers and live games, a game's line of match facts, a federation's administration page. Nothing
scrolls sideways, a row of the offers is a block with each value after its column's
name, and a line of facts wraps between its parts, never inside "Skor 0–0". Skipped
without Chromium and playwright; screenshots go to $TAVLA_SCREENSHOTS."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.browser import ARGS, CHROMIUM
from tests.server.served import Account, Served

from tavla.server.deps import SESSION_COOKIE
from tavla.server.federations.owners import set_owner

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.timeout(180),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's Chromium at /usr/bin/chromium"),
]
WAIT_MS = 15_000

SCROLLING_SIDEWAYS = """() => [document.documentElement, ...document.querySelectorAll(".card")]
  .filter((box) => box.scrollWidth > box.clientWidth)
  .map((box) => box.querySelector("h1, h2")?.textContent || box.tagName)"""
"""The page and the cards that scroll sideways, by their headings."""

OFFER_CELLS = """() => [...document.querySelectorAll("#offers tbody td")].map((cell) => {
  const box = cell.getBoundingClientRect();
  return {
    text: cell.textContent,
    label: getComputedStyle(cell, "::before").content,
    header: cell.closest("table").querySelectorAll("thead th")[cell.cellIndex].textContent,
    display: getComputedStyle(cell).display,
    inside: box.left >= 0 && box.right <= document.documentElement.clientWidth,
  };
})"""
"""Each cell of the lobby's offers: its text, the name shown before it, its column's
header, how it is laid out and whether it lies wholly on the screen."""

BROKEN_PARTS = """(selector) => [...document.querySelectorAll(selector + " .line-part")]
  .filter((part) => part.getClientRects().length !== 1)
  .map((part) => part.textContent)"""
"""The parts of the lines of facts under ``selector`` that are broken over two lines."""


def _ok(answer: httpx.Response) -> httpx.Response:
    assert answer.status_code in (200, 201), answer.text
    return answer


def _look(browser: Any, served: Served, account: Account, path: str, width: int, shot: Path) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.add_cookies([{"name": SESSION_COOKIE, "value": account.token, "url": served.url}])
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(f"{served.url}{path}")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(shot), full_page=True)
    return page


def test_the_lobby_a_game_and_a_federation_s_administration_fit_a_phone(
    served: Served, screenshots: Path, tmp_path: Path
) -> None:
    owner, admin, ayse = (Account(served, name) for name in ("owner", "admin", "ayse"))
    asyncio.run(set_owner(f"sqlite:///{served.database}", "owner", True))
    _ok(owner.post("/api/federations", {"name": "Türkiye Tavla Federasyonu", "slug": "tbf"}))
    url = f"{served.url}/api/federations/tbf/administrators/admin"
    _ok(httpx.put(url, headers=owner._headers(), timeout=10))
    admin.speaks("bg")
    ayse.speaks("tr")
    clock = {"move_s": 12, "reserve_s": 120}
    _ok(ayse.post("/api/offers", {"game": "tapa", "length": 5, "clock": clock}))
    _ok(ayse.post("/api/offers", {"game": "gulbara", "length": 0}))
    game = _ok(ayse.post("/api/bot-games", {"game": "tapa", "length": 3, "level": "medium"})).json()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            # The lobby in Bulgarian: each offer a block, every value after its
            # column's name, on the screen with the button to accept it.
            lobby = _look(browser, served, admin, "/", 360, screenshots / "phone-lobby-bg.png")
            lobby.wait_for_selector("#offers tbody tr")
            assert lobby.evaluate(SCROLLING_SIDEWAYS) == []
            cells = lobby.evaluate(OFFER_CELLS)
            named = [cell for cell in cells if cell["header"]]
            assert len(named) == 8 and all(cell["inside"] for cell in cells)
            assert all(cell["label"] == f'"{cell["header"]}"' for cell in named)
            assert {cell["header"] for cell in named} == {"Играч", "Игра", "Дължина", "Часовник"}
            assert lobby.get_by_role("button", name="Приеми").count() == 2
            # Its live games: a line's parts (the game, the score) are never broken.
            live = lobby.locator("#live li")
            assert live.inner_text() == "ayse – Бот на Tavla (среден) · Тапа · 0–0"
            assert live.locator(".line-part").count() == 2 and lobby.evaluate(BROKEN_PARTS, "#live") == []
            # On a desktop the offers are a table's rows under its header.
            desk = _look(browser, served, admin, "/", 1280, screenshots / "desktop-lobby-bg.png")
            desk.wait_for_selector("#offers tbody tr")
            assert desk.locator("#offers thead").is_visible()
            assert {cell["display"] for cell in desk.evaluate(OFFER_CELLS)} == {"table-cell"}

            # A game in Turkish: its line of facts wraps between its parts only.
            board = _look(browser, served, ayse, str(game["url"]), 360, screenshots / "phone-game-tr.png")
            board.wait_for_selector(".match-info .line-part")
            assert board.locator(".match-info").inner_text() == "Tapa · 3 sayılık maç · Oyun 1 · Skor 0–0"
            assert board.evaluate(BROKEN_PARTS, ".match-info") == []
            assert board.locator(".match-info .line-part").all_inner_texts()[-1] == "Skor 0–0"

            # The administration page in Bulgarian: its long heading stays in its card.
            path = "/federations/tbf/admin"
            page = _look(browser, served, admin, path, 360, screenshots / "phone-federation-admin-bg.png")
            assert "Администриране" in page.locator("h1").inner_text()
            assert page.evaluate(SCROLLING_SIDEWAYS) == []
            # Its file field speaks the page's language, not the browser's (English here):
            # a click on its button opens the file picker, and the file chosen is named.
            field = page.locator("#import-tournament label.file-pick")
            assert field.locator(".file-button").inner_text() == "Избери файл"
            assert field.locator(".file-name").inner_text() == "Няма избран файл"
            with page.expect_file_chooser() as chooser:
                field.locator(".file-button").click()
            report = tmp_path / "турнир.trf"
            report.write_text("012 Турнир\n", encoding="utf-8")
            chooser.value.set_files(str(report))
            assert field.locator(".file-name").inner_text() == "турнир.trf"
        finally:
            browser.close()
