"""The catalogue tool (``python -m tavla.server.i18n_catalog``, docs/translating.md) on a
copy of the catalogues: what ``check`` names, what ``update`` writes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import tavla
from tavla.server import i18n_catalog

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    locale = tmp_path / "locale"
    shutil.copytree(i18n_catalog.LOCALE, locale, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(i18n_catalog, "LOCALE", locale)
    monkeypatch.setattr(i18n_catalog, "TEMPLATE", locale / "messages.pot")
    return locale


def test_check_names_a_stale_template_and_an_untranslated_text(
    catalogues: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert i18n_catalog.main(["check"]) == 0
    assert capsys.readouterr().out == "every message is translated\n"
    template = i18n_catalog.read(i18n_catalog.TEMPLATE)
    template.add("a text no source has")
    template.delete("Log in")
    i18n_catalog.write(template, i18n_catalog.TEMPLATE)
    turkish = i18n_catalog.read(i18n_catalog.po_path("tr"), "tr")
    turkish["Live games"].string = ""
    i18n_catalog.write(turkish, i18n_catalog.po_path("tr"))
    assert i18n_catalog.main(["check"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "messages.pot lacks 'Log in': run update",
        "messages.pot still has 'a text no source has': run update",
        "tr: 'Live games' is not translated",
    ]


def test_update_renews_the_template_and_starts_a_language_without_a_catalogue(
    catalogues: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template = i18n_catalog.read(i18n_catalog.TEMPLATE)
    template.add("a text no source has")
    i18n_catalog.write(template, i18n_catalog.TEMPLATE)
    i18n_catalog.po_path("bg").unlink()
    assert i18n_catalog.main(["update"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"updated {i18n_catalog.po_path('tr')}",
        f"updated {i18n_catalog.po_path('bg')}",
    ]
    assert i18n_catalog.template_problems(i18n_catalog.extract()) == []
    started = i18n_catalog.read(i18n_catalog.po_path("bg"), "bg")
    assert (started.project, started.version) == ("Tavla", tavla.__version__)
    assert started["Log in"] is not None and started["Log in"].string == ""
    assert i18n_catalog.translation_problems("tr", i18n_catalog.extract()) == []  # Turkish kept


def test_extract_notes_the_board_s_keyboard_letters_for_translators(catalogues: Path) -> None:
    board: dict[str, str] = json.loads(i18n_catalog.BOARD_TEXT.read_text(encoding="utf-8"))
    template = i18n_catalog.extract()
    for key in ("key.roll", "key.double"):
        notes = template[board[key]].auto_comments
        assert (
            f"web board: {key} (a keyboard shortcut: one letter, different from the other key.* letters)"
            in notes
        )
    assert f"web board: {next(k for k in board if not k.startswith('key.'))}" in {
        note for message in template for note in message.auto_comments
    }


def test_an_unknown_command_prints_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert i18n_catalog.main([]) == 2 and i18n_catalog.main(["translate"]) == 2
    assert capsys.readouterr().out.count("python -m tavla.server.i18n_catalog check") == 2
