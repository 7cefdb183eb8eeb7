"""The archive page's dice check (static/verify.js) in headless Chromium agrees with the
library's verifier (docs/fair-dice.md): a fair record verifies, a changed roll does not."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.browser import CHROMIUM
from tests.web.test_board_browser import base_url, browser, page  # noqa: F401

from tavla.core.fairdice import FairDice, new_server_seed
from tavla.core.gamedice import GameDice
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


def fair_record() -> dict[str, Any]:
    """A single game of tabla played with fair dice to its 12th action, seed revealed."""
    seed = new_server_seed()
    dice = FairDice(seed, "ayse:ivan")
    match = Match(MatchSettings(game="tabla"), dice=dice)
    match.roll()
    for _ in range(6):
        position = match.state.position
        match.move(match.state.actor or 0, position.legal_turns()[0])
        match.roll()
    data = MatchRecord(match.settings, list(match.actions), dice=(GameDice.of(dice, reveal=True),)).to_dict()
    return dict(data)


def verify(page: Any, base_url: str, record: dict[str, Any]) -> list[dict[str, Any]]:  # noqa: F811
    page.goto(f"{base_url}/demo.html")
    results: list[dict[str, Any]] = page.evaluate(
        "async (record) => (await import('./verify.js')).verifyRecord(record)", record
    )
    return results


def test_a_fair_record_verifies_in_the_browser(page: Any, base_url: str) -> None:  # noqa: F811
    results = verify(page, base_url, fair_record())
    assert [r["ok"] for r in results] == [True]
    assert results[0]["message"] == "7 rolls verified"


def test_a_changed_roll_or_seed_is_caught(page: Any, base_url: str) -> None:  # noqa: F811
    record = fair_record()
    rolls = [i for i, a in enumerate(record["actions"]) if a["k"] == "roll" and "s" in a]
    changed = json.loads(json.dumps(record))
    value = changed["actions"][rolls[2]]["v"]
    changed["actions"][rolls[2]]["v"] = (
        value[::-1] if value[0] != value[1] else ("12" if value != "12" else "21")
    )
    results = verify(page, base_url, changed)
    assert results[0]["ok"] is False and "roll 4" in results[0]["message"]
    other = json.loads(json.dumps(record))
    other["dice"][0]["server_seed"] = new_server_seed()
    assert verify(page, base_url, other)[0]["message"] == "the seed is not the one committed to"
