"""A Swiss tournament made from a TRF16 report (docs/tournaments.md, "Importing a TRF
file"): its players become entrants, its rounds official boards, and the next round is
paired by the Dutch system as ``tavla pair`` pairs the file.

Players are matched by name: a player of the federation, or a bot account, whose name
is the report's name enters as himself; anybody else enters as a *guest entrant*, an
account of his own that nobody can sign in to. Nothing is stored unless the whole file
can be used: every problem is a refusal naming the line.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.server.accounts import name_key, now_ms
from tavla.server.errors import ApiError
from tavla.server.federations.standing import Role, standing_of
from tavla.server.i18n import N_
from tavla.server.tournaments import rounds, service
from tavla.server.tournaments.results import finish_if_done
from tavla.server.tournaments.schemas import TournamentCreate, TrfImport
from tavla.server.tournaments.stored import Stored, load
from tavla.storage.models import (
    Federation,
    FederationRole,
    Tournament,
    TournamentEntrant,
    TournamentPairing,
    User,
)
from tavla.tournament import dutch
from tavla.tournament.history import Colour, Outcome, TournamentError
from tavla.tournament.trf import PLAYER_TAG, TrfTournament, read_trf

NAME_TAG = "012"
NAME_LENGTH = 80
ACCOUNT_NAME_LENGTH = 32
GUEST_KEY_PREFIX = "~trf-"
"""Guest entrants' name keys: no registered name begins with "~", so none is ever taken."""

_GAME_RESULTS = {
    # (White's outcome, Black's): the stored result and score. The report has no score:
    # a win counts one set (or point) won, the last tie-break's unit.
    (Outcome.WIN, Outcome.LOSS): ("white", 1, 0),
    (Outcome.LOSS, Outcome.WIN): ("black", 0, 1),
    (Outcome.DRAW, Outcome.DRAW): ("draw", 0, 0),
    (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS): ("white_ff", 0, 0),
    (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN): ("black_ff", 0, 0),
    (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS): ("both_ff", 0, 0),
}


@dataclass(frozen=True)
class PlannedBoard:
    """One board of an imported round, by start numbers (``black`` None: a bye)."""

    round: int
    board: int
    white: int
    black: int | None
    result: str
    white_score: int = 0
    black_score: int = 0


def player_lines(text: str) -> dict[int, int]:
    """The line number of each start number's 001 line (read_trf has checked them)."""
    found: dict[int, int] = {}
    for line_number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(PLAYER_TAG) and line[4:8].strip().isdigit():
            found.setdefault(int(line[4:8]), line_number)
    return found


def check_importable(report: TrfTournament, lines: dict[int, int], lengths: tuple[int, ...]) -> int:
    """What the site cannot take from a readable report; the tournament's rounds."""
    total = report.total_rounds
    if total is None:
        raise TournamentError("the number of rounds is missing: add a line 'XXR n'")
    played = report.played_rounds
    if played == 0:
        raise TournamentError(
            "no round has been played: create the tournament on the site and let its players register"
        )
    if played > total:
        raise TournamentError(f"{played} rounds are written but XXR says the tournament has {total}")
    if played < total:
        for number in sorted(report.absent_from_next_round()):
            raise TournamentError(
                f"line {lines[number]}: player {number} is marked absent from round {played + 1} "
                "before it is paired; the site pairs every player: remove the mark"
            )
    rounds.check_field(rounds.SWISS, total, lengths, len(report.players))
    return total


def plan_boards(report: TrfTournament, lines: dict[int, int]) -> list[PlannedBoard]:
    """The boards of the rounds played: each game once, from its lower start number's
    line; then the byes (U a pairing bye, H a half-point bye). A Z is no board: a player
    without one in a round was absent."""
    by_number = {entrant.number: entrant for entrant in report.entrants}
    planned: list[PlannedBoard] = []
    for index in range(report.played_rounds):
        games: list[tuple[int, int | None, str, int, int]] = []
        byes: list[tuple[int, int | None, str, int, int]] = []
        for entrant in report.entrants:
            entry = entrant.rounds[index] if index < len(entrant.rounds) else None
            if entry is None or entry.outcome is Outcome.ZERO_BYE:
                continue
            if entry.opponent is None:
                kind = "bye" if entry.outcome is Outcome.PAIRING_BYE else rounds.HALF_BYE
                byes.append((entrant.number, None, kind, 0, 0))
                continue
            if entry.opponent < entrant.number:
                continue
            theirs = by_number[entry.opponent].rounds[index]
            white_first = entry.colour is not Colour.BLACK
            white, black = (entry, theirs) if white_first else (theirs, entry)
            found = _GAME_RESULTS.get((white.outcome, black.outcome))
            if found is None:
                raise TournamentError(
                    f"line {lines[entrant.number]}: round {index + 1}: the results "
                    f"{entry.outcome.value} and {theirs.outcome.value} of players {entrant.number} "
                    f"and {entry.opponent} contradict each other"
                )
            result, white_score, black_score = found
            numbers = (entrant.number, entry.opponent) if white_first else (entry.opponent, entrant.number)
            games.append((*numbers, result, white_score, black_score))
        for board, (white_number, black_number, result, ws, bs) in enumerate(games + byes, start=1):
            planned.append(PlannedBoard(index + 1, board, white_number, black_number, result, ws, bs))
    return planned


