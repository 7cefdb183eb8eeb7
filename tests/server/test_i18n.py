"""The interface in English, Turkish and Bulgarian (docs/translating.md).

Every text of the pages, the web board and the server's refusals is in the catalog
template, every template message is translated, and a page or a refusal comes in the
language of the account, else the one picked, else the browser's.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from tests.server.conftest import Player, Site
from tests.server.play import Seat

from tavla.server import i18n_catalog
from tavla.server.errors import ApiError, invalid_request
from tavla.server.i18n import Money, money, number, score, translate, translations
from tavla.server.live.basics import BOT_NAMES, bot_name

LANGUAGES = i18n_catalog.translated_languages()


@pytest.fixture(scope="module")
def stored_template() -> Catalog:
    return i18n_catalog.read(i18n_catalog.TEMPLATE)


@pytest.fixture(scope="module")
def fresh_template() -> Catalog:
    return i18n_catalog.extract()


def test_the_template_is_up_to_date_with_the_sources(
    stored_template: Catalog, fresh_template: Catalog
) -> None:
    stored, fresh = i18n_catalog.msgids(stored_template), i18n_catalog.msgids(fresh_template)
    assert fresh - stored == set(), "new texts: run python -m tavla.server.i18n_catalog update"
    assert stored - fresh == set(), "vanished texts: run python -m tavla.server.i18n_catalog update"


def test_every_language_but_english_has_a_catalogue_of_its_own() -> None:
    """English is the texts themselves; Turkish and Bulgarian are translated."""
    assert i18n_catalog.translated_languages() == ("tr", "bg")


def test_the_template_has_every_text_of_the_board_pages_and_refusals(stored_template: Catalog) -> None:
    ids = i18n_catalog.msgids(stored_template)
    board = json.loads(i18n_catalog.BOARD_TEXT.read_text(encoding="utf-8"))
    assert set(board.values()) <= ids
    for text in ("Log in", "Live games", "Chance that fair dice stray this far or more"):
        assert text in ids  # templates
    for text in ("the name {name} is taken", "not allowed: {detail}", "too many messages; slow down"):
        assert text in ids  # accounts.py, live/room.py, ws.py


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_with_the_same_parameters(
    language: str, stored_template: Catalog
) -> None:
    assert i18n_catalog.translation_problems(language, stored_template) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_server_reads_every_translation(language: str, stored_template: Catalog) -> None:
    loaded = translations(language)
    for message in stored_template:
        if message.id:
            singular = message.id[0] if isinstance(message.id, tuple) else message.id
            assert loaded.has(str(singular), message.context), message.id


@pytest.mark.parametrize(
    ("language", "one", "three"),
    [("en", "1 round", "3 rounds"), ("tr", "1 tur", "3 tur"), ("bg", "1 кръг", "3 кръга")],
    ids=["en", "tr", "bg"],  # test ids in ASCII: a run of named tests (mutmut's) finds them again
)
def test_a_count_takes_the_form_its_language_gives_it(language: str, one: str, three: str) -> None:
    """Bulgarian says "1 кръг" and "3 кръга"; Turkish keeps the noun singular after a number."""
    loaded = translations(language)
    assert [loaded.ngettext("{number} round", "{number} rounds", n).format(number=n) for n in (1, 3)] == [
        one,
        three,
    ]


def test_a_plural_text_with_a_form_left_blank_is_reported(stored_template: Catalog, tmp_path: Any) -> None:
    catalog = i18n_catalog.read(i18n_catalog.po_path("bg"), "bg")
    plural = next(message for message in catalog if isinstance(message.id, tuple))
    assert isinstance(plural.string, tuple) and all(plural.string)
    plural.string = (plural.string[0], "")
    blank = tmp_path / "bg" / "LC_MESSAGES" / "messages.po"  # a language's folders are made as needed
    i18n_catalog.write(catalog, blank)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(i18n_catalog, "po_path", lambda language: blank)
        problems = i18n_catalog.translation_problems("bg", stored_template)
    assert problems == [f"bg: {plural.id!r} is not translated"]


@pytest.mark.parametrize(
    ("language", "board", "table"), [("tr", "Tahta", "Masa"), ("bg", "Дъска", "Маса")], ids=["tr", "bg"]
)
def test_one_english_word_with_two_meanings_gets_one_translation_for_each(
    language: str, board: str, table: str
) -> None:
    context = "a pairing's table in a round"
    assert translations(language).gettext("Board") == board
    assert translations(language).pgettext(context, "Board") == table
    assert translations(language).pgettext("no such context", "Board") == "Board"  # English, as untranslated
    assert translations("en").pgettext(context, "Board") == "Board"
    assert translations(language).npgettext(context, "Board", "Boards", 2) == "Boards"
    assert f"Board (context: {context})" in i18n_catalog.msgids(i18n_catalog.read(i18n_catalog.TEMPLATE))


def test_parameters_are_told_apart_by_name_in_both_styles() -> None:
    assert i18n_catalog.fields("{colour} rolled {dice}") == {"colour", "dice"}
    assert i18n_catalog.fields("%(n)s points, {{literal}}") == {"%(n)"}
    assert i18n_catalog.fields("{n} sayı") != i18n_catalog.fields("{m} sayı")


def test_a_translation_that_does_not_format_falls_back_to_english() -> None:
    assert translate("bg", "the name {name} is taken", {"name": "Иван"}) == "името Иван е заето"
    assert translate("xx", "the name {name} is taken", {"name": "Ivan"}) == "the name Ivan is taken"


NBSP = "\xa0"


@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", ["1,234.56", "-0.50", "1514.14", "-0.163", "+0.50", "+0.000", "3.0", "6.25"]),
        ("tr", ["1.234,56", "-0,50", "1514,14", "-0,163", "+0,50", "+0,000", "3,0", "6,25"]),
        ("bg", [f"1{NBSP}234,56", "-0,50", "1514,14", "-0,163", "+0,50", "+0,000", "3,0", "6,25"]),
    ],
)
def test_numbers_are_written_as_each_language_writes_them(language: str, written: list[str]) -> None:
    assert [
        money(language, 123456),
        money(language, -50),
        number(language, 1514.1399),  # a rating: no thousands separator
        number(language, -0.16251, 3),
        number(language, 0.5, sign=True),
        number(language, -0.0004, 3, sign=True),  # rounds to nothing: no "-0.000"
        score(language, 3),
        score(language, 6.25),
    ] == written


def test_an_amount_of_money_in_a_message_follows_the_reader() -> None:
    refusal = ApiError(409, "insufficient_funds", "{available} available", available=Money(100050))
    assert refusal.message == "1,000.50 available" and str(refusal) == refusal.message  # in a log
    assert refusal.text("tr").startswith("1.000,50 ")
    assert refusal.text("bg").startswith(f"1{NBSP}000,50 ")


def test_a_schema_problem_is_framed_with_where_it_is_and_pydantic_s_words() -> None:
    problem = {"loc": ("body", "prize_shares", 1), "msg": "Input should be greater than or equal to 0"}
    assert invalid_request(problem) == (
        "invalid request: {detail}",
        {"detail": "prize_shares.1: Input should be greater than or equal to 0"},
    )
    # A problem without a place or words (none the framework reports) still reads as one.
    assert invalid_request({}) == ("invalid request: {detail}", {"detail": "invalid request"})


# ------------------------------------------------------------------ pages


class _Text(HTMLParser):
    """The visible text of a page, and its JSON blocks (board and lobby texts)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_script = tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        (self.scripts if self._in_script else self.texts).append(data)


