"""Money on the platform (RULES.md 12; docs/ledger.md, the platform), over HTTP:
deposits and withdrawals by a federation's administrator only, statements a player
reads alone, the federation's books, and refusals that change nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from tests.server.conftest import DATABASES, _postgres_database
from tests.server.federation_world import TBF, World, build_world
from tests.server.test_i18n import untranslated

from tavla.server.i18n import translate

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module", params=DATABASES)
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    if request.param == "postgresql":
        url = _postgres_database()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('money') / 'tavla.db'}"
    yield from build_world(url)


def balance(world: World, name: str) -> int:
    answer = world.get("admin", f"/api/federations/tbf/money/{name}")
    assert answer.status_code == 200, answer.text
    assert answer.json()["player"] == name and answer.json()["federation"] == "tbf"
    return int(answer.json()["balance_cents"])


def prefer(world: World, name: str, language: str) -> None:
    """``name``'s account speaks ``language`` from now on."""
    person = world.people[name]
    chosen = world.site.as_(person).put(
        "/api/me/preferences",
        json={"language": language},
        headers={"X-CSRF-Token": person.csrf},  # type: ignore[union-attr]
    )
    assert chosen.status_code == 200, chosen.text


def deposit(world: World, who: str, name: str, body: Any) -> Any:
    return world.post(who, f"/api/federations/tbf/money/{name}/deposits", body)


def test_an_administrator_deposits_and_withdraws_and_the_statement_names_him(world: World) -> None:
    before = balance(world, "member")
    made = deposit(world, "admin", "member", {"amount_cents": 2000, "reason": "cash at the club"})
    assert made.status_code == 201, made.text
    assert made.json()["actor"] == "admin:admin" and made.json()["kind"] == "deposit"
    assert made.json()["reason"] == "cash at the club"
    entries = {entry["account"]: entry["amount_cents"] for entry in made.json()["entries"]}
    assert entries == {"tbf/cash": -2000, "tbf/player:member": 2000}  # both sides of the books
    taken = world.post("admin", "/api/federations/tbf/money/member/withdrawals", {"amount_cents": 500})
    assert taken.status_code == 201, taken.text
    assert balance(world, "member") == before + 1500
    lines = world.get("member", "/api/federations/tbf/money/member").json()["lines"]
    assert [(line["kind"], line["amount_cents"], line["actor"]) for line in lines[-2:]] == [
        ("deposit", 2000, "admin:admin"),
        ("withdrawal", -500, "admin:admin"),
    ]
    assert lines[-2]["reason"] == "cash at the club"
    assert lines[-1]["reason"] == "withdrawal"  # none given: the kind, which the statement does not repeat


def test_a_deposit_repeated_with_its_reference_is_booked_once(world: World) -> None:
    before = balance(world, "member")
    body = {"amount_cents": 300, "reference": "receipt-17"}
    first, again = deposit(world, "admin", "member", body), deposit(world, "admin", "member", body)
    assert first.status_code == again.status_code == 201
    assert again.json()["repeated"] and again.json()["id"] == first.json()["id"]
    assert balance(world, "member") == before + 300
    booked = world.get("member", "/api/federations/tbf/money/member").json()["lines"][-1]
    assert (booked["kind"], booked["reason"]) == ("deposit", "deposit")
    other = deposit(world, "admin", "member", {"amount_cents": 301, "reference": "receipt-17"})
    assert other.status_code == 409 and other.json()["error"]["code"] == "conflict"
    assert balance(world, "member") == before + 300


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("nobody", 401),
        ("guest", 403),
        ("outsider", 403),
        ("member", 403),  # a player crediting himself
        ("player", 403),
        ("arbiter", 403),
        ("other_admin", 403),  # an administrator of another federation
        ("owner", 403),  # the site owner runs no federation's books
    ],
)
def test_only_the_federations_administrator_moves_money(world: World, who: str, status: int) -> None:
    before = world.get("admin", "/api/federations/tbf/books").json()
    for kind in ("deposits", "withdrawals"):
        refused = world.post(who, f"/api/federations/tbf/money/member/{kind}", {"amount_cents": 100})
        assert refused.status_code == status, refused.text
        if status == 403:
            said = refused.json()["error"]["message"]
            assert said == f"only an administrator of {TBF} may move money or read its books"
    assert world.get("admin", "/api/federations/tbf/books").json() == before


def test_an_administrator_moves_no_money_of_another_federation(world: World) -> None:
    refused = world.post("other_admin", "/api/federations/bfb/money/member/deposits", {"amount_cents": 100})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_a_player"
    assert world.get("other_admin", "/api/federations/bfb/books").json()["accounts"] == []


