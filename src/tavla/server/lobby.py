"""The lobby: open offers and watchable live games, kept live for every visitor."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tavla.core.registry import find_game, game_names
from tavla.match.settings import MatchSettings
from tavla.realtime.hub import Hub
from tavla.server.accounts import now_ms
from tavla.server.errors import ApiError, forbidden, invalid, not_found
from tavla.server.i18n import N_
from tavla.server.live.basics import bot_name
from tavla.server.live.dicefeed import first_commitment, new_chain_end
from tavla.server.live.gamerows import site_bots
from tavla.server.live.room import Room, SeatInfo
from tavla.server.live.rooms import Rooms, new_game_id
from tavla.server.offers import BotGameCreate, GameChoice, OfferAccept, OfferCreate
from tavla.server.rematches import rematch_offer
from tavla.server.stakes import games as stakes
from tavla.storage.models import DiceCommitment, LiveGame, Offer, User

LOBBY_TOPIC = "lobby"
DIRTY_TOPIC = "lobby-dirty"
"""Something the lobby shows has changed (an offer, a live game): each process that has
lobby connections makes a new snapshot (app.py)."""
MAX_OPEN_OFFERS = 5
"""Open offers one player may have at once."""


COMMITMENTS_KEPT = 20
"""Unused commitments kept per player (a page drawn and left holds one)."""

log = logging.getLogger(__name__)


async def draw_commitment(db: AsyncSession, user: User) -> DiceCommitment:
    """A seed chain for the player's next game; its first commitment is shown at once."""
    unused = list(
        await db.scalars(
            select(DiceCommitment)
            .where(DiceCommitment.user_id == user.id, DiceCommitment.used.is_(False))
            .order_by(DiceCommitment.created_ms.desc())
        )
    )
    for old in unused[COMMITMENTS_KEPT - 1 :]:
        await db.delete(old)
    chain_end = new_chain_end()
    drawn = DiceCommitment(
        id=secrets.token_urlsafe(12),
        user_id=user.id,
        seed_chain_end=chain_end,
        commitment=first_commitment(chain_end),
        used=False,
        created_ms=now_ms(),
    )
    db.add(drawn)
    await db.flush()
    return drawn


async def take_commitment(db: AsyncSession, user: User, commitment_id: str | None) -> str:
    """The chain of a commitment the player drew (used once), or a new chain without one."""
    if commitment_id is None:
        return new_chain_end()
    drawn = await db.get(DiceCommitment, commitment_id)
    if drawn is None or drawn.user_id != user.id or drawn.used:
        raise invalid(N_("commitment_id: no unused dice commitment of yours has this id"))
    drawn.used = True
    return drawn.seed_chain_end


def user_topic(user_id: int) -> str:
    return f"user:{user_id}"


def client_seed(chosen: str | None) -> str:
    """The player's seed for the dice, or a random one when they chose none."""
    chosen = (chosen or "").strip()
    return chosen if chosen and ":" not in chosen else secrets.token_hex(8)


def settings_summary(settings: dict[str, Any]) -> dict[str, Any]:
    """The parts of match settings a lobby row shows, and whether the match is counted in
    sets (a game without dice, as Abluka) rather than points."""
    game = settings.get("game")
    in_sets = isinstance(game, str) and game in game_names() and not find_game(game).facts.has_dice
    return {"in_sets": in_sets} | {
        key: settings.get(key)
        for key in (
            "game",
            "options",
            "length",
            "cube",
            "beavers",
            "raccoons",
            "jacoby",
            "sets",
            "clock",
            "federation",
            "stake",
        )
    }


async def live_games(db: AsyncSession) -> list[dict[str, Any]]:
    """The games being played that may be watched, as the database holds them: every
    process lists the same ones, whichever process plays each."""
    games = list(
        await db.scalars(
            select(LiveGame)
            .where(LiveGame.status == "live", LiveGame.spectators.is_(True))
            .order_by(LiveGame.created_ms, LiveGame.id)
        )
    )
    ids = {g.seat0_user_id for g in games} | {g.seat1_user_id for g in games}
    names = {u.id: u.name for u in await db.scalars(select(User).where(User.id.in_(ids - {None})))}

    def player(user_id: int | None, bot: str | None) -> str:
        return names.get(user_id, "?") if user_id is not None else bot_name(bot or "")

    return [
        {
            "id": game.id,
            "game": game.settings.get("game"),
            "length": game.settings.get("length"),
            "players": [
                player(game.seat0_user_id, game.seat0_bot),
                player(game.seat1_user_id, game.seat1_bot),
            ],
            "bots": site_bots(game),
            "score": list(game.score or [0, 0]),
        }
        for game in games
    ]