def page_texts(html: str) -> tuple[list[str], dict[str, Any]]:
    """The page's visible texts, and the texts of its JSON blocks by key."""
    parser = _Text()
    parser.feed(html)
    blocks: dict[str, Any] = {}
    for script in parser.scripts:
        found = re.search(r"window\.TAVLA_TEXT = (\{.*\});", script, re.S)
        if found:
            blocks.update(json.loads(found.group(1)))
        elif script.strip().startswith("{"):
            blocks.update(json.loads(script))
    return [text.strip() for text in parser.texts if text.strip()], blocks


def untranslated(language: str, html: str, names: tuple[str, ...] = ()) -> list[str]:
    """The catalog's English texts (those whose translation differs) left on a page,
    apart from inside ``names`` (players' names, which are never translated)."""
    catalog = translations(language)
    english = [
        text
        for text in i18n_catalog.msgids(i18n_catalog.read(i18n_catalog.TEMPLATE))
        if catalog.gettext(text) != text and "{" not in text and len(text) > 1
    ]
    texts, blocks = page_texts(html)
    for name in names:
        texts = [text.replace(name, "") for text in texts]
    left = [
        f"{text!r} in {shown!r}"
        for shown in texts
        for text in english
        if re.search(rf"(?<!\w){re.escape(text)}(?!\w)", shown)
    ]
    left += [f"{key}: {value!r}" for key, value in blocks.items() if value in english]
    return left


