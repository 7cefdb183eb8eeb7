"""An administrator withdraws a player from a running tournament in headless Chromium
(docs/tournaments.md, "Withdrawals"): the button asks first, a dismissed question sends
nothing, an accepted one withdraws the player and the lists mark him. Skipped without
Debian's Chromium and playwright, as the other walk-throughs."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser import CHROMIUM
from tests.e2e.serving import FAST_BOTS, database_for, tavla_server

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from tests.e2e.test_platform_browser import Visitor, _shoot  # noqa: E402  (after the skips: it needs playwright)
from tests.e2e.test_tournament_browser import _click, _submit, federation_in_browser  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    folder = tmp_path_factory.mktemp("withdrawal-server")
    database = database_for("sqlite", folder)
    with tavla_server(folder, database, FAST_BOTS) as url:
        yield url, database


@pytest.mark.timeout(180)
def test_an_administrator_withdraws_a_player_after_confirming(
    browser: Any, served: tuple[str, str], screenshots: Path
) -> None:
    url, database = served
    owner, admin = Visitor(browser, url), Visitor(browser, url)
    suffix = uuid.uuid4().hex[:6]
    try:
        federation_in_browser(owner, admin, database, suffix, "İzmir Tavla Kulübü", f"itk{suffix}")

        page = admin.page
        admin.goto(f"/federations/itk{suffix}/admin")
        _submit(page, "#create-tournament", name="İzmir Açık", game="abluka", format="swiss",
                match_lengths="1", rounds="3")  # fmt: skip
        page.get_by_role("link", name="İzmir Açık").click()
        page.wait_for_url("**/tournaments/*")
        page.get_by_role("link", name="Administration").click()
        page.wait_for_selector("#open-registration")
        _click(page, "#open-registration")
        for _ in range(4):
            _submit(page, "#add-bot", level="beginner")
        _click(page, "#open-check-in")
        assert page.locator("#withdrawals").count() == 0  # nobody to withdraw before the start
        _click(page, "#start-round")

        page.locator("#withdrawals summary").click()  # a rare step: folded away until wanted
        form = page.locator("#withdrawals form").first
        name = page.locator("#withdrawals tbody tr").first.locator("td").nth(1).inner_text()
        sent: list[str] = []
        page.on("request", lambda request: sent.append(request.url) if "/withdrawal" in request.url else None)
        questions: list[str] = []

        def dismiss(dialog: Any) -> None:
            questions.append(dialog.message)
            dialog.dismiss()

        page.once("dialog", dismiss)
        form.locator("[name=reason]").fill("left the club")
        form.locator("button[type=submit]").click()
        page.wait_for_timeout(500)
        assert questions == [f"Withdraw {name} from the tournament?"] and sent == []
        assert page.locator("#withdrawals tbody tr").count() == 4

        page.once("dialog", lambda dialog: dialog.accept())
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        assert len(sent) == 1
        assert page.locator("#withdrawals tbody tr").count() == 3
        row = page.locator("#entrants tbody tr", has_text=name)
        assert "(withdrew in round 1)" in row.inner_text()
        assert row.locator("[title='left the club']").count() == 1
        _shoot(page, screenshots, "tournament-withdrawn")
    finally:
        owner.close()
        admin.close()
