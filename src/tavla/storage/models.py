"""The tables. Times are integer milliseconds (``*_ms``) since the Unix epoch unless
they are a match's own clock readings (``t_ms`` of an action)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of every table."""


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    # Names are unique without regard to case: "Ayse" cannot register beside "ayse".
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    language: Mapped[str] = mapped_column(String(8), default="en")
    # How the board is drawn for this player: "right" (home on the right) or "left".
    home_side: Mapped[str] = mapped_column(String(8), default="right")
    created_ms: Mapped[int] = mapped_column(BigInteger)
    # The site owner creates federations and appoints their administrators (RULES.md
    # 11.1; docs/federations.md). Only `tavla site-owner` sets it: no request can.
    site_owner: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # A bot account: the server's engine plays it at this level ("beginner" .. "max"),
    # so that bots can enter tournaments as entrants. Nobody can sign in to one.
    bot_level: Mapped[str | None] = mapped_column(String(16))


class Session(Base):
    __tablename__ = "sessions"

    # The cookie holds a random token; the table keeps only its SHA-256, so a copy of
    # the database does not hand out live sessions.
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger)


class Offer(Base):
    """A game offered in the lobby, open until somebody accepts it or it is cancelled."""

    __tablename__ = "offers"

    id: Mapped[int] = mapped_column(primary_key=True)
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    spectators: Mapped[bool] = mapped_column(Boolean, default=True)
    chat: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    game_id: Mapped[str | None] = mapped_column(String(16))
    # A rematch offer is for the opponent alone; other offers are for anybody.
    for_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_ms: Mapped[int] = mapped_column(BigInteger)