@pytest.fixture
def pages(site: Site) -> dict[str, str]:
    """A path of each page: the lobby, watching, a game, a profile, an archive, a 404."""
    ayse = site.register("ayse")
    game = site.bot_game(ayse, game="tabla", length=3)
    return {
        "lobby": "/",
        "watch": "/watch",
        "game": f"/game/{game}",
        "profile": "/u/ayse",
        "archive": f"/archive/{game}",
        "missing": "/u/nobody",
    }


KEY_TEXTS = {
    "tr": {"lobby": "Giriş yap", "watch": "Canlı oyunlar", "game": "Oyun kaydını indir (JSON)",
           "profile": "Biten oyunlar", "archive": "Oyun kaydını indir (JSON)",
           "missing": "Bulunamadı"},
    "bg": {"lobby": "Вход", "watch": "Игри на живо", "game": "Изтегли записа на играта (JSON)",
           "profile": "Завършени игри", "archive": "Изтегли записа на играта (JSON)",
           "missing": "Няма такава страница"},
}  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_in_the_chosen_language_has_no_english_left(
    site: Site, pages: dict[str, str], language: str
) -> None:
    game = pages["game"].rsplit("/", 1)[1]
    summary = site.as_(None).get(f"/api/games/{game}").json()
    stored_name, level = summary["players"][1], summary["bots"][1]
    assert (stored_name, summary["bots"][0]) == (bot_name(level), None)
    # The site's bot is named in the page's language wherever a page names the players.
    bot = translate(language, BOT_NAMES[level])
    assert bot != stored_name
    for name, path in pages.items():
        page = site.as_(None).get(path, params={"lang": language})
        assert page.status_code in (200, 404), (name, page.status_code)
        assert f'<html lang="{language}">' in page.text, name
        assert KEY_TEXTS[language][name] in page.text, name
        assert untranslated(language, page.text) == [], name
        if name in ("watch", "archive"):  # (the profile lists finished games only)
            assert f"ayse – {bot}" in page.text and stored_name not in page.text, name
            assert translate(language, "Tabla") in page.text, name
    guest = site.guest()  # a signed-in lobby: the forms to play a bot and their choices
    lobby = site.as_(guest).get("/", params={"lang": language}).text
    assert untranslated(language, lobby) == []
    assert page_texts(lobby)[1]["bots"][level] == bot
    assert translate(language, "Match length") in lobby
    english = site.as_(guest).get("/", params={"lang": "en"}).text
    assert "Match length" in english and "Play the computer" in english
    assert len(untranslated(language, english)) > 20  # the check sees English where it is


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_and_the_lobby_get_their_texts_translated(site: Site, language: str) -> None:
    guest = site.guest()
    game = site.bot_game(guest)
    _texts, board = page_texts(site.as_(guest).get(f"/game/{game}", params={"lang": language}).text)
    english = json.loads(i18n_catalog.BOARD_TEXT.read_text(encoding="utf-8"))
    assert board.keys() == english.keys()
    assert board["btn.roll"] != english["btn.roll"] and board["turn.you_move"] != english["turn.you_move"]
    assert board["key.roll"] == english["key.roll"]  # shortcuts stay the same letters
    assert board["game.gulbara"] == translate(language, "Gul bara") != "Gul bara"
    page = site.as_(guest).get("/", params={"lang": language}).text
    _texts, lobby = page_texts(page)
    assert lobby["accept"] == translate(language, "Accept") != "Accept"
    # The games by their names in the language: in the list of live games and offers,
    # and in the form's choices.
    assert lobby["games"]["tabla"] == board["game.tabla"] == translate(language, "Tabla") != "Tabla"
    assert f'data-cube="1">{translate(language, "Gul bara")}</option>' in page
    assert f'value="medium" selected>{translate(language, "Medium")}</option>' in page


