"""A finished game's analysis as the archive shows it (docs/analysis.md, docs/API.md).

The bot of the game's variant reviews every turn, cube decision and roll of the match
record (:func:`tavla.analysis.report.analyze`) as ``tavla analyze`` does by default:
tabla at 0 plies, the games whose networks learnt from their own play one roll deep.
Only a finished game is analysed: the review names the best turn of every position,
which would help a player still at the board. A review takes from a fraction of a
second (tabla) to several (the progressive doubles of chelebi and gulbara), so it runs
in the bots' workers (:mod:`tavla.server.live.thinking`), a few actions a call so that
the bots' own calls go between, one review at a time in a server process, and the last
ones are kept: a finished game's record never changes.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from tavla.analysis.checker import RolledLoss
from tavla.analysis.report import MARK_NAMES, Analysis, Part, combine, default_plies, review_part
from tavla.analysis.rollouts import with_rollouts
from tavla.bots.network import Network, shipped_games
from tavla.bots.search import SearchSettings
from tavla.match.record import MatchRecord
from tavla.match.state import MatchState
from tavla.server.errors import ApiError
from tavla.server.i18n import N_
from tavla.server.live.thinking import BotThinking

KEPT = 64
"""Analyses a process keeps for the next visitors of the same games."""
PART_ACTIONS = 16
"""Actions reviewed by one call to the workers, so that a bot's move waits for no whole
match's review: a second at most in tabla and tapa."""
GAME_PART_ACTIONS = {"chelebi": 4, "gulbara": 4}
"""Where one action's lookahead over a huge double takes seconds: parts of 16 actions
took up to 8.4 s in chelebi and 16.3 s in gulbara, parts of 4 up to 7.4 and 6.6 s, about
one action's worth (docs/analysis.md, "On the site")."""


def part_actions(game: str) -> int:
    """Actions of ``game``'s record reviewed by one call to the workers."""
    return GAME_PART_ACTIONS.get(game, PART_ACTIONS)


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    """The review as the API gives it: equities in points per game, rounded to 0.001;
    ``step`` is the replay's step showing the position after the action (its index + 1)."""
    return {
        "game": analysis.game,
        "plies": analysis.plies,
        "totals": [
            {
                "seat": player.seat,
                "decisions": player.decisions,
                "error_rate": round(player.error_rate, 1),
                "marks": {mark: player.marks[mark] for mark in MARK_NAMES},
                "cube_decisions": player.cube_decisions,
                "cube_error_rate": round(player.cube_error_rate, 1),
                "cube_marks": {mark: player.cube_marks[mark] for mark in MARK_NAMES},
                "luck": round(player.luck, 3),
                "rolls": player.rolls,
            }
            for player in analysis.players
        ],
        "moves": [
            {
                "step": review.action_index + 1,
                "game": review.game_number,
                "seat": review.seat,
                "played": review.played,
                "best": review.best,
                "equity": round(review.played_equity, 3),
                "best_equity": round(review.best_equity, 3),
                "loss": round(review.loss, 3),
                "judged_loss": round(review.judged_loss, 3),
                "rollout": None if review.rollout is None else rolled_json(review.rollout),
                "mark": review.mark,
                "forced": review.forced,
            }
            for review in analysis.moves
        ],
        "cubes": [
            {
                "step": review.action_index + 1,
                "game": review.game_number,
                "seat": review.seat,
                "kind": review.kind,
                "chosen": review.chosen,
                "right": review.right,
                "loss": round(review.loss, 3),
                "mark": review.mark,
            }
            for review in analysis.cubes
        ],
        "lucks": [
            {
                "step": luck.action_index + 1,
                "seat": luck.seat,
                "dice": f"{luck.dice[0]}{luck.dice[1]}",
                "luck": round(luck.luck, 3),
            }
            for luck in analysis.lucks
        ],
    }


def rolled_json(rolled: RolledLoss) -> dict[str, Any]:
    """A turn's rollout as the API gives it (``loss`` may be below 0: the turn played
    did better than the bot's best)."""
    return {"loss": round(rolled.loss, 3), "error": round(rolled.error, 3), "trials": rolled.trials}


def review(record: MatchRecord, actions: range, start: MatchState | None) -> Part:
    """The review of ``actions`` of a finished match's record by its game's shipped
    network, as deep as ``tavla analyze`` reviews the game by default; ``start`` is the
    state before the first of them (None: the record's start)."""
    game = record.settings.game
    network = Network.shipped(game)
    return review_part(record, lambda _: network, SearchSettings(plies=default_plies(game)), actions, start)


def check_analysable(finished: bool, game: str) -> None:
    """Raises :class:`ApiError` 409 while the game is being played, and for a game no
    bot reviews (Abluka, indiyka: no network)."""
    if not finished:
        raise ApiError(409, "not_finished", N_("a game is analysed once it is over"))
    if game not in shipped_games():
        raise ApiError(409, "no_analysis", N_("no bot analyses {game} games yet"), game=game)


class Analyses:
    """The analyses of one server process: made one at a time, the last :data:`KEPT` kept."""

    def __init__(self, thinking: BotThinking, kept: int = KEPT) -> None:
        self._thinking = thinking
        self._kept = kept
        self._done: OrderedDict[str, Analysis] = OrderedDict()
        self._lock = asyncio.Lock()
        self.made = 0
        """Analyses computed (not taken from those kept): what the tests count."""

    async def _review(self, record: MatchRecord) -> Analysis:
        """The record reviewed a few actions a call (:func:`part_actions`): the bots'
        calls to the same workers go between the parts."""
        parts: list[Part] = []
        start: MatchState | None = None
        total = len(record.actions)
        size = part_actions(record.settings.game)
        for first in range(0, total, size):
            part = await self._thinking.run(review, record, range(first, min(first + size, total)), start)
            parts.append(part)
            start = part.end
        if not parts:
            parts.append(await self._thinking.run(review, record, range(0), None))
        return combine(record, parts)

    async def analysis(self, game_id: str, record: MatchRecord) -> Analysis:
        """The review of the finished game ``game_id`` whose record is ``record``
        (:func:`check_analysable` first): made here once, then kept."""
        async with self._lock:  # one review at a time: each keeps a core busy
            if game_id not in self._done:
                self._done[game_id] = await self._review(record)
                self.made += 1
                while len(self._done) > self._kept:
                    self._done.popitem(last=False)
            self._done.move_to_end(game_id)
            return self._done[game_id]

    async def of(
        self,
        game_id: str,
        finished: bool,
        record: MatchRecord,
        rolled: Mapping[int, RolledLoss] | None = None,
    ) -> dict[str, Any]:
        """The analysis of the game ``game_id`` whose record is ``record`` as the API
        gives it, its marked turns' rollouts ``rolled`` (by action index) taken in.

        Raises :class:`ApiError` 409 while the game is being played, and for a game no
        bot reviews (Abluka, indiyka: no network)."""
        check_analysable(finished, record.settings.game)
        found = await self.analysis(game_id, record)
        if rolled:
            found = with_rollouts(found, record, rolled)
        return analysis_json(found)
