"""The catalogue tool (``python -m tavla.server.i18n_catalog``, docs/translating.md) on a
small server of its own: what ``extract`` finds, what ``update`` writes and keeps, what
``check`` names. (A project of its own, not the real sources: mutmut's copy of those
holds every mutant's altered texts.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import tavla
from tavla.server import i18n_catalog

pytestmark = pytest.mark.timeout(120)

TEXTS = {"the name {name} is taken", "Log in", "r", "The board"}


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    server = tmp_path / "server"
    (server / "templates").mkdir(parents=True)
    (server / "static").mkdir()
    locale = server / "locale"
    locale.mkdir()
    shutil.copy(i18n_catalog.MAPPING, locale / "babel.cfg")
    (server / "refusals.py").write_text('TAKEN = N_("the name {name} is taken")\n', encoding="utf-8")
    (server / "templates" / "page.html").write_text('<h1>{{ _("Log in") }}</h1>\n', encoding="utf-8")
    board = {"key.roll": "r", "title": "The board"}
    (server / "static" / "text.json").write_text(json.dumps(board), encoding="utf-8")
    monkeypatch.setattr(i18n_catalog, "SERVER", server)
    monkeypatch.setattr(i18n_catalog, "LOCALE", locale)
    monkeypatch.setattr(i18n_catalog, "MAPPING", locale / "babel.cfg")
    monkeypatch.setattr(i18n_catalog, "TEMPLATE", locale / "messages.pot")
    monkeypatch.setattr(i18n_catalog, "BOARD_TEXT", server / "static" / "text.json")
    return server


def translate(language: str, texts: dict[str, str] | None = None) -> None:
    """Every text of ``language``'s catalogue translated (``texts`` as given, the others
    as the language's name before the English)."""
    path = i18n_catalog.po_path(language)
    catalog = i18n_catalog.read(path, language)
    for message in catalog:
        if message.id:
            message.string = (texts or {}).get(str(message.id), f"{language}: {message.id}")
    i18n_catalog.write(catalog, path)


def check(capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    status = i18n_catalog.main(["check"])
    return status, capsys.readouterr().out.splitlines()


def test_update_makes_the_template_and_starts_each_language(
    server: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert i18n_catalog.main(["update"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"updated {i18n_catalog.po_path('tr')}",
        f"updated {i18n_catalog.po_path('bg')}",
    ]
    assert i18n_catalog.msgids(i18n_catalog.read(i18n_catalog.TEMPLATE)) == TEXTS
    for language in ("tr", "bg"):
        started = i18n_catalog.read(i18n_catalog.po_path(language), language)
        assert (started.project, started.version) == ("Tavla", tavla.__version__)
        assert i18n_catalog.msgids(started) == TEXTS
        assert all(not message.string for message in started if message.id)
    status, said = check(capsys)
    assert status == 1 and len(said) == 8
    assert "tr: 'Log in' is not translated" in said and "bg: 'r' is not translated" in said
    translate("tr")
    translate("bg")
    assert check(capsys) == (0, ["every message is translated"])


def test_check_names_a_stale_template_and_each_faulty_translation(
    server: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    i18n_catalog.main(["update"])
    capsys.readouterr()
    translate("tr", {"the name {name} is taken": "ad alınmış"})
    translate("bg")
    bulgarian = i18n_catalog.read(i18n_catalog.po_path("bg"), "bg")
    bulgarian["Log in"].flags.add("fuzzy")
    i18n_catalog.write(bulgarian, i18n_catalog.po_path("bg"))
    (server / "more.py").write_text('LATER = N_("a text written later")\n', encoding="utf-8")
    (server / "templates" / "page.html").unlink()
    status, said = check(capsys)
    assert status == 1 and said == [
        "messages.pot lacks 'a text written later': run update",
        "messages.pot still has 'Log in': run update",
        "tr: 'a text written later' is not translated",
        "tr: 'the name {name} is taken': the translation's parameters differ: 'ad alınmış'",
        "bg: 'a text written later' is not translated",
    ]
    # The fuzzy Bulgarian text is named while the template still has it.
    (server / "templates" / "page.html").write_text('<h1>{{ _("Log in") }}</h1>\n', encoding="utf-8")
    assert "bg: 'Log in' is marked fuzzy" in check(capsys)[1]


def test_update_keeps_the_translations_adds_new_texts_and_drops_vanished_ones(
    server: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    i18n_catalog.main(["update"])
    translate("tr")
    translate("bg")
    # A new text like one that vanished starts untranslated: no guess from its neighbour.
    (server / "more.py").write_text('AGAIN = N_("Log in again")\n', encoding="utf-8")
    (server / "templates" / "page.html").unlink()
    assert i18n_catalog.main(["update"]) == 0
    turkish = i18n_catalog.read(i18n_catalog.po_path("tr"), "tr")
    assert {str(m.id): m.string for m in turkish if m.id} == {
        "the name {name} is taken": "tr: the name {name} is taken",
        "r": "tr: r",
        "The board": "tr: The board",
        "Log in again": "",
    }
    capsys.readouterr()
    assert check(capsys)[1] == [
        "tr: 'Log in again' is not translated",
        "bg: 'Log in again' is not translated",
    ]


def test_extract_writes_the_template_and_notes_the_board_s_texts(
    server: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert i18n_catalog.main(["check"]) == 1  # no template yet
    assert capsys.readouterr().out.splitlines()[0] == f"no template at {i18n_catalog.TEMPLATE}: run extract"
    assert i18n_catalog.main(["extract"]) == 0
    assert capsys.readouterr().out == f"{i18n_catalog.TEMPLATE}: 4 messages\n"
    template = i18n_catalog.read(i18n_catalog.TEMPLATE)
    assert template["r"].auto_comments == [
        "web board: key.roll (a keyboard shortcut: one letter, different from the other key.* letters)"
    ]
    assert template["The board"].auto_comments == ["web board: title"]
    assert not i18n_catalog.po_path("tr").exists()  # extract touches no language


def test_an_unknown_command_prints_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert i18n_catalog.main([]) == 2 and i18n_catalog.main(["translate"]) == 2
    assert capsys.readouterr().out.count("python -m tavla.server.i18n_catalog check") == 2
