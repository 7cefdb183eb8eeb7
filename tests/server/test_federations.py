"""Federations and their roles (RULES.md 11.1, 11.2; docs/federations.md), over HTTP.

Every action is tried by everybody (``ACTORS``): those the rules allow succeed, and
everybody else is refused with a clear error and leaves the database as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import DATABASES, _postgres_database
from tests.server.federation_world import ACTORS, BFB, TBF, World, build_world


@pytest.fixture(scope="module", params=DATABASES)
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    if request.param == "postgresql":
        url = _postgres_database()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('federations') / 'tavla.db'}"
    yield from build_world(url)


@dataclass(frozen=True)
class Action:
    """One thing somebody may try: the request, who may do it, and how to undo it."""

    name: str
    send: Callable[[World, str], Any]
    allowed: frozenset[str]
    undo: Callable[[World], Any] | None = None
    where: str | None = TBF
    """What a refusal must name (the federation), when it names one."""


ACTIONS = (
    Action(
        "create a federation",
        lambda w, who: w.post(who, "/api/federations", {"name": "Yeni Federasyon", "slug": "yeni"}),
        frozenset({"owner"}),
        undo=None,  # each success makes a new federation (another slug below)
        where=None,
    ),
    Action(
        "appoint an administrator",
        lambda w, who: w.put(who, "/api/federations/tbf/administrators/outsider"),
        frozenset({"owner"}),
        undo=lambda w: w.delete("owner", "/api/federations/tbf/administrators/outsider"),
    ),
    Action(
        "remove an administrator",
        lambda w, who: w.delete(who, "/api/federations/tbf/administrators/admin"),
        frozenset({"owner"}),
        undo=lambda w: w.put("owner", "/api/federations/tbf/administrators/admin"),
    ),
    Action(
        "appoint an arbiter",
        lambda w, who: w.put(who, "/api/federations/tbf/arbiters/outsider"),
        frozenset({"admin"}),
        undo=lambda w: w.delete("admin", "/api/federations/tbf/arbiters/outsider"),
    ),
    Action(
        "remove an arbiter",
        lambda w, who: w.delete(who, "/api/federations/tbf/arbiters/arbiter"),
        frozenset({"admin"}),
        undo=lambda w: w.put("admin", "/api/federations/tbf/arbiters/arbiter"),
    ),
    Action(
        "admit a player",
        lambda w, who: w.put(who, "/api/federations/tbf/players/outsider"),
        frozenset({"admin"}),
        undo=lambda w: w.delete("admin", "/api/federations/tbf/players/outsider"),
    ),
    Action(
        "remove a player",
        lambda w, who: w.delete(who, "/api/federations/tbf/players/opponent"),
        frozenset({"admin"}),
        undo=lambda w: w.put("admin", "/api/federations/tbf/players/opponent"),
    ),
    Action(
        "read the members' contacts and applications",
        lambda w, who: w.get(who, "/api/federations/tbf/administration"),
        frozenset({"admin"}),
    ),
    Action(
        "turn down an application",
        lambda w, who: w.delete(who, "/api/federations/tbf/applications/applicant"),
        frozenset({"admin", "applicant"}),  # the applicant withdraws his own
        undo=lambda w: w.post(
            "applicant", "/api/federations/tbf/applications", {"contact_email": "aday@example.org"}
        ),
    ),
    Action(
        "watch the private game",
        lambda w, who: w.get(who, f"/api/games/{w.private_game}"),
        frozenset({"player", "arbiter"}),
        where=None,
    ),
    Action(
        "read the private game's record",
        lambda w, who: w.get(who, f"/api/games/{w.private_game}/record"),
        frozenset({"player", "arbiter"}),
        where=None,
    ),
    Action(
        "read the private game's chat",
        lambda w, who: w.get(who, f"/api/games/{w.private_game}/chat"),
        frozenset({"player", "arbiter"}),
        where=None,
    ),
    Action(
        "read the public game's chat",
        lambda w, who: w.get(who, f"/api/games/{w.public_game}/chat"),
        frozenset({"player", "arbiter"}),
        where=None,
    ),
    Action(
        "close the private game's chat",
        lambda w, who: w.post(who, f"/api/games/{w.private_game}/chat/close"),
        frozenset({"arbiter"}),
        undo=None,  # closing is for good: the allowed case has its own game below
        where=None,
    ),
)
CASES = [(action, actor) for action in ACTIONS for actor in ACTORS]


@pytest.mark.parametrize(
    ("action", "actor"),
    [(a, who) for a, who in CASES if who not in a.allowed],
    ids=[f"{a.name}-{who}" for a, who in CASES if who not in a.allowed],
)
def test_a_forbidden_action_is_refused_clearly_and_changes_nothing(
    world: World, action: Action, actor: str
) -> None:
    before = world.snapshot()
    response = action.send(world, actor)
    error = response.json()["error"]
    if actor == "nobody" and response.status_code == 401:
        assert error["code"] == "not_signed_in"
    else:
        assert response.status_code == 403, (response.status_code, response.text)
        assert error["code"] == "forbidden"
        if action.where is not None:
            assert action.where in error["message"], error  # says where
        assert error["message"].startswith("only ") or "spectators" in error["message"], error
    assert world.snapshot() == before


ALLOWED = [(a, who) for a, who in CASES if who in a.allowed and a.name != "close the private game's chat"]


@pytest.mark.parametrize(("action", "actor"), ALLOWED, ids=[f"{a.name}-{who}" for a, who in ALLOWED])
def test_an_allowed_action_succeeds(world: World, action: Action, actor: str) -> None:
    if action.name == "create a federation":
        response = world.post(actor, "/api/federations", {"name": "Yeni Federasyon", "slug": "yeni-2"})
        assert response.status_code == 201, response.text
        assert world.get("nobody", "/api/federations/yeni-2").json()["name"] == "Yeni Federasyon"
        return
    before = world.snapshot()
    response = action.send(world, actor)
    assert response.status_code in (200, 201), response.text
    if action.undo is not None:
        assert world.snapshot() != before
        assert action.undo(world).status_code in (200, 201)
        assert world.snapshot() == before
    else:
        assert world.snapshot() == before  # a reading


def test_the_matrix_covers_every_actor_and_action() -> None:
    refused = [(a, who) for a, who in CASES if who not in a.allowed]
    assert len(CASES) == len(ACTIONS) * len(ACTORS) == 154
    assert len(refused) == 154 - sum(len(a.allowed) for a in ACTIONS)
    assert {who for a in ACTIONS for who in a.allowed} <= set(ACTORS)


def test_an_arbiter_closes_the_chat_for_good_over_http(world: World) -> None:
    game = world.start_game("tbf", spectators=False)
    assert world.say(game, "player", "merhaba")["type"] == "ack"
    assert world.post("player", f"/api/games/{game}/chat/close").status_code == 403
    closed = world.post("arbiter", f"/api/games/{game}/chat/close")
    assert closed.status_code == 200, closed.text
    chat = world.get("arbiter", f"/api/games/{game}/chat").json()
    assert chat["closed"] is True and [m["text"] for m in chat["messages"]] == ["merhaba"]
    refused = world.say(game, "player", "hâlâ burada mısın?")
    assert refused["code"] == "chat_off"
    assert world.post("arbiter", f"/api/games/{game}/chat/close").status_code == 200  # again: no change


# ------------------------------------------------------------- what is public


def test_the_public_page_shows_names_and_roles_and_nothing_private(world: World) -> None:
    public = world.get("nobody", "/api/federations/tbf").json()
    assert public["name"] == TBF
    assert public["administrators"] == ["admin"] and public["arbiters"] == ["arbiter"]
    assert set(public["players"]) == {"member", "player", "opponent"}
    assert "applicant" not in str(public) and "@" not in str(public)
    listed = world.get("nobody", "/api/federations").json()
    assert {f["slug"] for f in listed} >= {"tbf", "bfb"}
    private = world.get("admin", "/api/federations/tbf/administration").json()
    assert private["applications"] == [
        {
            "name": "applicant",
            "contact_email": "aday@example.org",
            "created_ms": private["applications"][0]["created_ms"],
        }
    ]
    other = world.get("other_admin", "/api/federations/bfb/administration").json()
    assert other["name"] == BFB and other["applications"] == []  # his own, not tbf's


def test_admitting_an_applicant_keeps_his_contact_for_the_administrators_only(world: World) -> None:
    assert (
        world.post(
            "outsider", "/api/federations/tbf/applications", {"contact_email": "d@example.org"}
        ).status_code
        == 201
    )
    again = world.post("outsider", "/api/federations/tbf/applications", {})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_applied"
    assert world.put("admin", "/api/federations/tbf/players/outsider").json() == {
        "federation": "tbf",
        "name": "outsider",
        "role": "player",
    }
    members = world.get("admin", "/api/federations/tbf/administration").json()
    assert {"name": "outsider", "role": "player", "contact_email": "d@example.org"}.items() <= next(
        m for m in members["members"] if m["name"] == "outsider"
    ).items()
    assert "outsider" not in {a["name"] for a in members["applications"]}
    member_again = world.post("outsider", "/api/federations/tbf/applications", {})
    assert member_again.status_code == 409 and member_again.json()["error"]["code"] == "already_member"
    assert member_again.json()["error"]["message"] == f"you are already a player of {TBF}"
    assert world.delete("outsider", "/api/federations/tbf/players/outsider").status_code == 200  # he leaves
    assert "outsider" not in world.get("nobody", "/api/federations/tbf").json()["players"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "X", "slug": "fine"}, "name"),
        ({"name": "Good Name", "slug": "Bad Slug"}, "slug"),
        ({"name": "Good Name", "slug": "-edge"}, "slug"),
        ({"name": "Good Name", "slug": "site"}, "reserved"),
    ],
)
def test_a_bad_federation_is_refused_saying_which_field(
    world: World, body: dict[str, str], field: str
) -> None:
    before = world.snapshot()
    response = world.post("owner", "/api/federations", body)
    assert response.status_code == 422 and field in response.json()["error"]["message"]
    assert world.snapshot() == before


def test_a_federation_s_name_is_counted_once_its_spaces_are_tidied(world: World) -> None:
    """2 to 80 characters, counted after the spaces around it and runs of them inside are
    tidied ("  X  " is one character)."""
    for name in ("  X  ", "X" * 81):
        response = world.post("owner", "/api/federations", {"name": name, "slug": "fine"})
        assert response.status_code == 422
        assert response.json()["error"]["message"] == "name: a federation's name is 2 to 80 characters"
    made = world.post("owner", "/api/federations", {"name": "  Ege   Tavla  ", "slug": "ege"})
    assert made.status_code == 201 and made.json()["name"] == "Ege Tavla", made.text


def test_a_taken_address_an_unknown_account_and_a_guest_are_refused(world: World) -> None:
    before = world.snapshot()
    taken = world.post("owner", "/api/federations", {"name": "Again", "slug": "tbf"})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "slug_taken"
    unknown = world.put("admin", "/api/federations/tbf/arbiters/nosuchname")
    assert unknown.status_code == 404 and "nosuchname" in unknown.json()["error"]["message"]
    guest_name = world.people["guest"].name  # type: ignore[union-attr]
    guest = world.put("admin", f"/api/federations/tbf/arbiters/{guest_name}")
    assert guest.status_code == 404 and guest_name in guest.json()["error"]["message"]
    applying = world.post("guest", "/api/federations/tbf/applications", {})
    assert applying.status_code == 403 and "register" in applying.json()["error"]["message"]
    not_held = world.delete("admin", "/api/federations/tbf/arbiters/member")
    assert not_held.status_code == 404 and TBF in not_held.json()["error"]["message"]
    missing = world.get("nobody", "/api/federations/nowhere")
    assert missing.status_code == 404 and "nowhere" in missing.json()["error"]["message"]
    bad_role = world.put("owner", "/api/federations/tbf/owners/admin")
    assert bad_role.status_code == 404
    assert world.snapshot() == before


def test_the_site_owner_is_set_on_the_command_line(world: World, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tavla.cli.main import app

    runner = CliRunner()
    database = ["--database", world.database_url]
    made = runner.invoke(app, ["site-owner", "member", *database])
    assert made.exit_code == 0 and "member is now a site owner" in made.output
    listed = runner.invoke(app, ["site-owner", *database]).stdout.splitlines()
    assert "member" in listed and len(listed) >= 2, listed  # one name a line
    assert world.post("member", "/api/federations", {"name": "Üçüncü", "slug": "ucuncu"}).status_code == 201
    taken_back = runner.invoke(app, ["site-owner", "member", "--revoke", *database])
    assert taken_back.exit_code == 0 and taken_back.stdout == "member is no longer a site owner\n"
    assert (
        world.post("member", "/api/federations", {"name": "Dördüncü", "slug": "dorduncu"}).status_code == 403
    )
    nobody = runner.invoke(app, ["site-owner", "nosuchname", *database])
    assert nobody.exit_code == 2 and "register it first" in nobody.stderr and nobody.stdout == ""
