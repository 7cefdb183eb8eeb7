"""What a request about money carries: whole cents, within bounds, nothing else."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictInt

MAX_CENTS = 100_000_000
"""The largest amount one request may move or stake: 1,000,000.00. Bigger numbers are
typing errors, and refusing them keeps every sum far from any integer limit."""

Cents = StrictInt
"""An amount in whole cents: a fraction (12.5) or a string ("12") is refused, not rounded."""


class CashMovement(BaseModel):
    """A deposit or withdrawal an administrator records for a player of his federation."""

    model_config = ConfigDict(extra="forbid")

    amount_cents: Cents = Field(ge=1, le=MAX_CENTS)
    reason: str = Field(default="", max_length=200)
    reference: str | None = Field(default=None, min_length=1, max_length=64)
    """The payment's reference (a receipt number): recording it twice books it once."""


class StakeChoice(BaseModel):
    """A single game's initial and maximum stake, or a match's fixed stake (RULES.md 12)."""

    model_config = ConfigDict(extra="forbid")

    initial_cents: Cents | None = Field(default=None, ge=1, le=MAX_CENTS)
    maximum_cents: Cents | None = Field(default=None, ge=1, le=MAX_CENTS)
    stake_cents: Cents | None = Field(default=None, ge=1, le=MAX_CENTS)


class Sponsorship(BaseModel):
    """Money a sponsor gives to a tournament's prize pool, recorded by an administrator."""

    model_config = ConfigDict(extra="forbid")

    sponsor: str = Field(min_length=1, max_length=64, pattern=r"^[\w .&'-]+$")
    amount_cents: Cents = Field(ge=1, le=MAX_CENTS)
    reference: str | None = Field(default=None, min_length=1, max_length=64)


class VoidRequest(BaseModel):
    """An administrator voids an abandoned game played for a stake (RULES.md 12)."""

    model_config = ConfigDict(extra="forbid")

    note: str = Field(default="", max_length=200)
    """Why, for the game's record (the match library's limit on an official's note)."""