@pytest.mark.parametrize("amount", [-100, 0, 12.5, "12", "12.50", 10**12, 2**63, True, None, [100]], ids=repr)
def test_malformed_amounts_are_refused(world: World, amount: Any) -> None:
    before = balance(world, "member")
    for kind in ("deposits", "withdrawals"):
        refused = world.post("admin", f"/api/federations/tbf/money/member/{kind}", {"amount_cents": amount})
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["code"] == "invalid"
    assert balance(world, "member") == before


@pytest.mark.parametrize(
    ("language", "amount", "message"),
    [
        ("tr", "1,500", "bir para tutarı olarak okunamadı: “1,500”; örneğin 1.234,50 biçiminde yazın"),
        ("bg", "1.500", "това не е сума пари: „1.500“; напишете я като 1\xa0234,50"),
        ("en", "12 TL", "not an amount of money: “12 TL”; write it as 1,234.50"),
        ("tr", 0, "tutar en az 0,01 olmalı"),
        ("bg", 10**9, "сумата може да е най-много 1\xa0000\xa0000,00"),
        ("en", 12.5, "invalid request: amount_cents: Input should be a valid integer"),
    ],
    # Test ids in ASCII: a run of named tests (mutmut's) finds them again.
    ids=["tr-comma", "bg-point", "en-currency", "tr-zero", "bg-too-much", "en-fraction"],
)
def test_an_amount_refused_is_named_in_the_readers_words(
    world: World, language: str, amount: Any, message: str
) -> None:
    """The books page sends an amount it could not read as typed (static/text.js): the
    refusal quotes it and shows how one is written, in the reader's language; one out of
    bounds names the bound. A program's fraction of a cent keeps the schema's words."""
    before = balance(world, "member")
    try:
        prefer(world, "admin", language)
        refused = deposit(world, "admin", "member", {"amount_cents": amount})
    finally:
        prefer(world, "admin", "en")
    assert refused.status_code == 422
    assert refused.json()["error"] == {"code": "invalid", "message": message}
    assert balance(world, "member") == before


def test_no_withdrawal_beyond_the_available_balance(world: World) -> None:
    available = balance(world, "member")
    refused = world.post(
        "admin", "/api/federations/tbf/money/member/withdrawals", {"amount_cents": available + 1}
    )
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "insufficient_funds"
    assert balance(world, "member") == available


@pytest.mark.parametrize(
    ("language", "amounts"),
    [
        ("en", ("1,234.56", "1,234.57")),
        ("tr", ("1.234,56", "1.234,57")),
        ("bg", ("1\xa0234,56", "1\xa0234,57")),
    ],
)
def test_a_refusal_writes_its_amounts_as_the_readers_language_does(
    world: World, language: str, amounts: tuple[str, str]
) -> None:
    # The balance is brought to 1,234.56 whatever the module's other tests left there
    # (they may run before or after this one, as a mutation run orders them).
    missing = 123456 - balance(world, "player")
    if missing > 0:
        assert deposit(world, "admin", "player", {"amount_cents": missing}).status_code == 201
    elif missing < 0:
        url = "/api/federations/tbf/money/player/withdrawals"
        assert world.post("admin", url, {"amount_cents": -missing}).status_code == 201
    assert balance(world, "player") == 123456
    try:
        prefer(world, "admin", language)
        refused = world.post(
            "admin", "/api/federations/tbf/money/player/withdrawals", {"amount_cents": 123457}
        )
    finally:
        prefer(world, "admin", "en")
    assert refused.status_code == 409
    available, needed = amounts
    assert refused.json()["error"]["message"] == translate(
        language, "not enough money: {available} available, {needed} needed"
    ).format(available=available, needed=needed)
    assert balance(world, "player") == 123456


def test_money_only_for_a_player_of_the_federation(world: World) -> None:
    refused = deposit(world, "admin", "outsider", {"amount_cents": 100})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_a_player"
    missing = deposit(world, "admin", "nobody-at-all", {"amount_cents": 100})
    assert missing.status_code == 404
    assert missing.json()["error"]["message"] == "no account is called nobody-at-all"


def test_an_administrator_names_a_player_as_the_site_compares_names(world: World) -> None:
    """Names are told apart as registration tells them (case-folded): Weiß is WEISS."""
    world.people["Weiß"] = world.site.register("Weiß")
    assert world.put("admin", "/api/federations/tbf/players/weiss").status_code == 200
    for typed in ("Weiß", "WEISS", " weiss "):
        made = deposit(world, "admin", typed, {"amount_cents": 100})
        assert made.status_code == 201, (typed, made.text)
    assert balance(world, "Weiß") == 300


@pytest.mark.parametrize("who", ["nobody", "guest", "outsider", "player", "arbiter", "other_admin", "owner"])
def test_a_player_never_sees_another_players_money(world: World, who: str) -> None:
    refused = world.get(who, "/api/federations/tbf/money/member")
    assert refused.status_code in (401, 403), refused.text
    assert "balance_cents" not in refused.text
    assert world.get(who, "/api/federations/tbf/books").status_code in (401, 403)


