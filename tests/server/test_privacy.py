"""Nobody reads another player's private data (docs/API.md 9).

A player of tbf with money in its books, a stake reserved in an open offer and an
application to bfb with his e-mail address; an applicant to tbf with hers. Then
everybody else (nobody, a guest, a stranger, his opponent, the other federation's
administrator) walks every GET route of the app, read from the app itself, and the
lobby and game websockets; none of the private values may appear in any answer's raw
text: not the e-mail addresses, the balance or what stays of it after the reservation,
the payment's reason and reference, the players' chat, the session tokens, their
digests, the CSRF tokens, the password hashes.
"""

from __future__ import annotations

import itertools
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.federation_world import World, build_world
from tests.server.hostile import routes

from tavla.server.security import token_digest

pytestmark = pytest.mark.timeout(120)

BALANCE_CENTS = 73_195_311
RESERVED_CENTS = 500
PLAYER_EMAIL = "gizli.oyuncu@example.org"
APPLICANT_EMAIL = "aday@example.org"
REASON = "kasa-makbuzu-gizli"
REFERENCE = "RCPT-SECRET-4711"
CHAT_LINE = "iyi oyunlar"
"""What ``player`` wrote in the chat of both games of the world."""
ASKERS = ("nobody", "guest", "outsider", "opponent", "other_admin")


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    for world in build_world(f"sqlite:///{tmp_path / 'tavla.db'}"):
        made = world.post(
            "admin",
            "/api/federations/tbf/money/player/deposits",
            {"amount_cents": BALANCE_CENTS, "reason": REASON, "reference": REFERENCE},
        )
        assert made.status_code == 201, made.text
        offer = world.post(
            "player",
            "/api/offers",
            {
                "game": "tabla",
                "length": 0,
                "cube": True,
                "federation": "tbf",
                "stake": {"initial_cents": 200, "maximum_cents": RESERVED_CENTS},
            },
        )
        assert offer.status_code == 201, offer.text
        applied = world.post("player", "/api/federations/bfb/applications", {"contact_email": PLAYER_EMAIL})
        assert applied.status_code == 201, applied.text
        yield world


def secrets_of(world: World, asker: str) -> dict[str, re.Pattern[str]]:
    """What ``asker`` may not read, each as the pattern that finds it in a text."""
    key = world.platform.settings.signing_key
    found = {
        "the player's balance": number(BALANCE_CENTS),
        "the player's balance after the reservation": number(BALANCE_CENTS - RESERVED_CENTS),
        "the payment's reason": re.compile(re.escape(REASON)),
        "the payment's reference": re.compile(re.escape(REFERENCE)),
        "tbf's applicant's e-mail": re.compile(re.escape(APPLICANT_EMAIL)),
    }
    if asker != "opponent":  # the players' chat is theirs (and their federation's arbiters')
        found["the players' chat"] = re.compile(re.escape(CHAT_LINE))
    if asker != "other_admin":  # bfb's administrator decides the player's application to bfb
        found["the player's e-mail"] = re.compile(re.escape(PLAYER_EMAIL))
    for name, person in world.people.items():
        if person is None or name == asker:
            continue
        found[f"{name}'s session"] = re.compile(re.escape(person.token))
        found[f"{name}'s session digest"] = re.compile(token_digest(key, person.token))
        found[f"{name}'s CSRF token"] = re.compile(re.escape(person.csrf))
    database = Path(world.database_url.removeprefix("sqlite:///"))
    with sqlite3.connect(database) as db:
        for name, hashed in db.execute(
            "SELECT name, password_hash FROM users WHERE password_hash IS NOT NULL"
        ):
            if name != asker:
                found[f"{name}'s password hash"] = re.compile(re.escape(hashed))
    return found


def number(cents: int) -> re.Pattern[str]:
    """The amount in cents or in units, not as a part of a longer number (a timestamp)."""
    units = f"{cents // 100}[.,]{cents % 100:02d}"
    return re.compile(rf"(?<![\d.,]){cents}(?![\d])|(?<![\d.,]){units}(?![\d])")


def urls(world: World) -> list[str]:
    values = {
        "game_id": [world.private_game, world.public_game],
        "slug": ["tbf", "bfb"],
        "name": ["player", "applicant", "opponent"],
        "game": ["tabla"],
        "tournament_id": ["1"],
        "offer_id": ["1"],
        "roles": ["players"],
    }
    found = []
    for method, path, parameters in routes(world.site.client.app):
        if method != "GET":
            continue
        for choice in itertools.product(*(values.get(name, ["1"]) for name in parameters)):
            url = path
            for name, value in zip(parameters, choice, strict=True):
                url = url.replace("{" + name + "}", value)
            found.append(url)
    return found


def socket_texts(world: World, asker: str) -> Iterator[tuple[str, str]]:
    client = world.site.as_(world.people[asker])
    with client.websocket_connect("/ws/lobby") as socket:
        yield "/ws/lobby", socket.receive_text()
    # The opponent sits in the game (he sees its chat); the others watch.
    with client.websocket_connect(f"/ws/game/{world.public_game}") as socket:
        for _ in range(3):
            text = socket.receive_text()
            yield "/ws/game", text
            if '"type":"state"' in text:
                break


@pytest.mark.parametrize("asker", ASKERS)
def test_no_answer_shows_anybody_else_s_private_data(world: World, asker: str) -> None:
    secrets = secrets_of(world, asker)
    answers: list[tuple[str, Any]] = []
    for url in urls(world):
        response = world.get(asker, url)
        assert response.status_code < 500, (url, response.text[:300])
        answers.append((url, response.text))
    answers.extend(socket_texts(world, asker))
    assert len(answers) > 40
    leaks = [
        (url, what)
        for url, text in answers
        for what, pattern in secrets.items()
        if pattern.search(text) is not None
    ]
    assert leaks == []


def test_the_walk_would_see_the_private_data_where_it_is_shown(world: World) -> None:
    """The same walk as the player and tbf's administrator finds the values: the search is real."""
    own = "\n".join(world.get("player", url).text for url in urls(world))
    assert number(BALANCE_CENTS - RESERVED_CENTS).search(own) or number(BALANCE_CENTS).search(own)
    administration = "\n".join(world.get("admin", url).text for url in urls(world))
    assert APPLICANT_EMAIL in administration and REASON in administration


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for inner in value.values() for key in keys_of(inner)}
    if isinstance(value, list):
        return {key for inner in value for key in keys_of(inner)}
    return set()


@pytest.mark.parametrize("asker", ASKERS)
def test_a_profile_shows_none_of_the_player_s_settings(world: World, asker: str) -> None:
    preferences = world.site.as_(world.people["player"]).put(
        "/api/me/preferences",
        json={"language": "bg", "home_side": "left"},
        headers={"X-CSRF-Token": world.people["player"].csrf},  # type: ignore[union-attr]
    )
    assert preferences.status_code == 200, preferences.text
    profile = world.get(asker, "/api/users/player")
    assert profile.status_code == 200, profile.text
    hidden = {
        "language",
        "home_side",
        "csrf_token",
        "password_hash",
        "token",
        "contact_email",
        "balance_cents",
    }
    assert keys_of(profile.json()) & hidden == set()
