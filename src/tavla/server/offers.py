"""What a player asks for when offering a game, and the match settings it becomes."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tavla.core.errors import TavlaError
from tavla.core.registry import find_game
from tavla.match.clock import ClockSettings, parse_clock_spec
from tavla.match.settings import MatchSettings
from tavla.server.errors import invalid
from tavla.server.i18n import N_
from tavla.server.stakes.schemas import StakeChoice

MAX_LENGTH = 25
"""The longest match the lobby offers (federation matches are 5 to 25 points)."""


class ClockChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move_s: int = Field(default=12, ge=0, le=600)
    """Seconds per move before the reserve is used."""
    reserve_s: int = Field(default=120, ge=0, le=7200)
    """Reserve seconds: per match point in the dice games, the whole budget in Abluka."""


class GameChoice(BaseModel):
    """The game and format of an offer or a game against a bot."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(default="tabla", max_length=32)
    options: dict[str, bool | int] = Field(default_factory=dict, max_length=8)
    length: int = Field(default=0, ge=0, le=MAX_LENGTH)
    """0: one game for money (a single Abluka match of ``sets``), N: a match to N points."""
    cube: bool = True
    beavers: bool = False
    raccoons: bool = False
    jacoby: bool = False
    sets: int = Field(default=3, ge=1, le=9)
    clock: ClockChoice | None = None

    def settings(self, names: tuple[str, str]) -> MatchSettings:
        try:
            definition = find_game(self.game).with_options(**self.options)
            clock = None
            if self.clock is not None:
                if definition.facts.has_dice:
                    clock = parse_clock_spec(f"{self.clock.move_s}s+{self.clock.reserve_s}s", self.length)
                else:
                    clock = ClockSettings.sudden_death(self.clock.reserve_s * 1000)
            has_cube = definition.facts.has_cube and self.cube
            money = self.length == 0
            return MatchSettings(
                game=definition.name,
                options=tuple(definition.changed_options().items()),
                length=self.length if definition.facts.has_dice else 0,
                cube=has_cube,
                beavers=has_cube and money and self.beavers,
                raccoons=has_cube and money and self.beavers and self.raccoons,
                jacoby=has_cube and money and self.jacoby,
                sets=self.sets,
                clock=clock,
                names=names,
            )
        except TavlaError as error:
            raise invalid(N_("these game settings are not possible: {detail}"), detail=str(error)) from None


class SeedChoice(BaseModel):
    client_seed: str | None = Field(default=None, max_length=64)
    """The player's dice seed (docs/fair-dice.md); a random one when left out."""
    commitment_id: str | None = Field(default=None, max_length=24)
    """A commitment drawn with POST /api/dice-commitments before the seed was chosen:
    the server's seeds were fixed before it knew the player's."""


class OfferCreate(GameChoice, SeedChoice):
    spectators: bool = True
    chat: bool = True
    federation: str | None = Field(default=None, max_length=32)
    """The federation whose books a stake goes through (docs/ledger.md)."""
    stake: StakeChoice | None = None
    """Play for money (RULES.md 12): a single game's initial and maximum stake, a match's stake."""

    def has_dice(self) -> bool:
        try:
            return find_game(self.game).facts.has_dice
        except TavlaError:
            return True  # settings() has refused the game already


class BotGameCreate(GameChoice, SeedChoice):
    level: Literal["beginner", "easy", "medium", "hard", "max"] = "medium"
    spectators: bool = True


class OfferAccept(BaseModel):
    model_config = ConfigDict(extra="forbid")

    chat: bool = True
    client_seed: str | None = Field(default=None, max_length=64)
