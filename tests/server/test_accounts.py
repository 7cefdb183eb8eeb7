"""Accounts and sessions (issue: accounts; docs/API.md 1): argon2, cookies, CSRF, limits."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from tests.server.conftest import Site, make_settings

from tavla.server.app import create_app
from tavla.server.deps import SESSION_COOKIE
from tavla.server.security import DEFAULT_MEMORY_KIB, DEFAULT_TIME_COST, Passwords
from tavla.server.settings import Settings
from tavla.storage.models import Session, User


def test_register_sets_an_http_only_same_site_cookie_and_hashes_with_argon2(
    site: Site, database_url: str
) -> None:
    response = site.as_(None).post("/api/register", json={"name": "Ayşe", "password": "çok gizli parola"})
    assert response.status_code == 200
    cookie = response.headers["set-cookie"]
    assert f"{SESSION_COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain HTTP here; behind TLS the cookie is Secure
    body = response.json()
    assert body["name"] == "Ayşe" and not body["guest"]
    assert "password" not in response.text and "hash" not in response.text
    engine = create_engine(database_url.replace("sqlite:", "sqlite+pysqlite:", 1))
    with engine.connect() as connection:
        stored = connection.execute(select(User.password_hash)).scalar_one()
        session_hash = connection.execute(select(Session.token_hash)).scalar_one()
    engine.dispose()
    assert stored is not None and stored.startswith("$argon2id$")
    assert session_hash != response.cookies[SESSION_COOKIE]  # the database keeps a digest only


def stored_hash(database_url: str, name: str) -> str:
    engine = create_engine(database_url.replace("sqlite:", "sqlite+pysqlite:", 1))
    with engine.connect() as connection:
        found = connection.execute(select(User.password_hash).where(User.name == name)).scalar_one()
    engine.dispose()
    assert isinstance(found, str)
    return found


def test_passwords_are_hashed_at_the_site_s_cost_and_again_when_it_changes(database_url: str) -> None:
    credentials = {"name": "ivan", "password": "парола за вход"}
    # The site's own cost (the tests' other servers hash cheaply).
    real = make_settings(
        database_url, password_time_cost=DEFAULT_TIME_COST, password_memory_kib=DEFAULT_MEMORY_KIB
    )
    assert (real.password_time_cost, real.password_memory_kib) == (
        Settings().password_time_cost,
        Settings().password_memory_kib,
    )
    with TestClient(create_app(real), base_url="http://testserver") as client:
        assert client.post("/api/register", json=credentials).status_code == 200
    assert stored_hash(database_url, "ivan").startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    # The site lowers its cost: a wrong password changes nothing; the right one signs in
    # and is hashed again at the new cost, under which it still signs in.
    cheaper = make_settings(database_url, password_time_cost=1, password_memory_kib=64)
    with TestClient(create_app(cheaper), base_url="http://testserver") as client:
        wrong = client.post("/api/login", json={**credentials, "password": "парола за вхоД"})
        assert wrong.status_code == 401
        assert stored_hash(database_url, "ivan").startswith("$argon2id$v=19$m=65536,t=3,p=4$")
        assert client.post("/api/login", json=credentials).status_code == 200
        assert stored_hash(database_url, "ivan").startswith("$argon2id$v=19$m=64,t=1,p=4$")
        client.cookies.clear()  # signed out: a signed-in login would need its CSRF token
        assert client.post("/api/login", json=credentials).status_code == 200


def test_hashing_a_password_leaves_the_event_loop_free() -> None:
    passwords = Passwords(time_cost=1, memory_kib=64)
    threads: list[int] = []
    hash_now = passwords.hash_now

    def hashing(password: str) -> str:
        threads.append(threading.get_ident())
        return hash_now(password)

    passwords.hash_now = hashing  # type: ignore[method-assign]

    async def register() -> str:
        return await passwords.hash("yeterince uzun")

    stored = asyncio.run(register())
    assert passwords.matches_now(stored, "yeterince uzun") and not passwords.matches_now(stored, "başka")
    assert threads and threads[0] != threading.get_ident()  # a worker thread, not the loop's


@pytest.mark.parametrize("at_once", [1, 3])
def test_no_more_passwords_are_hashed_or_checked_together_than_the_site_allows(at_once: int) -> None:
    passwords = Passwords(time_cost=1, memory_kib=64, at_once=at_once)
    running, most = [0], [0]
    lock = threading.Lock()

    def counted(work: Any) -> Any:
        def slowly(*args: Any) -> Any:
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            time.sleep(0.05)
            with lock:
                running[0] -= 1
            return work(*args)

        return slowly

    passwords.hash_now = counted(passwords.hash_now)  # type: ignore[method-assign]
    passwords.matches_now = counted(passwords.matches_now)  # type: ignore[method-assign]

    async def burst() -> list[str]:
        return await asyncio.gather(*(passwords.hash(f"parola {n:02}") for n in range(6)))

    hashes = asyncio.run(burst())
    assert len(set(hashes)) == 6 and most[0] == at_once
    most[0] = 0

    async def logins() -> list[bool]:
        return await asyncio.gather(*(passwords.matches(h, f"parola {n:02}") for n, h in enumerate(hashes)))

    assert asyncio.run(logins()) == [True] * 6 and most[0] == at_once


def test_the_cookie_is_secure_behind_tls(site: Site) -> None:
    response = site.as_(None).post(
        "https://testserver/api/register", json={"name": "selin", "password": "correct horse"}
    )
    assert response.status_code == 200
    assert "Secure" in response.headers["set-cookie"]


def test_names_are_unique_whatever_their_case(site: Site) -> None:
    site.register("Ayşe")
    response = site.as_(None).post("/api/register", json={"name": "AYŞE", "password": "another one"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "name_taken"


@pytest.mark.parametrize(
    ("name", "password", "field"),
    [
        ("a", "long enough", "name"),
        ("x y", "long enough", "name"),
        ("ivan", "short", "password"),
    ],
)
def test_bad_names_and_passwords_are_refused_clearly(
    site: Site, name: str, password: str, field: str
) -> None:
    response = site.as_(None).post("/api/register", json={"name": name, "password": password})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid" and error["message"].startswith(f"a {field} is ")


@pytest.mark.parametrize("name", ["guest-7", "Guest-Ayse", "bot-hard-1", "BOT-medium-2"])
def test_the_names_of_the_sites_guests_and_bots_are_nobody_elses(site: Site, name: str) -> None:
    """A player named like a guest or a tournament's bot entrant would pass for one."""
    response = site.as_(None).post("/api/register", json={"name": name, "password": "long enough"})
    assert response.status_code == 422, response.text
    assert response.json()["error"] == {
        "code": "invalid",
        "message": "names beginning with 'guest-' or 'bot-' are kept for the site's guests and bots",
    }
    assert site.register("botanik").name == "botanik"  # only the prefix with its dash is kept


