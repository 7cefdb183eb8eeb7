"""The federations' pages: what each visitor is shown, in each language (docs/federations.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.server.federation_world import BFB, TBF, World, build_world
from tests.server.test_i18n import untranslated

from tavla.server.i18n import translate
from tavla.server.i18n_catalog import translated_languages


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    # Pages read what the API tests store; SQLite alone suffices for what they show.
    yield from build_world(f"sqlite:///{tmp_path_factory.mktemp('federation-pages') / 'tavla.db'}")


def test_the_list_shows_every_federation_and_the_form_to_create_one_to_the_owner_only(world: World) -> None:
    for who in ("nobody", "admin", "owner"):
        page = world.get(who, "/federations")
        assert page.status_code == 200
        assert TBF in page.text and BFB in page.text and 'href="/federations/tbf"' in page.text
        assert ('id="create-federation"' in page.text) == (who == "owner"), who


def test_the_public_page_shows_the_roles_and_no_contact(world: World) -> None:
    page = world.get("nobody", "/federations/tbf").text
    for name in ("admin", "arbiter", "member", "player", "opponent"):
        assert f'href="/u/{name}"' in page
    assert "applicant" not in page and "@example.org" not in page
    assert "/federations/tbf/admin" not in page
    assert "/federations/tbf/admin" in world.get("admin", "/federations/tbf").text
    assert 'id="apply"' in world.get("outsider", "/federations/tbf").text
    waiting = world.get("applicant", "/federations/tbf").text  # he has applied: his application waits
    assert 'id="apply"' not in waiting and "Withdraw the application" in waiting
    assert "Leave the federation" in world.get("member", "/federations/tbf").text
    assert world.get("nobody", "/federations/nowhere").status_code == 404


def test_the_administration_page_is_the_administrators_and_shows_them_everything(world: World) -> None:
    page = world.get("admin", "/federations/tbf/admin")
    assert page.status_code == 200
    assert "aday@example.org" in page.text  # the applicant's contact
    for form in ("appoint-arbiter", "admit-player"):
        assert f'id="{form}"' in page.text
    assert 'data-url="/api/federations/tbf/players/{name}"' in page.text
    assert 'id="appoint-administrator"' not in page.text  # the site owner's


def test_the_site_owner_sees_only_the_administrators_part(world: World) -> None:
    page = world.get("owner", "/federations/tbf/admin")
    assert page.status_code == 200 and 'id="appoint-administrator"' in page.text
    assert "aday@example.org" not in page.text and 'id="admit-player"' not in page.text


@pytest.mark.parametrize("who", ["nobody", "guest", "outsider", "member", "arbiter", "other_admin"])
def test_anybody_else_is_refused_the_administration_page_saying_why(world: World, who: str) -> None:
    page = world.get(who, "/federations/tbf/admin")
    assert page.status_code == 403
    assert "only the administrators of Türkiye Tavla Federasyonu" in page.text
    assert "aday@example.org" not in page.text and "applicant" not in page.text


@pytest.mark.parametrize("language", translated_languages())
def test_the_federation_pages_have_no_english_left(world: World, language: str) -> None:
    names = ("admin", "arbiter", "member", "player", "opponent", "applicant", "owner", "other_admin")
    for who, path in (
        ("nobody", "/federations"),
        ("owner", "/federations"),
        ("outsider", "/federations/tbf"),
        ("member", "/federations/tbf"),
        ("admin", "/federations/tbf/admin"),
        ("owner", "/federations/tbf/admin"),
        ("other_admin", "/federations/tbf/admin"),
    ):
        page = world.get(who, path, params={"lang": language}, headers={"Accept-Language": language})
        if who != "nobody":  # a registered account reads its own language: switch it
            player = world.people[who]
            assert player is not None
            world.site.as_(player).put(
                "/api/me/preferences", json={"language": language}, headers={"X-CSRF-Token": player.csrf}
            )
            page = world.get(who, path)
            world.site.as_(player).put(
                "/api/me/preferences", json={"language": "en"}, headers={"X-CSRF-Token": player.csrf}
            )
        assert f'<html lang="{language}">' in page.text, (who, path)
        assert translate(language, "Federations") in page.text
        assert untranslated(language, page.text, names) == [], (who, path)
