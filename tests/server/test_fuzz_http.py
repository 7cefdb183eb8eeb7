"""Hostile requests to every HTTP route (docs/API.md 3 and 9), drawn by Hypothesis.

The routes are read from the app itself. Whoever asks (nobody, a guest, an ordinary
signed-in player) and whatever the path, query and body hold, the server never
answers 5xx, a refused API request answers the project's error shape, and a refused
request changes nothing in the database. ``FUZZ_HTTP_EXAMPLES`` draws more
(benchmarks/fuzz_counts.py reports the counts).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.server.federation_world import World, build_world
from tests.server.hostile import HOSTILE_TEXT, JSON_VALUES, SCALARS, dump, game_ids, nested, routes, settled

from tavla.server.nul import RefuseNul

EXAMPLES = int(os.environ.get("FUZZ_HTTP_EXAMPLES", "600"))
SHORT_TEXT = HOSTILE_TEXT.filter(lambda t: len(t) < 2000)
"""What fits in an address (the longest are sent as bodies)."""
WHO = ("nobody", "guest", "outsider")
"""Nobody, a guest, and a registered player with no role: the ordinary askers."""


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    for world in build_world(database_url):
        settled(database_url)
        yield world


def path_value(world: World, name: str) -> st.SearchStrategy[str]:
    real = {
        "game_id": [world.private_game, world.public_game],
        "slug": ["tbf", "bfb"],
        "name": ["player", "admin", "outsider", "applicant"],
        "roles": ["players", "arbiters", "administrators"],
        "game": ["tabla", "tapa", "abluka"],
        "tournament_id": ["1"],
        "offer_id": ["1"],
    }.get(name, [])
    hostile = st.one_of(
        SHORT_TEXT.filter(lambda t: "/" not in t and t not in ("", ".", "..")),
        st.integers().map(str),
        st.sampled_from(["-1", "0", "99999999999999999999999", "1e9", "%2F", "null", "ş", "0x10"]),
    )
    return st.one_of(st.sampled_from(real), hostile) if real else hostile


QUERIES = st.dictionaries(
    st.sampled_from(["page", "limit", "offset", "game", "name", "q", "lang", "before", "status", "x"]),
    st.one_of(SHORT_TEXT, st.integers().map(str)),
    max_size=3,
)
BODY_FIELDS = [
    "name", "password", "language", "game", "length", "chat", "spectators", "level", "slug",
    "text", "note", "seat", "contact_email", "home_side", "stake", "settings", "rounds",
    "amount_cents", "initial_cents", "maximum_cents", "entry_fee_cents", "stake_cents",
    "prize_shares", "reason", "reference", "federation", "cube", "jacoby", "beavers",
    "raccoons", "sets", "clock", "move_s", "reserve_s", "options", "client_seed",
    "commitment_id", "points", "result", "trf", "swiss_rounds", "match_lengths", "sponsor",
    "format", "role", "bot", "number", "withdrawn_note",
]  # fmt: skip
BODIES = st.one_of(
    st.none(),
    JSON_VALUES.map(json.dumps),
    st.dictionaries(st.sampled_from(BODY_FIELDS), st.one_of(SCALARS, JSON_VALUES), max_size=5).map(
        json.dumps
    ),
    st.sampled_from(["{", "not json", nested(1500), '{"name": "' + "ş" * 20_000 + '"}']),
)


TEMPLATES: dict[str, dict[str, Any]] = {
    "/api/register": {"name": "yeni", "password": "correct horse"},
    "/api/login": {"name": "outsider", "password": "correct horse"},
    "/api/me/preferences": {"language": "tr", "home_side": "left"},
    "/api/offers": {"game": "tabla", "length": 3, "chat": True, "spectators": True},
    "/api/bot-games": {"level": "easy", "game": "tapa", "length": 1},
    "/api/federations/{slug}/applications": {"contact_email": "a@example.org"},
    "/api/federations/{slug}/money/{name}/deposits": {"amount_cents": 100, "reason": "x"},
    "/api/federations/{slug}/tournaments": {"name": "Kupa", "swiss_rounds": 3},
    "/api/games/{game_id}/warnings": {"seat": 0, "note": "x"},
    "/api/tournaments/{tournament_id}/sponsorships": {"amount_cents": 100},
}
"""Bodies a route would take, each drawn with one field made hostile: so that the
fuzzing reaches past the first validation to the rules behind it."""
STAKED = {
    "game": "tabla",
    "length": 0,
    "federation": "tbf",
    "stake": {"initial_cents": 200, "maximum_cents": 500},
}


@st.composite
def near_valid(draw: st.DrawFn, template: dict[str, Any]) -> str:
    body = dict(draw(st.sampled_from([template, STAKED])) if "length" in template else template)
    field = draw(st.one_of(st.sampled_from(sorted(body)), st.sampled_from(BODY_FIELDS)))
    if draw(st.booleans()):
        body[field] = draw(st.one_of(SCALARS, JSON_VALUES))
    elif field in body:
        del body[field]
    return json.dumps(body)


def fill(path: str, values: dict[str, str]) -> str:
    from urllib.parse import quote

    for name, value in values.items():
        path = path.replace("{" + name + "}", quote(value, safe=""))
    return path


@pytest.mark.timeout(150 + EXAMPLES // 10)  # more examples asked, more time
def test_hostile_requests_never_fail_the_server_and_a_refusal_changes_nothing(world: World) -> None:
    app = world.site.client.app
    every_route = routes(app)
    database = world.database_url
    seen: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    games = game_ids(database)  # nobody plays these; games made by the fuzzing play on
    # The database as the last refused request left it (the same as before it): the
    # next request starts from there without reading every table again.
    unchanged: list[dict[str, list[tuple[Any, ...]]]] = []

    @st.composite
    def requests(draw: st.DrawFn) -> tuple[str, str, str, dict[str, str], str | None]:
        method, path, parameters = draw(st.sampled_from(every_route))
        values = {name: draw(path_value(world, name)) for name in parameters}
        template = TEMPLATES.get(path)
        body = draw(near_valid(template) if template is not None and draw(st.booleans()) else BODIES)
        return draw(st.sampled_from(WHO)), method, fill(path, values), draw(QUERIES), body

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(requests())
    def hostile(request: tuple[str, str, str, dict[str, str], str | None]) -> None:
        who, method, url, query, body = request
        player = world.people[who]
        if url == "/api/logout" and player is not None:
            player = None  # signing the fuzzing accounts out would leave nobody to fuzz as
        before = unchanged.pop() if unchanged else dump(database, among=games)
        headers = {"Content-Type": "application/json"}
        if player is not None:
            headers["X-CSRF-Token"] = player.csrf
        response = world.site.as_(player).request(method, url, params=query, content=body, headers=headers)
        seen[method] += 1
        statuses[response.status_code] += 1
        assert response.status_code < 500, (request, response.status_code, response.text[:500])
        if response.status_code >= 400:
            if url.startswith("/api/"):
                error = response.json()["error"]
                assert isinstance(error["code"], str) and error["code"], response.text
                assert isinstance(error["message"], str) and error["message"], response.text
            after = dump(database, among=games)
            assert after == before, (request, response.status_code)
            unchanged.append(after)

    hostile()
    tried = sum(seen.values())
    print(f"HTTP: {tried} requests {dict(seen)} over {len(every_route)} routes; statuses {dict(statuses)}")
    assert statuses[422] > 0 and statuses[404] > 0


@pytest.mark.timeout(60)
def test_a_json_body_nested_too_deep_is_refused_as_unreadable(world: World) -> None:
    database = world.database_url
    before = dump(database)
    player = world.people["outsider"]
    assert player is not None
    for url in ("/api/offers", "/api/federations", "/api/login"):
        response = world.site.as_(player).post(
            url,
            content=nested(2000),
            headers={"X-CSRF-Token": player.csrf, "Content-Type": "application/json"},
        )
        assert response.status_code == 400, (url, response.status_code, response.text[:300])
        assert response.json()["error"]["code"] == "invalid"
    assert dump(database) == before


@pytest.mark.timeout(60)
def test_numbers_beyond_the_database_in_an_address_are_invalid_not_a_failure(world: World) -> None:
    for url in ("/api/tournaments/9223372036854775808", "/tournaments/99999999999999999999"):
        response = world.get("outsider", url)
        assert response.status_code == 422, (url, response.text[:300])
        assert response.json()["error"]["code"] == "invalid"
    player = world.people["outsider"]
    assert player is not None
    response = world.site.delete(player, "/api/offers/-9223372036854775809")
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid"


@pytest.mark.timeout(60)
def test_an_unknown_address_or_method_answers_the_error_shape(world: World) -> None:
    response = world.get("nobody", "/api/no-such-thing")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    response = world.site.as_(None).delete("/api/health")
    assert response.status_code == 405 and response.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.timeout(60)
def test_a_nul_character_is_invalid_not_a_failure(world: World) -> None:
    for url in ("/game/%00", "/api/lobby?q=%00", "/api/federations/tbf%00"):
        response = world.get("outsider", url)
        assert response.status_code == 422, (url, response.text[:300])
        assert response.json()["error"]["code"] == "invalid"


@pytest.mark.timeout(60)
def test_a_nul_character_in_a_json_body_is_refused_alike_on_every_database(world: World) -> None:
    # PostgreSQL's text cannot hold one and SQLite can: both refuse it before storing.
    database = world.database_url
    before = dump(database)
    player = world.people["outsider"]
    assert player is not None
    headers = {"X-CSRF-Token": player.csrf, "Content-Type": "application/json"}
    for body in (
        json.dumps({"contact_email": "a\x00@b.org"}).encode(),
        json.dumps({"contact_email": "a@b.org", "x": [{"deep\x00key": 1}]}).encode(),
        json.dumps({"contact_email": "a\x00@b.org"}, ensure_ascii=False).encode("utf-16"),
    ):
        for url in ("/api/federations/tbf/applications", "/api/no-such-thing"):
            applied = world.site.as_(player).post(url, content=body, headers=headers)
            assert applied.status_code == 422, (body, url, applied.text[:300])
            error = applied.json()["error"]
            assert error == {"code": "invalid", "message": "a text may not hold a NUL character"}
    assert dump(database) == before
    # A backslash before "u0000" is no NUL: the text is stored as it was written.
    applied = world.post("outsider", "/api/federations/tbf/applications", {"contact_email": "a\\u0000@b.org"})
    assert applied.status_code == 201, applied.text[:300]


@pytest.mark.timeout(30)
def test_a_client_gone_in_the_middle_of_its_body_reaches_the_route_as_gone() -> None:
    """The NUL check reads a JSON body before the route does: a client that leaves half
    way is passed on as the part it sent and then its going away, as the route would
    have read it itself."""
    sent = [
        {"type": "http.request", "body": b'{"contact_email": ', "more_body": True},
        {"type": "http.disconnect"},
    ]
    seen: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(await receive())
        seen.append(await receive())

    async def receive() -> Any:
        return sent.pop(0)

    async def send(message: Any) -> None:  # the app answers nothing
        raise AssertionError(message)

    scope = {"type": "http", "method": "POST", "path": "/api/x", "query_string": b"", "headers": []}
    asyncio.run(RefuseNul(app)(scope, receive, send))
    assert seen == [
        {"type": "http.request", "body": b'{"contact_email": ', "more_body": False},
        {"type": "http.disconnect"},
    ]


@pytest.mark.timeout(30)
def test_a_body_sent_in_parts_is_read_whole_before_the_nul_check() -> None:
    """A client may send its body in several parts: the check reads them all, so a NUL in
    the second part is refused and a body without one reaches the route whole."""

    def run(parts: list[bytes]) -> tuple[list[Any], list[Any]]:
        sent = [
            {"type": "http.request", "body": part, "more_body": index < len(parts) - 1}
            for index, part in enumerate(parts)
        ]
        seen: list[Any] = []
        answered: list[Any] = []

        async def app(scope: Any, receive: Any, send: Any) -> None:
            seen.append(await receive())

        async def receive() -> Any:
            return sent.pop(0) if sent else {"type": "http.disconnect"}

        async def send(message: Any) -> None:
            answered.append(message)

        scope = {"type": "http", "method": "POST", "path": "/api/x", "query_string": b"", "headers": []}
        asyncio.run(RefuseNul(app)(scope, receive, send))
        return seen, answered

    seen, answered = run([b'{"contact_email": "a', b'@b.org"}'])
    assert seen == [{"type": "http.request", "body": b'{"contact_email": "a@b.org"}', "more_body": False}]
    assert answered == []
    seen, answered = run([b'{"contact_email": "a', b'\\u0000@b.org"}'])
    assert seen == [] and answered[0]["status"] == 422
