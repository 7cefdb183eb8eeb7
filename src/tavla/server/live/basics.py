"""What a live room is made of besides its match: the connections watching it, its
seats, its refusals, the dice it counts and the bookkeeping stored with every change."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from tavla.core.dice import DiceSource
from tavla.server.i18n import N_

BOT_NAMES: dict[str, str] = {
    "beginner": N_("Tavla bot (beginner)"),
    "easy": N_("Tavla bot (easy)"),
    "medium": N_("Tavla bot (medium)"),
    "hard": N_("Tavla bot (hard)"),
    "max": N_("Tavla bot (strongest)"),
}
"""The site's bot at each level, as a seat is named: in English where it is stored
(the match's settings, its records), in the reader's language on every page."""


def bot_name(level: str) -> str:
    """The site's bot's seat name at ``level``, in English."""
    return BOT_NAMES.get(level, f"Tavla bot ({level})")


def site_bot_level(user_id: int | None, bot: str | None) -> str | None:
    """A seat's site-bot level when the site's bot plays it, so a page can name it in its
    language; None for a person or a bot account (a tournament's bot entrant, which
    keeps its name)."""
    return bot if user_id is None and bot else None


class Viewer(Protocol):
    """A connection watching the room; ``send`` must not block (it queues)."""

    seat: int | None
    language: str
    """The language its refusals are written in (``en``, ``tr``, ``bg``)."""
    arbiter: bool
    """An arbiter of the game's federation observes: he reads the players' chat and may
    close it, and never acts or writes (RULES.md 11.2; ws.py decides who is one)."""
    may_warn: bool
    """An arbiter or administrator of the tournament game's federation: he may warn its
    players (RULES.md 8.3, 11.4); the board shows him the button."""

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message``: an object, or its JSON text made once for many viewers."""
        ...


@dataclass(frozen=True)
class SeatInfo:
    name: str
    user_id: int | None
    bot: str | None
    """The bot's level (``engine level``) when a bot plays this seat."""


class Refused(Exception):
    """An intent the room refuses: ``code`` and a message (an ``N_`` template and its
    parameters; ``message`` is the English text); nothing changed."""

    def __init__(self, code: str, template: str, **params: object) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.message = template.format(**params) if params else template
        super().__init__(self.message)


class CountingDice:
    """A dice source that counts what it hands out (the count is stored with a roll)."""

    def __init__(self, inner: DiceSource, drawn: int) -> None:
        self._inner = inner
        self.drawn = drawn

    def die(self) -> int:
        self.drawn += 1
        return self._inner.die()


@dataclass
class Book:
    """The room's bookkeeping that is stored with every change."""

    version: int = 0
    last_seq: list[int] = field(default_factory=lambda: [0, 0])
    last_ack: list[int] = field(default_factory=lambda: [0, 0])
