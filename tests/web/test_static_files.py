"""The web board's generated files are up to date and its texts are complete (no browser)."""

from __future__ import annotations

import json
import re

from tests.web import make_fixtures

from tavla.analysis.report import MARK_NAMES
from tavla.bots.cube.decisions import Answer, CubeAction

STATIC = make_fixtures.STATIC
BUTTONS = (
    "roll",
    "double",
    "take",
    "drop",
    "beaver",
    "raccoon",
    "accept",
    "decline",
    "undo",
    "commit",
    "resign",
    "break",
)
ERROR_CODES = (
    "malformed",
    "stale",
    "old_seq",
    "not_player",
    "not_your_turn",
    "illegal",
    "chat_off",
    "over",
    "rate_limited",
)


def test_demo_data_is_what_the_script_makes() -> None:
    assert make_fixtures.OUT.read_text(encoding="utf-8") == make_fixtures.module_text(
        make_fixtures.fixtures()
    )


def test_text_json_lists_every_default_text() -> None:
    assert make_fixtures.TEXT_JSON.read_text(encoding="utf-8") == make_fixtures.text_json()


def test_every_text_key_the_scripts_use_has_an_english_default() -> None:
    texts = json.loads(make_fixtures.text_json())
    used: set[str] = set()
    for name in ("board.js", "game.js", "replay.js", "analysis.js"):
        source = (STATIC / name).read_text(encoding="utf-8")
        used.update(re.findall(r"""\bt\(\s*["']([\w.]+)["']""", source))
    # Keys built from a name: the buttons, the error codes, colours and resign levels,
    # the analysis's marks and cube choices.
    for button in BUTTONS:
        used.update({f"btn.{button}", f"aria.{button}", f"key.{button}"})
    used.update(f"error.{code}" for code in ERROR_CODES)
    used.update({"colour.white", "colour.black", "resign.single", "resign.gammon", "resign.backgammon"})
    used.update(f"analysis.mark.{mark}" for mark in MARK_NAMES)
    choices = {*(str(action) for action in CubeAction), *(str(answer) for answer in Answer), "double"}
    used.update(
        f"analysis.choice.{word.replace(' ', '_')}" for choice in choices for word in choice.split(", ")
    )
    missing = sorted(used - set(texts))
    assert missing == []
    # Access keys are single letters, none used twice.
    keys = [texts[f"key.{button}"] for button in BUTTONS]
    assert all(len(key) == 1 for key in keys)
    assert len(set(keys)) == len(keys)


def test_the_fixtures_cover_every_game_with_steps() -> None:
    data = make_fixtures.fixtures()
    for game in make_fixtures.GAMES:
        mid = data[f"{game}-mid"]
        assert mid["match"]["position"]["game"] == game
        assert mid["steps"]["legal"], game
    tapa = data["tapa-mid"]["match"]["position"]
    assert any(run["pinned"] for point in tapa["points"] for run in point["checkers"])
    assert data["gulbara-mid"]["match"]["position"]["completing"]
    assert data["abluka-blocker"]["steps"]["legal"][0]["piece"] == "blocker"
