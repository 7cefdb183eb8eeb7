"""What the federation API takes (``*Create``) and answers (public and private views).

The public view is what anybody may read; the private one carries the members'
contact addresses and pending applications, for the federation's administrators.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from tavla.server.federations.standing import Role


class FederationCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200)
    slug: str = Field(max_length=64)


class ApplicationCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    contact_email: str | None = Field(default=None, max_length=254)


class FederationSummary(BaseModel):
    slug: str
    name: str
    url: str


class FederationPublic(BaseModel):
    """A federation as anybody sees it: its name and who holds which role."""

    slug: str
    name: str
    administrators: list[str]
    arbiters: list[str]
    players: list[str]


class MemberPrivate(BaseModel):
    name: str
    role: Role
    contact_email: str | None
    since_ms: int


class ApplicationPrivate(BaseModel):
    name: str
    contact_email: str | None
    created_ms: int


class FederationPrivate(BaseModel):
    """A federation as its administrators see it."""

    slug: str
    name: str
    members: list[MemberPrivate]
    applications: list[ApplicationPrivate]


class Membership(BaseModel):
    """One role of one account in one federation (the answer to an appointment)."""

    federation: str
    name: str
    role: Role


class ForfeitCreate(BaseModel):
    """An official's decision that a player of a tournament game loses the match at
    once; ``seat`` null: both do (neither came)."""

    seat: int | None = Field(ge=0, le=1)
    note: str = Field(default="", max_length=200)


class WarningCreate(BaseModel):
    """An arbiter's warning to one player of a tournament game (RULES.md 8.3, 11.4)."""

    seat: int = Field(ge=0, le=1)
    note: str = Field(default="", max_length=200)