def _refused(error: TournamentError) -> ApiError:
    return ApiError(422, "bad_trf", N_("the TRF file cannot be used: {detail}"), detail=str(error))


async def _accounts_by_name(db: AsyncSession, federation: Federation, keys: set[str]) -> dict[str, User]:
    """The federation's players and the bot accounts, by name key, among ``keys``."""
    players = await db.scalars(
        select(User)
        .join(FederationRole, FederationRole.user_id == User.id)
        .where(FederationRole.federation_id == federation.id, FederationRole.role == Role.PLAYER.value)
    )
    bots = await db.scalars(select(User).where(User.bot_level.is_not(None), User.name_key.in_(keys)))
    found = {user.name_key: user for user in bots}
    found.update({user.name_key: user for user in players if user.name_key in keys})
    return found


def _guest_entrant(name: str, number: int) -> User:
    return User(
        name=(name or f"Player {number}")[:ACCOUNT_NAME_LENGTH],
        name_key=GUEST_KEY_PREFIX + secrets.token_hex(8),
        password_hash=None,
        guest=True,
        created_ms=now_ms(),
    )


async def _enter(
    db: AsyncSession,
    tournament: Tournament,
    federation: Federation,
    report: TrfTournament,
    lines: dict[int, int],
) -> dict[int, TournamentEntrant]:
    """Each 001 line's entrant, checked in under its start number, by start number."""
    keys = {name_key(player.entrant.name.strip()) for player in report.players}
    accounts = await _accounts_by_name(db, federation, keys)
    entrant_of: dict[int, TournamentEntrant] = {}
    taken: dict[int, int] = {}
    for player in report.players:
        number = player.entrant.number
        user = accounts.get(name_key(player.entrant.name.strip()))
        if user is not None and user.id in taken:
            raise _refused(
                TournamentError(f"lines {lines[taken[user.id]]} and {lines[number]} both name {user.name}")
            )
        if user is None:
            user = _guest_entrant(player.entrant.name, number)
            db.add(user)
            await db.flush()
        taken[user.id] = number
        entrant = TournamentEntrant(
            tournament_id=tournament.id,
            user_id=user.id,
            start_number=number,
            rating=player.entrant.rating,
            checked_in=True,
            withdrawn=False,
            registered_ms=now_ms(),
        )
        db.add(entrant)
        entrant_of[number] = entrant
    await db.flush()
    return entrant_of


async def import_trf(
    db: AsyncSession, actor: User | None, federation: Federation, body: TrfImport
) -> Tournament:
    """The tournament made from ``body.trf``, running (or finished when every round of
    ``XXR`` is written), with the rounds played official."""
    service.check_may_run(await standing_of(db, actor), federation)
    lengths = tuple(body.match_lengths)
    text = body.trf.removeprefix("\ufeff")  # the byte order mark some Windows programs write
    try:
        report = read_trf(text)
        lines = player_lines(text)
        total = check_importable(report, lines, lengths)
        planned = plan_boards(report, lines)
    except TournamentError as error:
        raise _refused(error) from None
    name = (body.name or "").strip() or next(
        (h[3:].strip() for h in report.headers if h.startswith(NAME_TAG)), ""
    )
    made = TournamentCreate(
        name=name[:NAME_LENGTH],
        game=body.game,
        format=rounds.SWISS,
        match_lengths=list(lengths),
        rounds=total,
    )
    tournament = await service.create(db, actor, federation, made)

    entrant_of = await _enter(db, tournament, federation, report, lines)
    for board in planned:
        db.add(
            TournamentPairing(
                tournament_id=tournament.id,
                round=board.round,
                board=board.board,
                white_id=entrant_of[board.white].id,
                black_id=None if board.black is None else entrant_of[board.black].id,
                result=board.result,
                white_score=board.white_score,
                black_score=board.black_score,
                white_confirmed=True,
                black_confirmed=True,
                official=True,
            )
        )
    tournament.state = "running"
    tournament.current_round = report.played_rounds
    await db.flush()
    stored = await load(db, tournament)
    if not finish_if_done(stored):
        _check_next_round(stored, report)
    await db.flush()
    return tournament


def _check_next_round(stored: Stored, report: TrfTournament) -> None:
    """The round to come, paired from the stored boards, is the file's. It can differ
    only through the first round's colour, which the site reads back from the games'
    colours (a forfeit has none here) where the file may say it with XXC."""
    played, total = report.played_rounds, report.total_rounds or 0

    def ours() -> object:
        try:
            boards = rounds.pair(
                rounds.SWISS, total, stored.lengths, stored.players(), stored.played(), played + 1
            )
        except TournamentError:
            return None
        return [(b.white, b.black) for b in boards]

    def theirs() -> object:
        try:
            paired = dutch.pair_round(report.entrants, played, total, frozenset(), report.first_colour)
        except TournamentError:
            return None
        return list(paired.games) + ([(paired.bye, None)] if paired.bye is not None else [])

    if ours() != theirs():
        raise _refused(
            TournamentError(
                f"round {played + 1} would be paired otherwise than the file pairs it: its XXC "
                "line, or the colours written for its forfeits, disagree with the colours of its "
                "games; remove the XXC line or those colours"
            )
        )