def test_login_logout_and_me(site: Site) -> None:
    site.register("ivan", "парола-дълга")
    client = site.as_(None)
    assert client.get("/api/me").status_code == 401
    bad = client.post("/api/login", json={"name": "ivan", "password": "wrong password"})
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "bad_login"
    good = client.post("/api/login", json={"name": "IVAN", "password": "парола-дълга"})
    assert good.status_code == 200
    csrf = good.json()["csrf_token"]
    assert client.get("/api/me").json()["name"] == "ivan"
    assert client.post("/api/logout", headers={"X-CSRF-Token": csrf}).status_code == 200
    client.cookies.set(SESSION_COOKIE, good.cookies[SESSION_COOKIE])  # the old token is dead
    assert client.get("/api/me").status_code == 401


def test_a_changing_request_without_the_csrf_token_is_refused_and_changes_nothing(site: Site) -> None:
    player = site.register("mehmet")
    client = site.as_(player)
    for headers in ({}, {"X-CSRF-Token": "forged"}):
        response = client.put("/api/me/preferences", json={"language": "tr"}, headers=headers)
        assert response.status_code == 403 and response.json()["error"]["code"] == "csrf"
    assert client.get("/api/me").json()["language"] == "en"
    ok = client.put("/api/me/preferences", json={"language": "tr"}, headers={"X-CSRF-Token": player.csrf})
    assert ok.status_code == 200 and ok.json()["language"] == "tr"


