"""Starting rounds and recording their games: the part of the tournaments that makes
live games and hears when they finish.

One director per server process, which owns its live games (ARCHITECTURE.md). Its
lock keeps a round's start and the results of its games in order: a bot's game may
end before the round's last game is made, and its result must find its board.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tavla.core.registry import find_game
from tavla.match.clock import ClockSettings
from tavla.match.settings import MatchSettings
from tavla.server.errors import ApiError
from tavla.server.events import GameFinished
from tavla.server.federations.standing import standing_of
from tavla.server.i18n import N_
from tavla.server.live.room import Refused, SeatInfo
from tavla.server.live.rooms import Rooms
from tavla.server.tournaments import rounds, withdrawals
from tavla.server.tournaments.results import finish_if_done, record_game
from tavla.server.tournaments.service import check_may_run, check_state
from tavla.server.tournaments.stored import Stored, load, tournament_at
from tavla.storage.models import LiveGame, TournamentPairing, User
from tavla.tournament.history import TournamentError
from tavla.tournament.lengths import match_length

log = logging.getLogger(__name__)


def gameless_boards(stored: Stored) -> list[TournamentPairing]:
    """The boards of the current round still waiting for their game: a start that
    failed half way (none once every game is made; a bye or an imported board has none)."""
    return [
        p
        for p in stored.round_pairings(stored.tournament.current_round)
        if p.black_id is not None and p.game_id is None and p.result is None
    ]


def match_settings(stored: Stored, round_number: int, names: tuple[str, str]) -> MatchSettings:
    """A round's match: its length in points with the backgammon clock, or for a game
    without dice (Abluka) in sets with the 15-minute sudden-death clock (RULES.md 8.3,
    9.1, 10, 11.4). The game's facts decide, as for the ratings, not its name."""
    tournament = stored.tournament
    total = stored.total_rounds() or round_number
    length = match_length(stored.lengths, round_number, total)
    if not find_game(tournament.game).facts.has_dice:
        return MatchSettings(
            game=tournament.game, sets=length, clock=ClockSettings.sudden_death(), names=names
        )
    return MatchSettings(
        game=tournament.game, length=length, clock=ClockSettings.backgammon(length), names=names
    )