def test_the_books_sum_to_zero_and_cash_is_what_is_held_for_others(world: World) -> None:
    deposit(world, "admin", "player", {"amount_cents": 700})
    books = world.get("admin", "/api/federations/tbf/books").json()
    assert books["total_cents"] == 0
    players = sum(a["balance_cents"] for a in books["accounts"] if a["kind"] == "player")
    assert books["held_for_others_cents"] == -books["cash_cents"] > 0
    assert books["held_for_others_cents"] == players + books["house_balance_cents"] + sum(
        a["balance_cents"] for a in books["accounts"] if a["kind"] in ("escrow", "pool", "sponsor")
    )


@pytest.fixture
def speaking(world: World) -> Iterator[Callable[[str], None]]:
    """Sets the member's and the administrator's language for one test, and gives them
    back English after it, whatever order the module's tests run in."""

    def speak(language: str) -> None:
        for name in ("member", "admin"):
            prefer(world, name, language)

    yield speak
    speak("en")


@pytest.mark.parametrize("language", ["tr", "bg", "en"])
def test_the_money_pages_in_every_language(
    world: World, speaking: Callable[[str], None], language: str
) -> None:
    deposit(world, "admin", "member", {"amount_cents": 125})
    speaking(language)
    own = world.get("member", "/federations/tbf/money")
    assert own.status_code == 200 and 'id="statement"' in own.text
    # Who recorded it, in the reader's words: the ledger's "admin:admin" is not shown.
    by = {"en": "admin (administrator)", "tr": "admin (yönetici)", "bg": "admin (администратор)"}[language]
    assert f">{by}</td>" in own.text and "admin:admin" not in own.text
    # When, in universal time as ISO 8601 writes it, whatever the language.
    made = world.get("member", "/api/federations/tbf/money/member").json()["lines"][-1]["created_ms"]
    assert datetime.fromtimestamp(made / 1000, UTC).isoformat(" ", "minutes")[:16] in own.text
    books = world.get("admin", "/federations/tbf/books")
    # Amounts as each language writes them: a decimal comma in Turkish and Bulgarian.
    zero = {"en": "0.00", "tr": "0,00", "bg": "0,00"}[language]
    assert books.status_code == 200 and f'<dd id="total">{zero}</dd>' in books.text
    amount = {"en": "1.25", "tr": "1,25", "bg": "1,25"}[language]
    # Each cell names its column, for a phone's screen where a row is a block (site.css).
    assert f'<td class="num" data-label="{translate(language, "Amount")}">{amount}</td>' in own.text
    for page in (own.text, books.text):
        assert f'<html lang="{language}">' in page
        if language != "en":
            assert untranslated(language, page, ("member", "admin")) == []
    assert translate(language, "Statement") in own.text
    assert translate(language, "Fees collected") in books.text


def test_the_money_pages_refuse_who_may_not_see_them(world: World) -> None:
    outsider = world.get("outsider", "/federations/tbf/money")
    assert outsider.status_code == 409  # not a player
    nobody = world.get("nobody", "/federations/tbf/money")
    assert nobody.status_code == 401
    assert "sign in (or play as a guest) first" in nobody.text  # the page says why
    for who in ("member", "other_admin", "owner", "nobody"):
        refused = world.get(who, "/federations/tbf/books")
        assert refused.status_code in (401, 403) and 'id="accounts"' not in refused.text


def test_an_administrator_who_plays_records_no_money_for_himself(world: World) -> None:
    assert world.put("admin", "/api/federations/tbf/players/admin").status_code == 200
    try:
        for kind in ("deposits", "withdrawals"):
            refused = world.post("admin", f"/api/federations/tbf/money/admin/{kind}", {"amount_cents": 100})
            assert refused.status_code == 403, refused.text
        assert balance(world, "admin") == 0
    finally:
        assert world.delete("admin", "/api/federations/tbf/players/admin").status_code == 200


def test_a_player_who_left_gets_his_money_paid_out_but_no_more_in(world: World) -> None:
    assert deposit(world, "admin", "opponent", {"amount_cents": 900}).status_code == 201
    assert world.delete("opponent", "/api/federations/tbf/players/opponent").status_code == 200
    try:
        refused = deposit(world, "admin", "opponent", {"amount_cents": 100})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_a_player"
        assert world.get("opponent", "/api/federations/tbf/money/opponent").json()["balance_cents"] == 900
        url = "/api/federations/tbf/money/opponent/withdrawals"
        assert world.post("admin", url, {"amount_cents": 900}).status_code == 201
        assert world.post("admin", url, {"amount_cents": 1}).status_code == 409  # nothing left: not a player
    finally:
        assert world.put("admin", "/api/federations/tbf/players/opponent").status_code == 200
