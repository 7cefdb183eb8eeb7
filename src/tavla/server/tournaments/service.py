"""The tournaments' rules applied to the database: every function authorises first,
then changes or reads; a refusal changes nothing (the request's transaction ends with
the exception). Starting a round makes live games: that is the director's.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.core.errors import TavlaError
from tavla.core.registry import find_game
from tavla.engine.registry import LEVELS
from tavla.ratings.fibs import START_RATING
from tavla.server.accounts import name_key, now_ms
from tavla.server.errors import ApiError, forbidden, invalid, not_found
from tavla.server.federations.standing import Standing, standing_of
from tavla.server.i18n import N_
from tavla.server.tournaments import powers, rounds
from tavla.server.tournaments.results import settle
from tavla.server.tournaments.schemas import TournamentCreate, TournamentSummary
from tavla.server.tournaments.stored import Stored, load
from tavla.storage.models import (
    Federation,
    PlayerRating,
    Tournament,
    TournamentEntrant,
    TournamentPairing,
    User,
)
from tavla.tournament.history import TournamentError
from tavla.tournament.lengths import check_match_lengths

NAME_LENGTH = (2, 80)
MAX_MATCH_LENGTH = 25
"""The longest match the site offers (RULES.md 9.1); Abluka sets stay far below it."""

_NOT_NOW = {
    "draft": N_("not now: the tournament is still in preparation"),
    "registration": N_("not now: the tournament is open for registration"),
    "check_in": N_("not now: the tournament is in check-in"),
    "running": N_("not now: the tournament is running"),
    "finished": N_("not now: the tournament is finished"),
}
"""One sentence per state: a state's name inside a sentence would stay English."""


def summary(tournament: Tournament) -> TournamentSummary:
    return TournamentSummary(
        id=tournament.id,
        name=tournament.name,
        game=tournament.game,
        format=tournament.format,
        state=tournament.state,
        url=f"/tournaments/{tournament.id}",
    )


async def list_tournaments(db: AsyncSession, federation: Federation) -> list[TournamentSummary]:
    rows = await db.scalars(
        select(Tournament).where(Tournament.federation_id == federation.id).order_by(Tournament.id.desc())
    )
    return [summary(t) for t in rows]


def check_may_run(who: Standing, stored_federation: Federation) -> None:
    if not powers.can_run(who, stored_federation.id):
        raise forbidden(
            N_("only an administrator of {federation} may run its tournaments"),
            federation=stored_federation.name,
        )


def check_state(tournament: Tournament, *states: str) -> None:
    if tournament.state not in states:
        raise ApiError(409, "wrong_state", _NOT_NOW[tournament.state])


# ---------------------------------------------------------------- the administrators
async def create(
    db: AsyncSession, actor: User | None, federation: Federation, body: TournamentCreate
) -> Tournament:
    check_may_run(await standing_of(db, actor), federation)
    name = " ".join(body.name.split())
    if not NAME_LENGTH[0] <= len(name) <= NAME_LENGTH[1]:
        raise invalid(
            N_("name: a tournament's name is {least} to {most} characters"),
            least=NAME_LENGTH[0],
            most=NAME_LENGTH[1],
        )
    try:
        game = find_game(body.game).name
    except TavlaError:
        raise invalid(N_("game: there is no game {game}"), game=repr(body.game)) from None
    if body.format not in rounds.FORMATS:
        raise invalid(N_("format: {format} is not swiss, knockout or round_robin"), format=repr(body.format))
    if (body.rounds is None) != (body.format != rounds.SWISS):
        raise invalid(N_("rounds: a Swiss tournament gives its number of rounds, the other formats do not"))
    lengths = tuple(body.match_lengths)
    if any(not 1 <= length <= MAX_MATCH_LENGTH for length in lengths):
        raise invalid(N_("match_lengths: each length is 1 to {most}"), most=MAX_MATCH_LENGTH)
    if (
        body.format == rounds.KNOCKOUT
        and not find_game(game).facts.has_dice
        and any(n % 2 == 0 for n in lengths)
    ):
        # Abluka's match is won on sets: an even number can end level, and a knockout
        # match must have a winner.
        raise invalid(N_("match_lengths: a knockout of Abluka needs an odd number of sets"))
    if body.rounds is not None:
        try:
            check_match_lengths(lengths, body.rounds)
        except TournamentError:
            raise invalid(N_("match_lengths: give one length for every round or one per round")) from None
    tournament = Tournament(
        federation_id=federation.id,
        name=name,
        game=game,
        format=body.format,
        match_lengths=list(lengths),
        rounds=body.rounds,
        state="draft",
        current_round=0,
        created_by=actor.id if actor else None,
        created_ms=now_ms(),
    )
    db.add(tournament)
    await db.flush()
    return tournament


_NEXT_STATE = {"registration": ("draft",), "check_in": ("registration",)}


async def advance(db: AsyncSession, actor: User | None, tournament: Tournament, state: str) -> None:
    """Open registration (from the draft) or check-in (from registration)."""
    stored = await load(db, tournament)
    check_may_run(await standing_of(db, actor), stored.federation)
    check_state(tournament, *_NEXT_STATE[state])
    tournament.state = state
    await db.flush()


