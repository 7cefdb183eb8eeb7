"""Reading the ratings: a federation's list for one game, and a player's ratings with
their history for the profile page."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.core.registry import all_games
from tavla.server.errors import not_found
from tavla.server.i18n import N_
from tavla.server.ratings.plot import PlotPoint, day, history_plot
from tavla.storage.models import Federation, PlayerRating, RatingChange, User

SORTS = ("rating", "name", "matches")
RECENT_CHANGES = 10


class RatingLine(BaseModel):
    rank: int
    name: str
    rating: float
    deviation: float | None
    experience: int
    matches: int


class RatingsList(BaseModel):
    federation: str
    game: str
    sort: str
    ratings: list[RatingLine]


def game_titles() -> dict[str, str]:
    return {definition.name: definition.facts.title for definition in all_games()}


def check_game(game: str) -> str:
    if game not in game_titles():
        raise not_found(N_("no game is called {game}"), game=game)
    return game


def check_sort(sort: str) -> str:
    if sort not in SORTS:
        raise not_found(N_("the list cannot be sorted by {sort}; rating, name or matches"), sort=sort)
    return sort


async def ratings_list(
    db: AsyncSession, federation: Federation, game: str, sort: str = "rating"
) -> RatingsList:
    """Everyone rated in ``federation`` for ``game``; the rank is always by rating."""
    check_game(game)
    check_sort(sort)
    rows = await db.execute(
        select(PlayerRating, User.name)
        .join(User, User.id == PlayerRating.user_id)
        .where(PlayerRating.federation_id == federation.id, PlayerRating.game == game)
        .order_by(PlayerRating.rating.desc(), User.name_key)
    )
    lines = [
        RatingLine(
            rank=rank,
            name=name,
            rating=round(row.rating, 2),
            deviation=None if row.deviation is None else round(row.deviation, 2),
            experience=row.experience,
            matches=row.matches,
        )
        for rank, (row, name) in enumerate(rows.all(), start=1)
    ]
    if sort == "name":
        lines.sort(key=lambda line: line.name.casefold())
    elif sort == "matches":
        lines.sort(key=lambda line: (-line.matches, line.rank))
    return RatingsList(federation=federation.slug, game=game, sort=sort, ratings=lines)


@dataclass(frozen=True)
class ChangeLine:
    t_ms: int
    date: str
    tournament_id: int
    round: int
    opponent: str | None
    won: bool
    before: float
    after: float


@dataclass(frozen=True)
class ProfileRating:
    federation_slug: str
    federation_name: str
    game: str
    game_title: str
    rating: float
    deviation: float | None
    matches: int
    plot_svg: str
    recent: list[ChangeLine]


async def profile_ratings(db: AsyncSession, user: User) -> list[ProfileRating]:
    """Each federation and game ``user`` is rated in: the rating, its history plotted,
    the latest changes first."""
    held = await db.execute(
        select(PlayerRating, Federation)
        .join(Federation, Federation.id == PlayerRating.federation_id)
        .where(PlayerRating.user_id == user.id)
        .order_by(Federation.name, PlayerRating.game)
    )
    titles = game_titles()
    shown = []
    for rating, federation in held.all():
        changes = await db.execute(
            select(RatingChange, User.name)
            .outerjoin(User, User.id == RatingChange.opponent_id)
            .where(
                RatingChange.federation_id == federation.id,
                RatingChange.game == rating.game,
                RatingChange.user_id == user.id,
            )
            .order_by(RatingChange.id)
        )
        history = [
            ChangeLine(
                c.t_ms, day(c.t_ms), c.tournament_id, c.round, opponent, c.score > 0.5, c.before, c.after
            )
            for c, opponent in changes.all()
        ]
        points = [PlotPoint(history[0].before, history[0].t_ms)] if history else []
        points += [PlotPoint(c.after, c.t_ms) for c in history]
        if not points:
            points = [PlotPoint(rating.rating, rating.updated_ms)]
        title = titles.get(rating.game, rating.game)
        plot = history_plot(points, f"{federation.name} · {title}")
        shown.append(
            ProfileRating(
                federation.slug,
                federation.name,
                rating.game,
                title,
                rating.rating,
                rating.deviation,
                rating.matches,
                plot.svg,
                list(reversed(history[-RECENT_CHANGES:])),
            )
        )
    return shown
