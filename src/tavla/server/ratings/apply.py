"""Applying official tournament results to the federations' ratings (docs/ratings.md).

A backgammon-family match is rated alone, by the FIBS formula, as soon as its result
is official. Abluka is rated by Glicko-2 one tournament round at a time: the round is
the rating period, rated when its last result becomes official.

Each change is a :class:`RatingChange` row whose (pairing, player) pair is unique: the
rows are written in a savepoint before anything else, so a repeated confirmation, a
restart or a second process that reaches the same result finds them (or trips on the
unique key) and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.core.registry import find_game
from tavla.ratings.fibs import START_RATING, FibsRating, rate_match
from tavla.ratings.glicko2 import START_DEVIATION, START_VOLATILITY, Glicko2Rating, rate_all
from tavla.server.accounts import now_ms
from tavla.server.tournaments.stored import Stored
from tavla.storage.models import PlayerRating, RatingChange, TournamentPairing, User
from tavla.tournament.lengths import match_length


def uses_glicko2(game: str) -> bool:
    """Abluka (no dice, no match points) is rated by Glicko-2; the backgammon family by
    FIBS, whose formula is made for matches to a number of points."""
    return not find_game(game).facts.has_dice


WHITE_SCORE = {"white": 1.0, "black": 0.0}
"""The results a played game decided. A draw and a bye are not rated, nor a forfeit: a
win on a board without a game."""


@dataclass(frozen=True)
class RatedMatch:
    pairing: TournamentPairing
    white: int
    black: int
    white_score: float
    length: int


def rated_match(stored: Stored, pairing: TournamentPairing) -> RatedMatch | None:
    """The pairing as a rated match, or None when it does not count: no official win
    of a played game, or a bot on either side."""
    if not pairing.official or pairing.result not in WHITE_SCORE or pairing.black_id is None:
        return None
    if pairing.game_id is None:  # won without playing: a forfeit
        return None
    users: dict[int, User] = {entrant.id: user for entrant, user in stored.entrants}
    white, black = users[pairing.white_id], users[pairing.black_id]
    if white.bot_level is not None or black.bot_level is not None:
        return None
    total = stored.total_rounds() or pairing.round
    length = match_length(stored.lengths, pairing.round, total)
    return RatedMatch(pairing, white.id, black.id, WHITE_SCORE[pairing.result], length)


async def apply_official_result(db: AsyncSession, stored: Stored, pairing: TournamentPairing) -> int:
    """Rate what ``pairing`` becoming official completes; the number of change rows written
    (0 when nothing is due or it was applied already)."""
    if uses_glicko2(stored.tournament.game):
        round_pairings = stored.round_pairings(pairing.round)
        if not all(p.official for p in round_pairings):
            return 0  # the period is still open
        matches = [m for p in round_pairings if (m := rated_match(stored, p)) is not None]
    else:
        single = rated_match(stored, pairing)
        matches = [] if single is None else [single]
    if not matches:
        return 0
    try:
        async with db.begin_nested():
            if await _already_applied(db, matches):
                return 0
            if uses_glicko2(stored.tournament.game):
                rows = await _rate_glicko2(db, stored, matches)
            else:
                rows = await _rate_fibs(db, stored, matches[0])
            db.add_all(rows)
            await db.flush()
    except IntegrityError:
        return 0  # another process applied it between our look and our write
    return len(rows)


async def _already_applied(db: AsyncSession, matches: list[RatedMatch]) -> bool:
    ids = [m.pairing.id for m in matches]
    found = await db.scalar(
        select(func.count()).select_from(RatingChange).where(RatingChange.pairing_id.in_(ids))
    )
    return bool(found)


async def _ratings_of(db: AsyncSession, stored: Stored, user_ids: set[int]) -> dict[int, PlayerRating]:
    """The players' current rows, locked; a newcomer gets the starting values."""
    federation_id, game = stored.federation.id, stored.tournament.game
    found = await db.scalars(
        select(PlayerRating)
        .where(
            PlayerRating.federation_id == federation_id,
            PlayerRating.game == game,
            PlayerRating.user_id.in_(sorted(user_ids)),
        )
        .with_for_update()
    )
    rows = {row.user_id: row for row in found}
    glicko = uses_glicko2(game)
    for user_id in user_ids - rows.keys():
        row = PlayerRating(
            federation_id=federation_id,
            game=game,
            user_id=user_id,
            rating=START_RATING,
            experience=0,
            deviation=START_DEVIATION if glicko else None,
            volatility=START_VOLATILITY if glicko else None,
            matches=0,
            updated_ms=0,
        )
        db.add(row)
        rows[user_id] = row
    return rows


def _change(stored: Stored, match: RatedMatch, user_id: int, row: PlayerRating, when: int) -> RatingChange:
    """The history row of ``user_id`` in ``match``, from his row before it changes."""
    white = user_id == match.white
    return RatingChange(
        federation_id=stored.federation.id,
        game=stored.tournament.game,
        user_id=user_id,
        opponent_id=match.black if white else match.white,
        tournament_id=stored.tournament.id,
        pairing_id=match.pairing.id,
        round=match.pairing.round,
        score=match.white_score if white else 1.0 - match.white_score,
        match_length=match.length,
        before=row.rating,
        after=row.rating,
        deviation_before=row.deviation,
        deviation_after=row.deviation,
        volatility_after=row.volatility,
        t_ms=when,
    )


async def _rate_fibs(db: AsyncSession, stored: Stored, match: RatedMatch) -> list[RatingChange]:
    rows = await _ratings_of(db, stored, {match.white, match.black})
    winner, loser = (match.white, match.black) if match.white_score == 1.0 else (match.black, match.white)
    when = now_ms()
    changes = [_change(stored, match, user_id, rows[user_id], when) for user_id in (winner, loser)]
    after = rate_match(
        FibsRating(rows[winner].rating, rows[winner].experience),
        FibsRating(rows[loser].rating, rows[loser].experience),
        match.length,
    )
    for change, new in zip(changes, after, strict=True):
        row = rows[change.user_id]
        row.rating, row.experience = new.rating, new.experience
        row.matches += 1
        row.updated_ms = when
        change.after = new.rating
    return changes


async def _rate_glicko2(db: AsyncSession, stored: Stored, matches: list[RatedMatch]) -> list[RatingChange]:
    """One rating period: everyone who played in the round, rated from the values at its
    start. A player with a bye, a forfeit or a bot opponent is not in the period."""
    players = {m.white for m in matches} | {m.black for m in matches}
    rows = await _ratings_of(db, stored, players)
    start = {
        user_id: Glicko2Rating(
            row.rating,
            START_DEVIATION if row.deviation is None else row.deviation,
            START_VOLATILITY if row.volatility is None else row.volatility,
        )
        for user_id, row in rows.items()
    }
    new = rate_all(start, [(m.white, m.black, m.white_score) for m in matches])
    when = now_ms()
    changes = [
        _change(stored, m, user_id, rows[user_id], when) for m in matches for user_id in (m.white, m.black)
    ]
    for change in changes:
        rated = new[change.user_id]
        change.after = rated.rating
        change.deviation_after = rated.deviation
        change.volatility_after = rated.volatility
    for m in matches:
        for user_id in (m.white, m.black):
            row = rows[user_id]
            row.experience += m.length
            row.matches += 1
    for user_id, row in rows.items():
        rated = new[user_id]
        row.rating, row.deviation, row.volatility = rated.rating, rated.deviation, rated.volatility
        row.updated_ms = when
    return changes
