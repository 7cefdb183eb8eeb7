"""Withdrawing from a running tournament (docs/tournaments.md, "Withdrawals").

A player withdraws himself, or an administrator or arbiter of the federation withdraws
him with a reason. His unfinished match of the current round is lost by forfeit: the
director has the live game forfeited by the room (its end is recorded as any game's),
and a board still without a game gets the forfeit at once. Later rounds do the same
as they are made (round robin, knockout), or leave him out (Swiss). Before the start,
withdrawing is taking back one's registration (service.withdraw).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.match.actions import ActionKind
from tavla.server.errors import ApiError, forbidden, invalid, not_found
from tavla.server.federations.standing import standing_of
from tavla.server.i18n import N_
from tavla.server.tournaments import powers
from tavla.server.tournaments.results import record_forfeit
from tavla.server.tournaments.service import check_state
from tavla.server.tournaments.stored import Stored, load, tournament_at
from tavla.storage.models import GameAction, TournamentEntrant, TournamentPairing, User

NOTE_LIMIT = 200
"""As long as an official's note on the match may be (tavla.match.officials)."""

FORFEIT_ENDINGS = (str(ActionKind.FORFEIT), str(ActionKind.ABSENT), str(ActionKind.VOID))
"""The last actions of a match lost without being played out: a forfeit (a withdrawal,
an official's decision), the no-show procedure (RULES.md 11.4: "wins by forfeit"), or
an official's forfeit of both players (a void match)."""


@dataclass(frozen=True)
class LiveForfeit:
    """The live game the withdrawn player's seat loses by forfeit."""

    game_id: str
    seat: int
    note: str


@dataclass(frozen=True)
class Withdrawal:
    forfeit: LiveForfeit | None
    finished: bool
    """The withdrawal decided the tournament's last open board: it is over."""


def _entry_by_number(stored: Stored, number: int) -> TournamentEntrant:
    entry = next((e for e, _ in stored.starters() if e.start_number == number), None)
    if entry is None:
        raise not_found(N_("this tournament has no player with the start number {number}"), number=number)
    return entry


def _own_start(stored: Stored, user: User) -> TournamentEntrant:
    entry = next((e for e, u in stored.starters() if u.id == user.id), None)
    if entry is None:
        raise not_found(N_("you are not playing in this tournament"))
    return entry


def _note(text: str, official: bool) -> str:
    note = " ".join(text.split())
    if len(note) > NOTE_LIMIT:
        raise invalid(N_("reason: at most {limit} characters"), limit=NOTE_LIMIT)
    if official and not note:
        raise invalid(N_("reason: an official who withdraws a player says why"))
    return note


async def withdraw(
    db: AsyncSession, user: User, tournament_id: int, number: int | None, text: str
) -> Withdrawal:
    """Withdraw the player of start ``number`` (an official), or ``user`` himself
    (``number`` None), inside ``db``'s transaction; what is left to do on the live game."""
    stored = await load(db, await tournament_at(db, tournament_id, for_update=True))
    tournament = stored.tournament
    if number is None:
        note = _note(text, official=False)
        entry = _own_start(stored, user)
        check_state(tournament, "running")
    else:
        entered = {u.id for _, u in stored.entrants}
        if not powers.can_withdraw(await standing_of(db, user), stored.federation.id, entered):
            raise forbidden(
                N_("only an administrator or arbiter of {federation} who does not play in the tournament "
                   "may withdraw its players"),
                federation=stored.federation.name,
            )  # fmt: skip
        note = _note(text, official=True)
        check_state(tournament, "running")
        entry = _entry_by_number(stored, number)
    if entry.withdrawn:
        raise ApiError(409, "already_withdrawn", N_("the player has already withdrawn from this tournament"))
    entry.withdrawn = True
    entry.withdrawn_round = tournament.current_round
    entry.withdrawn_by = user.id
    entry.withdrawn_note = note or None
    board = _open_board(stored, entry)
    forfeit = None
    if board is not None and board.game_id is None:
        await record_forfeit(db, stored, board, "black_ff" if board.white_id == entry.id else "white_ff")
    elif board is not None and board.game_id is not None:
        forfeit = LiveForfeit(board.game_id, 0 if board.white_id == entry.id else 1, note)
    await db.flush()
    return Withdrawal(forfeit, tournament.state == "finished")


def _open_board(stored: Stored, entry: TournamentEntrant) -> TournamentPairing | None:
    """The player's board of the current round while it has no result: a game (a bye
    or a rest has its result from the start)."""
    for pairing in stored.round_pairings(stored.tournament.current_round):
        if entry.id in (pairing.white_id, pairing.black_id) and pairing.result is None:
            return pairing
    return None


async def forfeit_withdrawn(db: AsyncSession, stored: Stored, boards: list[TournamentPairing]) -> None:
    """A new round's boards with a withdrawn player are his forfeits, official at once
    and without a live game (both withdrawn: a double forfeit)."""
    withdrawn = {e.id for e, _ in stored.entrants if e.withdrawn}
    for board in boards:
        if board.black_id is None:
            continue  # a bye or a rest: nobody to give a win to
        white_out, black_out = board.white_id in withdrawn, board.black_id in withdrawn
        if white_out or black_out:
            result = "both_ff" if white_out and black_out else ("black_ff" if white_out else "white_ff")
            await record_forfeit(db, stored, board, result)


async def ended_by_forfeit(db: AsyncSession, game_id: str) -> bool:
    """Whether the game's last action was a forfeit that ended the match."""
    last = await db.scalar(
        select(GameAction.kind)
        .where(GameAction.game_id == game_id)
        .order_by(GameAction.index.desc())
        .limit(1)
    )
    return last in FORFEIT_ENDINGS