def test_a_language_the_site_does_not_speak_is_refused_with_those_it_does(site: Site) -> None:
    player = site.register("zeynep")
    client = site.as_(player)
    response = client.put(
        "/api/me/preferences", json={"language": "fr"}, headers={"X-CSRF-Token": player.csrf}
    )
    assert response.status_code == 422, response.text
    assert response.json()["error"]["message"] == "language must be one of en, tr, bg"
    sideways = client.put(
        "/api/me/preferences", json={"home_side": "up"}, headers={"X-CSRF-Token": player.csrf}
    )
    assert (
        sideways.status_code == 422
        and sideways.json()["error"]["message"] == "home_side must be right or left"
    )
    assert client.get("/api/me").json()["language"] == "en"
    # Registration refuses it alike, and makes no account.
    newcomer = site.as_(None).post(
        "/api/register", json={"name": "jean", "password": "correct horse", "language": "fr"}
    )
    assert newcomer.status_code == 422, newcomer.text
    assert newcomer.json()["error"]["message"] == "language must be one of en, tr, bg"
    signing_in = site.as_(None).post("/api/login", json={"name": "jean", "password": "correct horse"})
    assert signing_in.status_code == 401


def test_another_sessions_csrf_token_does_not_pass(site: Site) -> None:
    first, second = site.register("deniz"), site.register("elif")
    response = site.as_(first).put(
        "/api/me/preferences", json={"home_side": "left"}, headers={"X-CSRF-Token": second.csrf}
    )
    assert response.status_code == 403


def test_a_cross_site_login_form_is_refused(site: Site) -> None:
    site.register("kerem")
    response = site.as_(None).post(
        "/api/login",
        json={"name": "kerem", "password": "correct horse"},
        headers={"Origin": "https://evil.example"},
    )
    assert response.status_code == 403 and response.json()["error"]["code"] == "csrf"
    same = site.as_(None).post(
        "/api/login",
        json={"name": "kerem", "password": "correct horse"},
        headers={"Origin": "http://testserver"},
    )
    assert same.status_code == 200


def test_login_attempts_are_limited_per_name(site: Site) -> None:
    site.register("zeynep")
    client = site.as_(None)
    codes = [
        client.post("/api/login", json={"name": "zeynep", "password": "wrong!!!!"}).status_code
        for _ in range(11)
    ]
    assert codes[:10] == [401] * 10
    assert codes[10] == 429
    blocked = client.post("/api/login", json={"name": "zeynep", "password": "correct horse"})
    assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) >= 1


def test_a_guest_may_play_bots_but_not_offer_games(site: Site) -> None:
    guest = site.guest()
    assert guest.name.startswith("guest-")
    assert site.post(guest, "/api/offers", {"game": "tabla"}).status_code == 403
    assert site.post(guest, "/api/bot-games", {"game": "tabla", "level": "easy"}).status_code == 201


def test_production_refuses_to_start_without_a_secret_key() -> None:
    with pytest.raises(ValueError, match="secret key"):
        Settings(production=True)
    with pytest.raises(ValueError, match="at least 32"):
        Settings(production=True, secret_key="short")
    assert Settings(production=True, secret_key="k" * 40).signing_key == b"k" * 40
    with pytest.raises(ValueError, match="easy to guess"):
        Settings(production=True, secret_key="k" * 40, password_memory_kib=19_456, password_time_cost=1)
    assert Settings(production=True, secret_key="k" * 40, password_memory_kib=19_456, password_time_cost=2)


def test_health_answers_once_migrated(site: Site) -> None:
    response = site.as_(None).get("/api/health")
    assert response.status_code == 200 and response.json()["status"] == "ok"
