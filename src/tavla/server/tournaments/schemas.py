"""What the tournament API takes (``TournamentCreate``) and answers (the views)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from tavla.server.stakes.schemas import MAX_CENTS


class TournamentCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200)
    game: str = Field(default="tabla", max_length=32)
    format: str = Field(default="swiss", max_length=16)
    match_lengths: list[int] = Field(default_factory=lambda: [3], min_length=1, max_length=64)
    """One length for every round, or one per round: points, or sets for Abluka."""
    rounds: int | None = Field(default=None, ge=1, le=64)
    """Swiss only: the rounds to play."""
    entry_fee_cents: StrictInt = Field(default=0, ge=0, le=MAX_CENTS)
    """Charged on registration, into the prize pool (docs/ledger.md)."""
    prize_shares: list[Annotated[StrictInt, Field(ge=0)]] = Field(default_factory=list, max_length=64)
    """The pool's shares per place, best first (50, 30, 20: percentages or any weights)."""


class TrfImport(BaseModel):
    """A Swiss tournament made from a TRF16 report (docs/tournaments.md, "Importing")."""

    model_config = ConfigDict(extra="forbid")

    trf: str = Field(max_length=1_000_000)
    """The report's text: its players, the rounds played, ``XXR``."""
    name: str | None = Field(default=None, max_length=200)
    """None or blank: the report's own name (its 012 line)."""
    game: str = Field(default="abluka", max_length=32)
    match_lengths: list[int] = Field(default_factory=lambda: [3], min_length=1, max_length=64)


class BotEntrantCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: str = Field(default="easy", max_length=16)


class WithdrawalRequest(BaseModel):
    """An official withdraws a player from a running tournament."""

    reason: str = Field(default="", max_length=1000)
    """Why (at most 200 characters once its spaces are tidied; withdrawals.NOTE_LIMIT)."""


class TournamentSummary(BaseModel):
    id: int
    name: str
    game: str
    format: str
    state: str
    url: str


class EntrantView(BaseModel):
    name: str
    start_number: int | None
    rating: int
    checked_in: bool
    bot: bool
    final_rank: int | None
    withdrawn: bool = False
    """Withdrew from the running tournament: left out of later rounds, kept in the standings."""
    withdrawn_round: int | None = None
    withdrawn_note: str | None = None
    guest: bool = False
    """A guest entrant of an imported report: a name, with no account to sign in to."""


class PairingView(BaseModel):
    id: int
    round: int
    board: int
    white: str
    black: str | None
    """None: a bye (Swiss, knockout) or a rest (round robin)."""
    white_number: int | None
    black_number: int | None
    game_id: str | None
    game_url: str | None
    result: str | None
    """"white", "black", "draw" or "bye"; None while the game is on. An imported report
    adds "white_ff", "black_ff", "both_ff" (forfeits) and "half_bye"."""
    white_score: int
    black_score: int
    white_confirmed: bool
    black_confirmed: bool
    confirmed_by_arbiter: str | None
    official: bool


class RoundView(BaseModel):
    number: int
    length: int
    """The match length of the round: points, or sets for Abluka."""
    pairings: list[PairingView]


class StandingView(BaseModel):
    rank: int
    number: int
    name: str
    points: float
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float
    direct_encounter: float
    sets_won: int
    withdrawn: bool = False


class TournamentView(BaseModel):
    id: int
    federation: str
    federation_name: str
    name: str
    game: str
    format: str
    match_lengths: list[int]
    rounds: int | None
    """The rounds to play: announced (Swiss) or, once started, following from the field."""
    state: str
    current_round: int
    entrants: list[EntrantView]
    played_rounds: list[RoundView]
    standings: list[StandingView]
    """After the last round whose results are all official; final once ``state`` is finished."""
    standings_after: int
    version: str
    """Changes whenever anything shown here changes: a page polls it to know when to reload."""