async def add_bot(db: AsyncSession, actor: User | None, tournament: Tournament, level: str) -> str:
    """An administrator enters a bot account (the engine at ``level``), checked in at once."""
    stored = await load(db, tournament)
    check_may_run(await standing_of(db, actor), stored.federation)
    check_state(tournament, "registration", "check_in")
    if level not in LEVELS:
        raise invalid(
            N_("level: {level} is not one of {levels}"), level=repr(level), levels=", ".join(LEVELS)
        )
    entered = {user.id for _, user in stored.entrants}
    bots = await db.scalars(select(User).where(User.bot_level == level).order_by(User.id))
    bot = next((user for user in bots if user.id not in entered), None)
    if bot is None:
        count = await db.scalar(select(func.count()).select_from(User).where(User.bot_level == level)) or 0
        name = f"bot-{level}-{count + 1}"
        # Somebody may have registered that name himself: the next free one, then.
        while await db.scalar(select(User.id).where(User.name_key == name_key(name))) is not None:
            count += 1
            name = f"bot-{level}-{count + 1}"
        bot = User(
            name=name, name_key=name, password_hash=None, guest=False, created_ms=now_ms(), bot_level=level
        )
        db.add(bot)
        await db.flush()
    db.add(await _entrant(db, tournament, bot, checked_in=True))
    await db.flush()
    return bot.name


async def _entrant(
    db: AsyncSession, tournament: Tournament, user: User, *, checked_in: bool
) -> TournamentEntrant:
    """The entry, with the player's rating in the federation and game as it stands now:
    it seeds the start numbers and is what the TRF report prints."""
    rated = await db.scalar(
        select(PlayerRating.rating).where(
            PlayerRating.federation_id == tournament.federation_id,
            PlayerRating.game == tournament.game,
            PlayerRating.user_id == user.id,
        )
    )
    return TournamentEntrant(
        tournament_id=tournament.id,
        user_id=user.id,
        rating=round(START_RATING if rated is None else rated),
        checked_in=checked_in,
        withdrawn=False,
        registered_ms=now_ms(),
    )


# ---------------------------------------------------------------- the players
def _own_entry(stored: Stored, actor: User) -> TournamentEntrant | None:
    return next((entrant for entrant, user in stored.entrants if user.id == actor.id), None)


async def register(db: AsyncSession, user: User, tournament: Tournament) -> None:
    stored = await load(db, tournament)
    if not powers.can_enter(await standing_of(db, user), stored.federation.id):
        raise forbidden(
            N_("only the players of {federation} may enter its tournaments"),
            federation=stored.federation.name,
        )
    check_state(tournament, "registration")
    if _own_entry(stored, user) is not None:
        raise ApiError(409, "already_registered", N_("you are already registered in this tournament"))
    db.add(await _entrant(db, tournament, user, checked_in=False))
    await db.flush()


async def check_in(db: AsyncSession, user: User, tournament: Tournament) -> None:
    stored = await load(db, tournament)
    entry = _own_entry(stored, user)
    if entry is None:
        raise not_found(N_("you are not registered in this tournament"))
    check_state(tournament, "check_in")
    entry.checked_in = True
    await db.flush()


async def withdraw(db: AsyncSession, user: User, tournament: Tournament) -> None:
    """A player takes back his registration before the tournament starts."""
    stored = await load(db, tournament)
    entry = _own_entry(stored, user)
    if entry is None:
        raise not_found(N_("you are not registered in this tournament"))
    check_state(tournament, "registration", "check_in")
    await db.delete(entry)
    await db.flush()


# ---------------------------------------------------------------- results
async def confirm(db: AsyncSession, user: User, tournament: Tournament, pairing_id: int) -> TournamentPairing:
    """A player confirms his match's result, or an arbiter makes it official (RULES 11.4)."""
    stored = await load(db, tournament)
    pairing = next((p for p in stored.pairings if p.id == pairing_id), None)
    if pairing is None:
        raise not_found(N_("this tournament has no board {board}"), board=pairing_id)
    users = {entrant.id: u.id for entrant, u in stored.entrants}
    white_user = users[pairing.white_id]
    black_user = None if pairing.black_id is None else users[pairing.black_id]
    who = await standing_of(db, user)
    playing = user.id in (white_user, black_user)
    if not playing and not powers.can_arbitrate(who, stored.federation.id, (white_user, black_user)):
        raise forbidden(N_("only the two players or an arbiter of {federation} confirm a result"),
                        federation=stored.federation.name)  # fmt: skip
    if pairing.result is None:
        raise ApiError(409, "no_result", N_("the match has no result yet"))
    if pairing.official:
        return pairing  # confirming an official result changes nothing
    if user.id == white_user:
        pairing.white_confirmed = True
    elif user.id == black_user:
        pairing.black_confirmed = True
    else:
        pairing.confirmed_by_arbiter = user.id
    await settle(db, stored, pairing)
    return pairing