class LiveGame(Base):
    """A match on the platform (a single game is a match of length 1 or money play).

    The match's truth is ``settings`` plus its :class:`GameAction` rows; the other
    columns are what the room needs to continue after a restart.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    # A seat is a user or a bot ("abluka:hard"); exactly one of the two is set.
    seat0_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    seat1_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    seat0_bot: Mapped[str | None] = mapped_column(String(32))
    seat1_bot: Mapped[str | None] = mapped_column(String(32))
    spectators: Mapped[bool] = mapped_column(Boolean, default=True)
    chat0: Mapped[bool] = mapped_column(Boolean, default=True)
    chat1: Mapped[bool] = mapped_column(Boolean, default=True)
    # The last seed of the match's seed chain (secret; docs/fair-dice.md): every game's
    # server seed follows from it, and the first commitment was shown before the match.
    seed_chain_end: Mapped[str | None] = mapped_column(String(64))
    client_seed0: Mapped[str] = mapped_column(String(64), default="")
    client_seed1: Mapped[str] = mapped_column(String(64), default="")
    status: Mapped[str] = mapped_column(String(16), default="live", index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    last_seq0: Mapped[int] = mapped_column(Integer, default=0)
    last_seq1: Mapped[int] = mapped_column(Integer, default=0)
    # The ack each seat's last intent got, to answer a resend of it the same way.
    last_ack0: Mapped[int] = mapped_column(Integer, default=0)
    last_ack1: Mapped[int] = mapped_column(Integer, default=0)
    # The steps of a turn being played die by die (they are part of what players see).
    pending_steps: Mapped[list[Any]] = mapped_column(JSON, default=list)
    winner: Mapped[int | None] = mapped_column(Integer)
    score: Mapped[list[Any]] = mapped_column(JSON, default=list)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger)
    rematch_of: Mapped[str | None] = mapped_column(String(16))
    # A game of a federation's tournament: that federation's arbiters may observe it and
    # read and close its chat (RULES.md 11.2). None for the site's own games.
    federation_id: Mapped[int | None] = mapped_column(ForeignKey("federations.id"), index=True)
    # An arbiter closed the players' chat: it stays off whatever the players choose.
    chat_closed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The room's clock when the game was last stored: after a restart it goes on from
    # there (the time the server was down is charged to nobody).
    clock_ms: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # A tournament game's first game awaits both players from this moment on the room's
    # clock, under the no-show procedure (RULES.md 11.4); None: it starts at once.
    no_show_from_ms: Mapped[int | None] = mapped_column(BigInteger)
    # When each seat first came to the game, on the room's clock (a bot at once).
    arrived0_ms: Mapped[int | None] = mapped_column(BigInteger)
    arrived1_ms: Mapped[int | None] = mapped_column(BigInteger)
    # The process that owns the live game (live/leases.py) until ``lease_until_ms``
    # (wall clock); ``fence`` grows at every change of owner, and a change is stored
    # only under the fence its owner took, so an owner that lost the game writes nothing.
    owner: Mapped[str | None] = mapped_column(String(40), index=True)
    fence: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lease_until_ms: Mapped[int | None] = mapped_column(BigInteger)
    # Wall-clock times: when ``clock_ms`` was stored, and when the owner was last known
    # alive (its lease renewed). The room's clock ran between the two.
    stored_wall_ms: Mapped[int | None] = mapped_column(BigInteger)
    held_ms: Mapped[int | None] = mapped_column(BigInteger)


class GameAction(Base):
    """One action of a match, as the match record holds it."""

    __tablename__ = "game_actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer)
    value: Mapped[str] = mapped_column(Text, default="")
    t_ms: Mapped[int] = mapped_column(BigInteger)


class GameDice(Base):
    """The dice seed of one game of a match: committed at its start, revealed at its end."""

    __tablename__ = "game_dice"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    game_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    client_seed: Mapped[str] = mapped_column(String(160))
    dice_drawn: Mapped[int] = mapped_column(Integer, default=0)
    revealed: Mapped[bool] = mapped_column(Boolean, default=False)


class DiceCommitment(Base):
    """A seed chain drawn for a player's next game, its first commitment shown before
    the player chooses a dice seed; used once."""

    __tablename__ = "dice_commitments"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    seed_chain_end: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    used: Mapped[bool] = mapped_column(Boolean, default=False)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class AnalysisRollout(Base):
    """The rollout of a finished game's marked turns (server/rollouts.py): made once for
    every visitor and every server process. The process running it took ``token`` and
    renews ``heartbeat_ms`` after each turn; a run whose heartbeat stopped is taken
    over, and a run that lost its token writes nothing more."""

    __tablename__ = "analysis_rollouts"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    state: Mapped[str] = mapped_column(String(12))
    """"running", "done" or "failed"."""
    token: Mapped[str] = mapped_column(String(32))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    """How the turns are rolled out: ``{"trials", "truncate", "variance_reduction"}``."""
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int | None] = mapped_column(Integer)
    """Turns to roll out; None until the game's review has counted them."""
    results: Mapped[list[Any]] = mapped_column(JSON, default=list)
    """One ``{"action", "loss", "error", "trials"}`` per turn rolled out."""
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    heartbeat_ms: Mapped[int] = mapped_column(BigInteger)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger)


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    t_ms: Mapped[int] = mapped_column(BigInteger)


class Federation(Base):
    """A federation the site owner created: its own administrators, arbiters and players."""

    __tablename__ = "federations"

    id: Mapped[int] = mapped_column(primary_key=True)
    # The federation's key in addresses and in the ledger's books (docs/ledger.md).
    slug: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_ms: Mapped[int] = mapped_column(BigInteger)


