"""Finished and live games as the archive shows them: summaries, records, profiles."""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.core.dicestats import dice_stats
from tavla.core.gamedice import GameDice as RecordDice
from tavla.match.actions import ActionKind, MatchAction
from tavla.match.mat import export_mat
from tavla.match.record import MatchRecord, replay_states
from tavla.match.settings import MatchSettings
from tavla.schema import match_state_json
from tavla.server.errors import ApiError
from tavla.server.i18n import N_
from tavla.server.live.basics import bot_name
from tavla.server.live.gamerows import site_bots
from tavla.storage.models import GameAction, GameDice, LiveGame, User

__all__ = ["player_names", "profile", "record", "record_json", "record_mat", "replay_json", "summary"]

PROFILE_GAMES = 50


def seat_of(row: LiveGame, user_id: int) -> int | None:
    if row.seat0_user_id == user_id:
        return 0
    if row.seat1_user_id == user_id:
        return 1
    return None


async def player_names(db: AsyncSession, row: LiveGame) -> list[str]:
    names = []
    for user_id, bot in ((row.seat0_user_id, row.seat0_bot), (row.seat1_user_id, row.seat1_bot)):
        if bot is not None and user_id is None:
            names.append(bot_name(bot))
        else:
            user = None if user_id is None else await db.get(User, user_id)
            names.append(user.name if user else "?")
    return names


async def summary(db: AsyncSession, row: LiveGame) -> dict[str, Any]:
    settings = MatchSettings.from_json(row.settings)
    return {
        "id": row.id,
        "game": settings.game,
        "title": settings.definition.facts.title,
        "length": settings.length,
        "players": await player_names(db, row),
        "bots": site_bots(row),
        "status": row.status,
        "score": row.score,
        "winner": row.winner,
        "created_ms": row.created_ms,
        "finished_ms": row.finished_ms,
    }


async def _actions(db: AsyncSession, game_id: str) -> list[MatchAction]:
    rows = await db.scalars(
        select(GameAction).where(GameAction.game_id == game_id).order_by(GameAction.index)
    )
    return [MatchAction(ActionKind(a.kind), a.seat, a.value, a.t_ms) for a in rows]


async def record(db: AsyncSession, row: LiveGame) -> MatchRecord:
    """The game's match record; a game's server seed only once that game is over."""
    settings = MatchSettings.from_json(row.settings)
    dice_rows = list(
        await db.scalars(select(GameDice).where(GameDice.game_id == row.id).order_by(GameDice.game_number))
    )
    dice = tuple(
        RecordDice(
            d.commitment, d.client_seed, d.server_seed if d.revealed or row.status == "finished" else None
        )
        for d in dice_rows
    )
    return MatchRecord(settings, await _actions(db, row.id), dice=dice)


async def replay_json(db: AsyncSession, row: LiveGame) -> dict[str, Any]:
    """The states of the match as clients draw them, with the action that led to each."""
    match_record = await record(db, row)
    states = list(replay_states(match_record))
    steps: list[dict[str, Any]] = []
    for index, state in enumerate(states):
        action = None if index == 0 else match_record.actions[index - 1]
        t_ms = 0 if action is None else action.t_ms
        steps.append(
            {
                "action": None if action is None else action.to_json(),
                "match": match_state_json(state, t_ms).model_dump(mode="json", by_alias=True),
            }
        )
    return {"id": row.id, "players": await player_names(db, row), "bots": site_bots(row), "states": steps}


async def record_json(db: AsyncSession, row: LiveGame) -> str:
    return (await record(db, row)).to_json()


async def record_mat(db: AsyncSession, row: LiveGame) -> str:
    match_record = await record(db, row)
    if not match_record.settings.definition.facts.gnubg_compatible:
        raise ApiError(
            409, "no_mat", N_("the .mat format is for tabla, not {game}"), game=match_record.settings.game
        )
    return export_mat(match_record)


async def profile(db: AsyncSession, user: User) -> dict[str, Any]:
    rows = list(
        await db.scalars(
            select(LiveGame)
            .where(
                LiveGame.status == "finished",
                or_(LiveGame.seat0_user_id == user.id, LiveGame.seat1_user_id == user.id),
            )
            .order_by(LiveGame.finished_ms.desc())
        )
    )
    games = [await summary(db, row) for row in rows[:PROFILE_GAMES]]
    rolls: list[tuple[int, int]] = []
    for row in rows:
        seat = seat_of(row, user.id)
        for action in await _actions(db, row.id):
            if action.kind == ActionKind.ROLL and action.seat == seat and len(action.value) == 2:
                rolls.append((int(action.value[0]), int(action.value[1])))
    stats = dice_stats(rolls)
    return {
        "name": user.name,
        "games": games,
        "played": len(rows),
        "won": sum(1 for row in rows if row.winner is not None and row.winner == seat_of(row, user.id)),
        "dice": {
            "rolls": stats.rolls,
            "doubles": stats.doubles,
            "expected_doubles": stats.expected_doubles,
            "faces": list(stats.faces),
            "expected_per_face": stats.expected_per_face,
            "chi_square": stats.chi_square,
            "p_value": stats.p_value,
            "doubles_p_value": stats.doubles_p_value,
        },
    }
