"""Money's pages in headless Chromium (docs/ledger.md, the platform): an administrator
records a deposit typed as "20.00" on the books page, the player sees it on his own
page, and offers a single game for a stake from the lobby's form, which the lobby
lists with its stake; in Turkish, both pages write the amounts with a decimal comma.
Amounts typed as each language writes them, and refused when they could be read two
ways; the statements on a phone's screen, in Bulgarian. Skipped without Chromium and
playwright; screenshots go to $TAVLA_SCREENSHOTS (default: a temporary directory)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.browser import ARGS, CHROMIUM
from tests.server.served import Account, Served, offer_and_accept

from tavla.server.deps import SESSION_COOKIE
from tavla.server.federations.owners import set_owner

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.timeout(180),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's Chromium at /usr/bin/chromium"),
]
WAIT_MS = 15_000


def _ok(answer: Any) -> None:
    assert answer.status_code in (200, 201), answer.text


def test_a_deposit_on_the_books_page_and_a_stake_offered_in_the_lobby(served: Served) -> None:
    owner, admin, ayse = (Account(served, name) for name in ("owner", "admin", "ayse"))
    asyncio.run(set_owner(f"sqlite:///{served.database}", "owner", True))
    _ok(owner.post("/api/federations", {"name": "Türkiye Tavla Federasyonu", "slug": "tbf"}))
    for path, by in (("administrators/admin", owner), ("players/ayse", admin)):
        _ok(httpx.put(f"{served.url}/api/federations/tbf/{path}", headers=by._headers(), timeout=10))
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:

            def page_of(account: Account) -> Any:
                context = browser.new_context()
                context.add_cookies([{"name": SESSION_COOKIE, "value": account.token, "url": served.url}])
                page = context.new_page()
                page.set_default_timeout(WAIT_MS)
                return page

            books = page_of(admin)
            books.goto(f"{served.url}/federations/tbf/books")
            form = books.locator("#deposit")
            form.locator("[name=name]").fill("ayse")
            form.locator("[name=amount_cents]").fill("20.00")
            form.locator("[name=reason]").fill("cash at the club")
            form.locator("button[type=submit]").click()
            books.wait_for_function(
                "document.querySelector('#accounts').textContent.includes('tbf/player:ayse')"
            )
            assert "20.00" in books.locator("#accounts").inner_text()
            assert books.locator("#total").inner_text() == "0.00"
            # On a phone the figures stay inside their card: long labels wrap instead.
            books.set_viewport_size({"width": 360, "height": 800})
            outside = books.evaluate(
                """() => [...document.querySelectorAll("dl.facts dd")].filter((dd) =>
                     dd.getBoundingClientRect().right > dd.closest(".card").getBoundingClientRect().right)
                   .map((dd) => dd.textContent)"""
            )
            assert outside == []

            own = page_of(ayse)
            own.goto(f"{served.url}/federations/tbf/money")
            assert own.locator("#balance").inner_text() == "20.00"
            # The deposit's line: its kind, the reason typed, no "deposit" repeated after
            # "Deposit", and who recorded it.
            assert own.locator("#statement td.what").inner_text() == "Deposit cash at the club"
            assert "admin (administrator)" in own.locator("#statement").inner_text()

            own.goto(f"{served.url}/")
            offer = own.locator("#offer-form")
            offer.locator("[name=game]").select_option("tabla")
            offer.locator("[name=length]").select_option("0")
            offer.locator("[name=federation]").fill("tbf")
            offer.locator("[name=initial]").fill("2")
            offer.locator("[name=maximum]").fill("5.00")
            offer.locator("button[type=submit]").click()
            own.wait_for_function(
                "document.querySelector('#offers tbody').textContent.includes('2.00/5.00 tbf')"
            )

            # In Turkish the same amounts are written with a decimal comma, on the
            # server's pages and in the lobby's list, which the page's script writes.
            _ok(
                httpx.put(
                    f"{served.url}/api/me/preferences", json={"language": "tr"}, headers=ayse._headers()
                )
            )
            own.goto(f"{served.url}/")
            own.wait_for_function(
                "document.querySelector('#offers tbody').textContent.includes('2,00/5,00 tbf')"
            )
            assert own.locator("[name=initial]").get_attribute("placeholder") == "2,00"
            own.goto(f"{served.url}/federations/tbf/money")
            assert own.locator("#balance").inner_text() == "20,00"
        finally:
            browser.close()


def _federation_with_books(served: Served) -> tuple[Account, Account, Account]:
    """The federation tbf with its administrator and two players: their accounts
    (admin, ayse, boris)."""
    owner, admin, ayse, boris = (Account(served, name) for name in ("owner", "admin", "ayse", "boris"))
    asyncio.run(set_owner(f"sqlite:///{served.database}", "owner", True))
    _ok(owner.post("/api/federations", {"name": "Türkiye Tavla Federasyonu", "slug": "tbf"}))
    _ok(
        httpx.put(
            f"{served.url}/api/federations/tbf/administrators/admin", headers=owner._headers(), timeout=10
        )
    )
    for name in ("ayse", "boris"):
        _ok(
            httpx.put(
                f"{served.url}/api/federations/tbf/players/{name}", headers=admin._headers(), timeout=10
            )
        )
    return admin, ayse, boris


def _page_of(browser: Any, served: Served, account: Account, width: int = 1280) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.add_cookies([{"name": SESSION_COOKIE, "value": account.token, "url": served.url}])
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def test_amounts_are_typed_as_the_page_s_language_writes_them(served: Served) -> None:
    """A Turkish administrator types "1.500" (fifteen hundred) and "250,50"; a Bulgarian
    one "1 000" with a plain space; "1,500" in Turkish and "1.500" in English could be
    two amounts, so they go to the server as typed and it refuses them with its reason,
    in the administrator's language, next to the form: nothing moves. Each form is found
    by its heading."""
    admin, ayse, _ = _federation_with_books(served)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            books = _page_of(browser, served, admin)
            sent: list[Any] = []
            books.on(
                "request",
                lambda request: sent.append(request.post_data_json) if request.method == "POST" else None,
            )

            def record(form_name: str, amount: str, *, moves: bool = True) -> Any:
                form = books.get_by_role("form", name=form_name)
                form.locator("[name=name]").fill("ayse")
                form.locator("[name=amount_cents]").fill(amount)
                if moves:
                    with books.expect_navigation():
                        form.get_by_role("button").click()
                else:
                    form.get_by_role("button").click()
                    books.wait_for_function(
                        "(form) => form.querySelector('.status').textContent", arg=form.element_handle()
                    )
                return form

            def balance() -> str:
                return str(
                    books.locator("#accounts tr", has_text="tbf/player:ayse").locator("td.num").inner_text()
                )

            admin.speaks("tr")
            books.goto(f"{served.url}/federations/tbf/books")
            record("Para yatırma: oyuncunun yatırdığı para", "1.500")
            assert sent[-1]["amount_cents"] == 150_000 and balance() == "1.500,00"
            record("Para çekme: oyuncuya ödenen para", "250,50")
            assert sent[-1]["amount_cents"] == 25_050 and balance() == "1.249,50"
            refused = record("Para yatırma: oyuncunun yatırdığı para", "1,500", moves=False)
            assert sent[-1]["amount_cents"] == "1,500"
            assert refused.locator(".status").inner_text() == (
                "bir para tutarı olarak okunamadı: “1,500”; örneğin 1.234,50 biçiminde yazın"
            )
            books.reload()
            assert balance() == "1.249,50"

            admin.speaks("bg")
            books.goto(f"{served.url}/federations/tbf/books")
            record("Внасяне: пари, внесени от играч", "1 000")
            assert sent[-1]["amount_cents"] == 100_000 and balance() == "2\u00a0249,50"

            admin.speaks("en")
            books.goto(f"{served.url}/federations/tbf/books")
            refused = record("Deposit: money a player pays in", "1.500", moves=False)
            assert sent[-1]["amount_cents"] == "1.500"
            assert refused.locator(".status").inner_text() == (
                "not an amount of money: “1.500”; write it as 1,234.50"
            )
            record("Withdrawal: money paid out to a player", "1,000.25")
            assert sent[-1]["amount_cents"] == 100_025 and balance() == "1,249.25"
            statement = ayse.get("/api/federations/tbf/money/ayse").json()
            assert [line["amount_cents"] for line in statement["lines"]] == [
                150_000,
                -25_050,
                100_000,
                -100_025,
            ]
        finally:
            browser.close()


FIGURES_OUTSIDE = """() => {
  const width = document.documentElement.clientWidth;
  const outside = [];
  for (const cell of document.querySelectorAll("table.stacked td.num, dl.facts dd")) {
    const box = cell.getBoundingClientRect();
    const card = cell.closest(".card").getBoundingClientRect();
    if (box.left < 0 || box.right > Math.min(width, card.right)) outside.push(cell.textContent);
  }
  return outside;
}"""
"""The figures of the page (the statement's amounts, the books') not wholly on the screen
and inside their card."""

SCROLLING_SIDEWAYS = """() => [document.documentElement, ...document.querySelectorAll(".card")]
  .filter((box) => box.scrollWidth > box.clientWidth)
  .map((box) => box.querySelector("h1, h2")?.textContent || box.tagName)"""
"""The page and the cards that scroll sideways."""

UNLABELLED_FIGURES = """() => [...document.querySelectorAll("table.stacked td.num")]
  .filter((cell) => {
    const th = cell.closest("table").querySelectorAll("thead th")[cell.cellIndex];
    const label = getComputedStyle(cell, "::before").content;
    return label !== JSON.stringify(th.textContent) || getComputedStyle(cell).display === "table-cell";
  })
  .map((cell) => cell.textContent)"""
"""The statements' figures shown without their column's name before them (as in a row
of a table, the name far up in its header)."""

TABLE_ROWS = """() => [...document.querySelectorAll("#statement td")].every((cell) =>
  getComputedStyle(cell).display === "table-cell" && getComputedStyle(cell, "::before").content === "none")"""
"""Whether the player's statement is laid out as a table's rows, no names in its cells."""


def _look_at(page: Any, width: int) -> None:
    if width == 360:
        assert page.evaluate(SCROLLING_SIDEWAYS) == []
        assert page.evaluate(FIGURES_OUTSIDE) == []
        assert page.evaluate(UNLABELLED_FIGURES) == []
        assert page.locator("table.stacked td.num").count() >= 4
    elif page.locator("#statement").count():
        assert page.locator("#statement thead").is_visible() and page.evaluate(TABLE_ROWS)
        assert page.evaluate(SCROLLING_SIDEWAYS) == []


def test_the_statements_fit_a_phone_s_screen_in_bulgarian(served: Served, screenshots: Path) -> None:
    """At 360 px neither the page nor a card scrolls sideways: each row of a statement
    (the player's, the books' accounts, the games for stakes) is a block, every figure
    on the screen after its column's name. On a desktop the player's statement stays a
    table. Screenshots of both pages in Bulgarian and Turkish, on a phone and a desktop."""
    admin, ayse, boris = _federation_with_books(served)
    for name, cents, reason in (
        ("ayse", 98_765_432, "в брой в клуба, Студентски град"),
        ("boris", 9_999_950, "банков превод"),
    ):
        body = {"amount_cents": cents, "reason": reason}
        _ok(admin.post(f"/api/federations/tbf/money/{name}/deposits", body))
    _ok(admin.post("/api/federations/tbf/money/ayse/withdrawals", {"amount_cents": 1_000_000}))
    stake = {"initial_cents": 200, "maximum_cents": 50_000}
    offer_and_accept(ayse, boris, game="tabla", length=0, cube=True, federation="tbf", stake=stake)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for language in ("bg", "tr"):
                admin.speaks(language)
                ayse.speaks(language)
                for width in (360, 1280):
                    for account, name in ((ayse, "money"), (admin, "books")):
                        page = _page_of(browser, served, account, width)
                        page.goto(f"{served.url}/federations/tbf/{name}")
                        shot = screenshots / f"{name}-{language}-{width}.png"
                        page.screenshot(path=str(shot), full_page=True)
                        _look_at(page, width)
                        page.context.close()
        finally:
            browser.close()