class FederationRole(Base):
    """One role one account holds in one federation; an account may hold several
    (an administrator who is also an arbiter)."""

    __tablename__ = "federation_roles"

    federation_id: Mapped[int] = mapped_column(
        ForeignKey("federations.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    role: Mapped[str] = mapped_column(String(16), primary_key=True)
    # What the player gave the federation to be reached by, when he applied: private to
    # the federation's administrators.
    contact_email: Mapped[str | None] = mapped_column(String(254))
    appointed_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_ms: Mapped[int] = mapped_column(BigInteger)


class FederationApplication(Base):
    """A player's request to be admitted to a federation, waiting for an administrator."""

    __tablename__ = "federation_applications"

    federation_id: Mapped[int] = mapped_column(
        ForeignKey("federations.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    contact_email: Mapped[str | None] = mapped_column(String(254))
    created_ms: Mapped[int] = mapped_column(BigInteger)


class Tournament(Base):
    """A federation's tournament (RULES.md 11.3; docs/tournaments.md)."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    federation_id: Mapped[int] = mapped_column(ForeignKey("federations.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    # "swiss", "knockout" or "round_robin".
    format: Mapped[str] = mapped_column(String(16))
    # One match length for every round or one per round: points (RULES 9.1) or, for
    # Abluka, sets (RULES 8.3).
    match_lengths: Mapped[list[int]] = mapped_column(JSON)
    # Swiss only: the rounds announced. Round robin and knockout follow from the field.
    rounds: Mapped[int | None] = mapped_column(Integer)
    # "draft", "registration", "check_in", "running" or "finished".
    state: Mapped[str] = mapped_column(String(16), default="draft", index=True)
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger)


class TournamentEntrant(Base):
    """A player registered in a tournament; the start number is given when it starts."""

    __tablename__ = "tournament_entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    start_number: Mapped[int | None] = mapped_column(Integer)
    rating: Mapped[int] = mapped_column(Integer)
    checked_in: Mapped[bool] = mapped_column(Boolean, default=False)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    # A withdrawal from the running tournament (before the start the entry is deleted):
    # the round it came in, who asked (the player himself or an official) and why.
    withdrawn_round: Mapped[int | None] = mapped_column(Integer)
    withdrawn_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    withdrawn_note: Mapped[str | None] = mapped_column(String(200))
    # The place in the final table, written when the last round becomes official.
    final_rank: Mapped[int | None] = mapped_column(Integer)
    registered_ms: Mapped[int] = mapped_column(BigInteger)


class TournamentPairing(Base):
    """One board of one round: two entrants and their live game, or a bye (no black).

    The result is the finished game's; it becomes official when both players confirm
    it or an arbiter does (RULES.md 11.4). A bot's confirmation is automatic."""

    __tablename__ = "tournament_pairings"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "board"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    # White plays seat 0 of the live game (colours of RULES 11.3, Abluka's first set).
    white_id: Mapped[int] = mapped_column(ForeignKey("tournament_entrants.id", ondelete="CASCADE"))
    black_id: Mapped[int | None] = mapped_column(ForeignKey("tournament_entrants.id", ondelete="CASCADE"))
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), unique=True)
    # "white", "black", "draw", or "bye" (the white entrant's pairing-allocated bye or
    # rest); None until the game ends.
    result: Mapped[str | None] = mapped_column(String(8))
    white_score: Mapped[int] = mapped_column(Integer, default=0)
    black_score: Mapped[int] = mapped_column(Integer, default=0)
    white_confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    black_confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    confirmed_by_arbiter: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    official: Mapped[bool] = mapped_column(Boolean, default=False)


class PlayerRating(Base):
    """One player's rating in one federation and one game (RULES.md 11.1; docs/ratings.md).

    Backgammon-family games use the FIBS formula (rating and experience); Abluka uses
    Glicko-2 (rating, deviation and volatility)."""

    __tablename__ = "player_ratings"

    federation_id: Mapped[int] = mapped_column(
        ForeignKey("federations.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    rating: Mapped[float] = mapped_column(Float)
    # FIBS: the total length of the rated matches played so far.
    experience: Mapped[int] = mapped_column(Integer, default=0)
    deviation: Mapped[float | None] = mapped_column(Float)
    volatility: Mapped[float | None] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class RatingChange(Base):
    """One official result's change of one player's rating. The unique pair (pairing,
    player) is what makes applying a result happen once, whoever tries again."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        UniqueConstraint("pairing_id", "user_id"),
        Index("ix_rating_changes_player", "federation_id", "game", "user_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    federation_id: Mapped[int] = mapped_column(ForeignKey("federations.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    opponent_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    pairing_id: Mapped[int] = mapped_column(ForeignKey("tournament_pairings.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    # 1 won, 0 lost; the match length (points, or Abluka's sets).
    score: Mapped[float] = mapped_column(Float)
    match_length: Mapped[int] = mapped_column(Integer)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    deviation_before: Mapped[float | None] = mapped_column(Float)
    deviation_after: Mapped[float | None] = mapped_column(Float)
    volatility_after: Mapped[float | None] = mapped_column(Float)
    t_ms: Mapped[int] = mapped_column(BigInteger)


Index("ix_games_status_created", LiveGame.status, LiveGame.created_ms)
