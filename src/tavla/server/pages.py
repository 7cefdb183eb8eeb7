"""The HTML pages, rendered on the server in the visitor's language."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy import select

from tavla.bots.network import shipped_games
from tavla.core.errors import UnknownGameError
from tavla.core.registry import all_games, find_game
from tavla.server import archive
from tavla.server.accounts import name_key
from tavla.server.deps import Db, OptionalSession, PlatformDep
from tavla.server.errors import ApiError
from tavla.server.federations.observing import check_may_observe
from tavla.server.i18n import (
    LANGUAGE_COOKIE,
    LANGUAGE_NAMES,
    LANGUAGES,
    N_,
    choose_language,
    money,
    number,
    score,
    translate,
    translations,
)
from tavla.server.live.basics import BOT_NAMES
from tavla.server.live.bots import LEVEL_TITLES, bot_levels
from tavla.server.ratings.views import profile_ratings
from tavla.storage.models import LiveGame, User

router = APIRouter(include_in_schema=False)

_env = Environment(
    loader=FileSystemLoader(Path(__file__).with_name("templates")),
    autoescape=select_autoescape(),
    extensions=["jinja2.ext.i18n"],
)


def page_language(request: Request, session: Any) -> str:
    """The account's language; for guests the chosen one, else the browser's."""
    chosen = request.query_params.get("lang") or request.cookies.get(LANGUAGE_COOKIE)
    user = None if session is None else session.user
    return choose_language(user, chosen, request.headers.get("accept-language", ""))


def render(request: Request, session: Any, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    language = page_language(request, session)
    _env.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    html = _env.get_template(template).render(
        request=request,
        user=None if session is None else session.user,
        csrf_token="" if session is None else session.csrf_token,
        language=language,
        languages=LANGUAGE_NAMES,
        seat_name=lambda game, seat: seat_name(language, game, seat),
        title_of_game=lambda name: game_title(language, name),
        money=lambda cents: money(language, cents),
        number=lambda value, places=2, **style: number(language, value, places, **style),
        score=lambda value: score(language, value),
        **context,
    )
    response = HTMLResponse(html, status_code=status)
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie(
            LANGUAGE_COOKIE, request.query_params["lang"], max_age=365 * 86_400, samesite="lax"
        )
    return response


def seat_name(language: str, game: Mapping[str, Any], seat: int) -> str:
    """A game row's player at ``seat`` as a page names him: the site's bot (the row's
    ``bots``) in the page's language, anybody else by his name."""
    level = (game.get("bots") or (None, None))[seat]
    if level in BOT_NAMES:
        return translate(language, BOT_NAMES[level])
    return str(game["players"][seat])


def game_title(language: str, name: str) -> str:
    """A game's title (``gulbara`` -> "Gul bara") in the page's language."""
    try:
        return translate(language, find_game(name).facts.title)
    except UnknownGameError:
        return name


def board_text(request: Request, session: Any) -> dict[str, str]:
    """The board's texts (static/text.json: key -> English) in the page's language."""
    path = Path(__file__).with_name("static") / "text.json"
    if not path.is_file():
        return {}
    english: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    language = translations(page_language(request, session))
    return {key: language.gettext(text) for key, text in english.items()}


OPTION_LABELS = {
    "mother_pin_wins": N_("Pinning the opponent's mother checker wins the game (the Greek rule)"),
    "progressive_from_roll": N_("A player's doubles are progressive from his roll number"),
}
"""What the lobby's forms call each rule option (docs/rules.md lists them all)."""


def _options(definition: Any) -> list[dict[str, Any]]:
    """The game's rule options as the forms show them: name, label, kind, default, range."""
    shown = []
    for field in dataclasses.fields(definition.options):
        default = getattr(definition.options, field.name)
        shown.append(
            {
                "name": field.name,
                "label": OPTION_LABELS.get(field.name, field.name),
                "kind": "bool" if isinstance(default, bool) else "int",
                "default": default,
                "min": field.metadata.get("min"),
                "max": field.metadata.get("max"),
            }
        )
    return shown


def _games() -> list[dict[str, Any]]:
    return [
        {
            "name": d.name,
            "title": d.facts.title,
            "has_dice": d.facts.has_dice,
            "has_cube": d.facts.has_cube,
            "options": _options(d),
        }
        # The backgammon family first (tabla leads the list), Abluka last.
        for d in sorted(all_games(), key=lambda d: not d.facts.has_dice)
    ]


@router.get("/", response_class=HTMLResponse)
async def lobby_page(request: Request, session: OptionalSession) -> Response:
    games = _games()
    language = page_language(request, session)
    # (The titles are the web board's texts "game.*": the catalog has them.)
    titles = {game["name"]: translate(language, game["title"]) for game in games}
    bots = {level: translate(language, name) for level, name in BOT_NAMES.items()}
    context: dict[str, Any] = {
        "games_titles": titles,
        "bot_names": bots,
        "levels": bot_levels(),
        "level_titles": LEVEL_TITLES,
    }
    return render(request, session, "lobby.html", games=games, **context)


@router.get("/game/{game_id}", response_class=HTMLResponse)
async def game_page(
    game_id: str, request: Request, db: Db, platform: PlatformDep, session: OptionalSession
) -> Response:
    row = await db.get(LiveGame, game_id)
    if row is None:
        return render(request, session, "missing.html", status=404)
    if row.status == "finished":
        return RedirectResponse(f"/archive/{game_id}", status_code=303)
    try:
        await check_may_observe(db, row, None if session is None else session.user)
    except ApiError:
        return render(request, session, "missing.html", status=403, private=True)
    stake = (await platform.staked.stakes_of([game_id])).get(game_id)
    return render(
        request,
        session,
        "game.html",
        game_id=game_id,
        board_text=board_text(request, session),
        stake=stake,
    )


@router.get("/archive/{game_id}", response_class=HTMLResponse)
async def archive_page(game_id: str, request: Request, db: Db, session: OptionalSession) -> Response:
    row = await db.get(LiveGame, game_id)
    if row is None:
        return render(request, session, "missing.html", status=404)
    try:
        await check_may_observe(db, row, None if session is None else session.user)
    except ApiError:
        return render(request, session, "missing.html", status=403, private=True)
    info = await archive.summary(db, row)
    # The bot's review is offered once the game is over, for the games a network plays.
    analysable = info["status"] == "finished" and info["game"] in shipped_games()
    return render(
        request,
        session,
        "archive.html",
        game_id=game_id,
        game=info,
        analysable=analysable,
        board_text=board_text(request, session),
    )


@router.get("/u/{name}", response_class=HTMLResponse)
async def profile_page(name: str, request: Request, db: Db, session: OptionalSession) -> Response:
    user = await db.scalar(select(User).where(User.name_key == name_key(name)))
    if user is None or user.guest:
        return render(request, session, "missing.html", status=404)
    return render(
        request,
        session,
        "profile.html",
        profile=await archive.profile(db, user),
        ratings=await profile_ratings(db, user),
    )


@router.get("/watch", response_class=HTMLResponse)
async def watch_page(request: Request, platform: PlatformDep, session: OptionalSession) -> Response:
    return render(request, session, "watch.html", live=(await platform.lobby.snapshot())["live"])