def test_a_guest_gets_the_browser_language_and_a_pick_stays(site: Site) -> None:
    client = site.as_(None)
    page = client.get("/", headers={"Accept-Language": "bg-BG,bg;q=0.9,en;q=0.8"})
    assert '<html lang="bg">' in page.text and "Вход" in page.text
    page = client.get("/", headers={"Accept-Language": "de-DE,tr;q=0.5"})
    assert '<html lang="tr">' in page.text
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "de-DE"}).text
    client.get("/", params={"lang": "tr"})  # the pick is kept in a cookie
    page = client.get("/watch", headers={"Accept-Language": "bg-BG"})
    assert '<html lang="tr">' in page.text


def test_a_registered_players_language_wins(site: Site) -> None:
    zeynep = site.register("zeynep", language="tr")
    client = site.as_(zeynep)
    page = client.get("/", params={"lang": "bg"}, headers={"Accept-Language": "bg-BG"})
    assert '<html lang="tr">' in page.text and "Bilgisayara karşı oyna" in page.text
    answer = site.delete(zeynep, "/api/offers/999999").json()["error"]
    assert answer == {"code": "not_found", "message": "açık teklif bulunamadı"}


# ------------------------------------------------------------- refusals


def test_refusals_of_the_http_api_come_in_the_askers_language(site: Site) -> None:
    site.register("ivan")
    client = site.as_(None)
    bad = client.post(
        "/api/login", json={"name": "ivan", "password": "wrong password"}, headers={"Accept-Language": "bg"}
    )
    assert bad.json()["error"] == {"code": "bad_login", "message": "грешно име или парола"}
    taken = client.post(
        "/api/register", json={"name": "Ivan", "password": "long enough"}, headers={"Accept-Language": "tr"}
    )
    assert taken.json()["error"] == {"code": "name_taken", "message": "Ivan adı başkası tarafından alınmış"}
    english = client.post("/api/register", json={"name": "Ivan", "password": "long enough"})
    assert english.json()["error"]["message"] == "the name Ivan is taken"
    short = client.post(
        "/api/register", json={"name": "ivo", "password": "short"}, headers={"Accept-Language": "bg"}
    )
    assert short.json()["error"] == {"code": "invalid", "message": "паролата е от 8 до 256 знака"}
    framed = client.post(
        "/api/register", json={"name": "x" * 40, "password": 1}, headers={"Accept-Language": "tr"}
    )
    assert framed.json()["error"]["message"].startswith("geçersiz istek: ")


def test_a_refusal_of_a_signed_in_guest_follows_the_guests_language(site: Site) -> None:
    client = site.as_(None)
    made = client.post("/api/guest", json={"language": "bg"})
    guest = Player(made.json()["name"], made.cookies["tavla_session"], made.json()["csrf_token"])
    answer = site.post(guest, "/api/offers", {"game": "tabla"})
    assert answer.status_code == 403
    assert answer.json()["error"]["message"] == (
        "гостите играят само срещу ботове; регистрирайте се, за да играете с хора"
    )
    no_csrf = site.as_(guest).post("/api/bot-games", json={})
    assert no_csrf.json()["error"] == {
        "code": "csrf",
        "message": "в заявката липсва CSRF ключът на тази сесия",
    }


def test_websocket_refusals_come_in_the_connections_language(site: Site) -> None:
    ayse = site.register("ayse", language="tr")
    game = site.bot_game(ayse, game="tabla")
    with site.as_(ayse).websocket_connect(f"/ws/game/{game}") as socket:
        version = Seat(socket).state["v"]
        socket.send_text("not json {")
        assert _error(socket)["message"] == "bir mesaj tek bir JSON nesnesi olmalı"
        socket.send_json({"type": "intent", "seq": 0, "v": version, "action": {"kind": "roll"}})
        assert _error(socket)["message"] == "bir intent için tam sayı bir seq (1 ve üstü) ve v gerekir"
        socket.send_json({"type": "intent", "seq": 1, "v": version, "action": {"kind": "what"}})
        refused = _error(socket)
        assert refused["code"] == "malformed" and refused["message"].startswith("hamle okunamadı: ")
    watcher = site.as_(None)
    with watcher.websocket_connect(f"/ws/game/{game}", headers={"Accept-Language": "bg-BG"}) as socket:
        socket.send_json({"type": "intent", "seq": 1, "v": 0, "action": {"kind": "roll"}})
        assert _error(socket) == {
            "type": "error",
            "seq": 1,
            "code": "not_player",
            "message": "зрителите не могат да правят ходове в играта",
        }


def _error(socket: Any) -> dict[str, Any]:
    for _ in range(50):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == "error":
            return message
    raise AssertionError("no error came")