class Lobby:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        rooms: Rooms,
        hub: Hub,
        staked: stakes.StakedGames,
    ) -> None:
        self.sessions = sessions
        self.rooms = rooms
        self.hub = hub
        self.staked = staked
        self.version = 0
        """The number of the last snapshot sent to this process's lobby connections."""
        self._drawing = asyncio.Lock()

    # ------------------------------------------------------------- snapshot
    async def snapshot(self) -> dict[str, Any]:
        """The lobby as the database holds it now, under the number of the last one
        sent (a connection that opens is sent it; show_here numbers the next)."""
        async with self.sessions() as db:
            rows = (
                await db.execute(
                    select(Offer, User.name)
                    .join(User, User.id == Offer.creator_id)
                    .where(Offer.status == "open")
                    .order_by(Offer.created_ms)
                )
            ).all()
            targets = {offer.for_user_id for offer, _name in rows if offer.for_user_id is not None}
            target_names = {
                user.id: user.name for user in await db.scalars(select(User).where(User.id.in_(targets)))
            }
            live = await live_games(db)
        offers = [
            {
                "id": offer.id,
                "by": name,
                "for": target_names.get(offer.for_user_id) if offer.for_user_id is not None else None,
                "settings": settings_summary(offer.settings),
                "spectators": offer.spectators,
                "chat": offer.chat,
                "commitment": first_commitment(str(offer.settings["seed_chain_end"]))
                if offer.settings.get("seed_chain_end")
                else None,
                "created_ms": offer.created_ms,
            }
            for offer, name in rows
        ]
        staked = await self.staked.stakes_of([entry["id"] for entry in live])
        for entry in live:
            entry["stake"] = staked.get(entry["id"])
        return {"type": "lobby", "v": self.version, "offers": offers, "live": live}

    async def publish(self) -> None:
        """Show the lobby as it is now to this process's lobby connections and, when
        several processes share the hub, have the others show theirs."""
        if self.hub.distributed:
            self.hub.publish(DIRTY_TOPIC, {})
        try:
            await self.show_here()
        except Exception:
            # The change is stored; only its drawing failed (the database went away
            # meanwhile): the refresher (app.py) draws it again until it can.
            log.warning("the lobby could not be drawn; it is drawn again shortly", exc_info=True)
            self.hub.publish_here(DIRTY_TOPIC, {})

    async def show_here(self) -> None:
        """Send the lobby's snapshot to this process's own lobby connections: each
        process numbers and sends its own, so a connection sees one sequence. A number
        is taken only by a snapshot that is sent: one that fails (the database away)
        leaves no gap in the numbers the connections see."""
        # One drawing at a time: a higher number never shows an older lobby.
        async with self._drawing:
            shown = await self.snapshot()
            self.version += 1
            shown["v"] = self.version
            self.hub.publish_here(LOBBY_TOPIC, shown)

    # --------------------------------------------------------------- offers
    async def create_offer(self, db: AsyncSession, user: User, choice: OfferCreate) -> Offer:
        if user.guest:
            raise forbidden(N_("guests may play the bots; register to play people"))
        settings = choice.settings((user.name, "?"))  # refuses impossible settings now, not on accepting
        deal = await stakes.offer_deal(
            db, self.staked.ledger, user, choice.federation, choice.stake, settings, choice.has_dice()
        )
        open_count = len(
            list(
                await db.scalars(select(Offer.id).where(Offer.creator_id == user.id, Offer.status == "open"))
            )
        )
        if open_count >= MAX_OPEN_OFFERS:
            raise ApiError(
                409, "too_many_offers", N_("you have {count} open offers; cancel one first"), count=open_count
            )
        data = choice.model_dump(
            exclude={"spectators", "chat", "client_seed", "commitment_id", "federation", "stake"}
        )
        if deal is not None:
            data["federation"] = deal.federation.slug
            data["stake"] = deal.terms.to_json()
        data["client_seed"] = client_seed(choice.client_seed)
        # The seeds are fixed now, before whoever accepts chooses a seed; the chain's end
        # stays in the offer's stored settings, which the lobby never shows.
        data["seed_chain_end"] = await take_commitment(db, user, choice.commitment_id)
        offer = Offer(
            creator_id=user.id,
            settings=data,
            spectators=choice.spectators,
            chat=choice.chat,
            status="open",
            created_ms=now_ms(),
        )
        db.add(offer)
        await db.flush()
        return offer

    async def cancel_offer(self, db: AsyncSession, user: User, offer_id: int) -> None:
        offer = await db.get(Offer, offer_id)
        if offer is None or offer.status != "open":
            raise not_found(N_("open offer not found"))
        if offer.creator_id != user.id:
            raise forbidden(N_("only the player who made an offer may cancel it"))
        offer.status = "cancelled"

    async def accept_offer(self, user: User, offer_id: int, answer: OfferAccept) -> Room:
        if user.guest:
            raise forbidden(N_("guests may play the bots; register to play people"))
        async with self.sessions() as db, db.begin():
            offer = await db.get(Offer, offer_id)
            if offer is None or offer.status != "open":
                raise not_found(N_("open offer not found"))
            if offer.creator_id == user.id:
                raise ApiError(409, "own_offer", N_("you cannot accept your own offer"))
            if offer.for_user_id is not None and offer.for_user_id != user.id:
                raise forbidden(N_("this rematch offer is for another player"))
            # Only one acceptance wins: the update succeeds for the first one alone.
            won = await db.execute(
                update(Offer).where(Offer.id == offer_id, Offer.status == "open").values(status="accepted")
            )
            if won.rowcount != 1:  # type: ignore[attr-defined]
                raise not_found(N_("open offer not found"))
            creator = await db.get(User, offer.creator_id)
            if creator is None:  # the offer goes with its maker's account (cascade)
                raise not_found(N_("open offer not found"))
            data = dict(offer.settings)
            seed0 = data.pop("client_seed", "") or client_seed(None)
            chain_end = data.pop("seed_chain_end", None)
            stored = stakes.stored_deal(data)
            settings: MatchSettings = GameChoice.model_validate(data).settings((creator.name, user.name))
            spectators, chat0 = offer.spectators, offer.chat
            deal = (
                None if stored is None else await stakes.accepted_deal(db, self.staked.ledger, user, stored)
            )
        game_id = new_game_id()
        if deal is not None:
            try:
                # Play starts: both maximum stakes are held before the game exists.
                await stakes.reserve(self.staked.ledger, game_id, deal, (creator.name, user.name))
            except ApiError as refused:
                # The taker short of money leaves the offer to others; a maker who
                # cannot pay any more has no offer left.
                status = "cancelled" if isinstance(refused, stakes.MakerCannotPay) else "open"
                async with self.sessions() as db, db.begin():
                    await db.execute(update(Offer).where(Offer.id == offer_id).values(status=status))
                raise
        try:
            room = await self.rooms.create(
                settings,
                (SeatInfo(creator.name, creator.id, None), SeatInfo(user.name, user.id, None)),
                spectators=spectators,
                chat_on=(chat0, answer.chat),
                client_seeds=(seed0, client_seed(answer.client_seed)),
                seed_chain_end=chain_end,
                federation_id=None if deal is None else deal.federation.id,
                game_id=game_id,
            )
        except BaseException:
            if deal is not None:
                await self.staked.ledger.release(game_id, reason="the game could not start")
            # No game was made (rooms.py): the offer is open again for whoever comes next.
            async with self.sessions() as db, db.begin():
                await db.execute(update(Offer).where(Offer.id == offer_id).values(status="open"))
            raise
        async with self.sessions() as db, db.begin():
            await db.execute(update(Offer).where(Offer.id == offer_id).values(game_id=room.game_id))
        self.hub.publish(
            user_topic(creator.id),
            {"type": "started", "game_id": room.game_id, "url": f"/game/{room.game_id}"},
        )
        return room

    async def play_bot(self, user: User, choice: BotGameCreate) -> Room:
        name = bot_name(choice.level)
        settings = choice.settings((user.name, name))
        async with self.sessions() as db, db.begin():
            chain_end = await take_commitment(db, user, choice.commitment_id)
        return await self.rooms.create(
            settings,
            (SeatInfo(user.name, user.id, None), SeatInfo(name, None, choice.level)),
            spectators=choice.spectators,
            chat_on=(False, False),
            client_seeds=(client_seed(choice.client_seed), client_seed(None)),
            seed_chain_end=chain_end,
        )

    async def rematch(self, user: User, game_id: str) -> Room | Offer:
        async with self.sessions() as db:
            row = await db.get(LiveGame, game_id)
            if row is None:
                raise not_found(N_("game not found"))
            if user.id not in (row.seat0_user_id, row.seat1_user_id):
                raise forbidden(N_("only a player of the game may ask for a rematch"))
            if row.status != "finished":
                raise ApiError(409, "not_finished", N_("a rematch follows a finished game"))
            if row.seat0_bot is None and row.seat1_bot is None:
                return await rematch_offer(db, user, row)
            level = row.seat1_bot or row.seat0_bot or "medium"
            settings = MatchSettings.from_json(row.settings)
        room = await self.rooms.create(
            settings,
            (SeatInfo(user.name, user.id, None), SeatInfo(bot_name(level), None, level)),
            spectators=row.spectators,
            chat_on=(False, False),
            client_seeds=(client_seed(row.client_seed0), client_seed(None)),
            rematch_of=game_id,
        )
        return room