class Director:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], rooms: Rooms) -> None:
        self.sessions = sessions
        self.rooms = rooms
        self.lock = asyncio.Lock()
        self.on_finished: list[Callable[[int], Awaitable[None]]] = []
        """Told the id of a tournament whose last result became official (its prizes)."""

    async def start_round(self, actor: User, tournament_id: int) -> int:
        """Pair the next round and make its live games; the round's number.

        A round whose games could not all be made (the database refused one) stays
        paired: starting it again makes the games it still lacks, and pairs nothing."""
        async with self.lock:
            try:
                number, federation_id, finished, games = await self._pair(actor, tournament_id)
            except IntegrityError:
                # Another process paired the same round a moment before (where the
                # database cannot lock the tournament's row for one of them: SQLite).
                raise ApiError(
                    409, "round_started", N_("this round was started meanwhile; reload the tournament")
                ) from None
            # The round is stored: now its games, each stored by the rooms on its own.
            for made, (pairing_id, seats, settings) in enumerate(games):
                try:
                    await self._make_game(pairing_id, seats, settings, federation_id)
                except Exception:
                    log.exception("tournament %s, round %s: a game could not be made", tournament_id, number)
                    raise ApiError(
                        503,
                        "round_incomplete",
                        N_("round {round} is paired but {missing} of its games could not be made: "
                           "start the round again to make them"),
                        round=number,
                        missing=len(games) - made,
                    ) from None  # fmt: skip
        if finished:  # the round's every board was a withdrawn player's forfeit
            await self._tell_finished(tournament_id)
        return number

    async def _pair(
        self, actor: User, tournament_id: int
    ) -> tuple[int, int, bool, list[tuple[int, tuple[SeatInfo, SeatInfo], MatchSettings]]]:
        """Pair the next round, or find the boards a failed start left without a game:
        the round's number, the federation, whether that finished the tournament, and
        the games to make."""
        async with self.sessions() as db, db.begin():
            stored = await load(db, await tournament_at(db, tournament_id, for_update=True))
            check_may_run(await standing_of(db, actor), stored.federation)
            boards = gameless_boards(stored) or await self._pair_next(db, stored)
            number = stored.tournament.current_round
            games = []
            for pairing in boards:
                if pairing.black_id is not None and pairing.result is None:
                    seats = self._seats(stored, pairing)
                    settings = match_settings(stored, number, (seats[0].name, seats[1].name))
                    games.append((pairing.id, seats, settings))
            return number, stored.federation.id, stored.tournament.state == "finished", games

    async def _make_game(
        self, pairing_id: int, seats: tuple[SeatInfo, SeatInfo], settings: MatchSettings, federation_id: int
    ) -> None:
        # Nobody chooses a dice seed for a tournament's game before it is made: the
        # server draws both seats' (docs/fair-dice.md); the commitment still comes first.
        seeds = (secrets.token_hex(8), secrets.token_hex(8))
        # The round starts now; the first game waits for both players, under the
        # no-show procedure (RULES.md 11.4).
        room = await self.rooms.create(
            settings,
            seats,
            spectators=True,
            client_seeds=seeds,
            federation_id=federation_id,
            await_players=True,
        )
        # Only a board still without a game takes this one: a start of the same round on
        # another process may have made its game meanwhile (each start only sees which
        # boards lacked one when it locked the tournament).
        try:
            async with self.sessions() as db, db.begin():
                made = update(TournamentPairing).where(
                    TournamentPairing.id == pairing_id, TournamentPairing.game_id.is_(None)
                )
                result = cast(CursorResult[Any], await db.execute(made.values(game_id=room.game_id)))
                taken = result.rowcount == 1
        except BaseException:
            # A game no board knows would wait for players nobody sends: it goes, and
            # the next start finds the board still without one.
            with contextlib.suppress(Exception):
                await self.rooms.discard(room)
            raise
        if not taken:
            log.info(
                "board %s got its game from another start; game %s is discarded", pairing_id, room.game_id
            )
            await self.rooms.discard(room)

    async def _pair_next(self, db: AsyncSession, stored: Stored) -> list[TournamentPairing]:
        tournament = stored.tournament
        if tournament.current_round == 0:
            check_state(tournament, "check_in")
            self._number_the_field(stored)
        else:
            check_state(tournament, "running")
            if stored.official_rounds() < tournament.current_round:
                raise ApiError(
                    409,
                    "round_open",
                    N_("round {round} still has results that are not official"),
                    round=tournament.current_round,
                )
        number = tournament.current_round + 1
        players = stored.players()
        try:
            rounds.check_field(tournament.format, tournament.rounds, stored.lengths, len(players))
            played = stored.played()
            # A Swiss round of a hundred players takes a fraction of a second: beside
            # the event loop, so that the games on this process go on meanwhile.
            boards = await asyncio.to_thread(
                rounds.pair, tournament.format, tournament.rounds, stored.lengths, players, played, number
            )
        except TournamentError as error:
            raise ApiError(
                409, "cannot_pair", N_("the round cannot be paired: {detail}"), detail=str(error)
            ) from None
        tournament.state = "running"
        tournament.current_round = number
        entrant_of = {e.start_number: e for e, _ in stored.starters()}
        made = []
        for board in boards:
            bye = board.black is None
            pairing = TournamentPairing(
                tournament_id=tournament.id,
                round=number,
                board=board.board,
                white_id=entrant_of[board.white].id,
                black_id=None if bye else entrant_of[board.black].id,
                result="bye" if bye else None,
                white_score=0,
                black_score=0,
                white_confirmed=bye,
                black_confirmed=bye,
                official=bye,
            )
            db.add(pairing)
            made.append(pairing)
        await db.flush()
        stored.pairings.extend(made)
        await withdrawals.forfeit_withdrawn(db, stored, made)
        finish_if_done(stored)
        return made

    @staticmethod
    def _number_the_field(stored: Stored) -> None:
        """Start numbers for the checked-in entrants: by rating, then name (FIDE's
        order); those who did not check in take no part."""
        present = [(e, u) for e, u in stored.entrants if e.checked_in and not e.withdrawn]
        present.sort(key=lambda item: (-item[0].rating, item[1].name_key))
        for number, (entrant, _) in enumerate(present, start=1):
            entrant.start_number = number

    @staticmethod
    def _seats(stored: Stored, pairing: TournamentPairing) -> tuple[SeatInfo, SeatInfo]:
        users: dict[int, User] = {e.id: u for e, u in stored.entrants}

        def seat(entrant_id: int | None) -> SeatInfo:
            if entrant_id is None:  # a bye has no game, so it never reaches here
                raise RuntimeError(f"pairing {pairing.id} has an empty seat")
            user = users[entrant_id]
            return SeatInfo(user.name, user.id, user.bot_level)

        return seat(pairing.white_id), seat(pairing.black_id)

    # ---------------------------------------------------------------- results
    async def game_finished(self, event: GameFinished) -> None:
        """A game ended: if it is a tournament's, its result goes on its board."""
        if event.federation_id is None:
            return
        async with self.lock:
            finished = await self._record(event)
        if finished is not None:
            await self._tell_finished(finished)

    async def _record(self, event: GameFinished) -> int | None:
        """The game's result on its board (once); the tournament's id if that finished it."""
        async with self.sessions() as db, db.begin():
            pairing = await db.scalar(
                select(TournamentPairing).where(TournamentPairing.game_id == event.game_id)
            )
            if pairing is None or pairing.result is not None:
                return None
            stored = await load(db, await tournament_at(db, pairing.tournament_id, for_update=True))
            board = next(p for p in stored.pairings if p.id == pairing.id)
            # Read again under the tournament's lock: another process (the game's owner,
            # or one catching up after it died) may have recorded it meanwhile.
            await db.refresh(board)
            if board.result is not None:
                return None
            forfeited = await withdrawals.ended_by_forfeit(db, event.game_id)
            await record_game(db, stored, board, event, forfeited=forfeited)
            return stored.tournament.id if stored.tournament.state == "finished" else None

    async def _tell_finished(self, tournament_id: int) -> None:
        for hook in self.on_finished:
            await hook(tournament_id)

    async def withdraw(self, user: User, tournament_id: int, number: int | None, note: str) -> None:
        """Withdraw a player from the running tournament (withdrawals.py): ``number``
        None is ``user`` himself. His live game of the round is forfeited and its
        result recorded before this returns."""
        async with self.lock:
            async with self.sessions() as db, db.begin():
                done = await withdrawals.withdraw(db, user, tournament_id, number, note)
            finished = tournament_id if done.finished else None
            forfeit = done.forfeit
            if forfeit is not None:
                try:
                    outcome = await self.rooms.officiate(
                        forfeit.game_id, "forfeit", forfeit.seat, forfeit.note
                    )
                except Refused as refused:
                    # The match ended by itself a moment before (its own result stands and
                    # is recorded as any game's), or its server cannot be reached (its
                    # result comes when the game ends there).
                    log.info("game %s: no forfeit (%s)", forfeit.game_id, refused.message)
                    outcome = None
                if outcome is not None:
                    event = GameFinished(
                        forfeit.game_id, outcome.federation_id, outcome.winner, outcome.score
                    )
                    finished = await self._record(event) or finished
        if finished is not None:
            await self._tell_finished(finished)

    async def catch_up(self) -> int:
        """Record the games that finished while nobody listened (a stop between a game's
        end and its result); the number recorded. Run at start-up."""
        async with self.sessions() as db:
            rows = await db.execute(
                select(LiveGame.id, LiveGame.federation_id, LiveGame.winner, LiveGame.score)
                .join(TournamentPairing, TournamentPairing.game_id == LiveGame.id)
                .where(TournamentPairing.result.is_(None), LiveGame.status == "finished")
            )
            missed = [GameFinished(g, f, w, (int(s[0]), int(s[1]))) for g, f, w, s in rows.all()]
        for event in missed:
            await self.game_finished(event)
        return len(missed)
