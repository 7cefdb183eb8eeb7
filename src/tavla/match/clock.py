"""Match clocks (RULES.md 10 and 8.3): an immutable value driven by an injected time.

Every reading of time comes from the caller as integer milliseconds (``now_ms``), so
tests use a fake time source and the server its monotonic clock. Each time the clock
passes to a player he gets a fresh per-move allowance, which runs first; then his
reserve runs. The reserve is not restored after moves; for the backgammon family it
is given anew for every game, for Abluka's sudden death it lasts the whole match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from tavla.core.errors import NotationError
from tavla.core.jsonread import member, want_bool, want_int, want_object, want_str
from tavla.match.errors import ClockError

SECOND_MS = 1000
MINUTE_MS = 60 * SECOND_MS
FLAG_LOSES = ("game", "match")
MAX_CLOCK_MS = 2**53 - 1
"""The largest time a record may hold: exact in every JSON reader (a double's integers)."""


@dataclass(frozen=True)
class ClockSettings:
    """``move_ms`` allowance per move, ``reserve_ms`` the reserve.

    ``per_game``: the reserve is given again at the start of every game (backgammon
    family) instead of once for the whole match (Abluka). ``flag_loses``: what a
    player whose time runs out loses, the game (at the top score) or the match.
    """

    move_ms: int = 12 * SECOND_MS
    reserve_ms: int = 2 * MINUTE_MS
    per_game: bool = True
    flag_loses: str = "game"

    def __post_init__(self) -> None:
        if self.move_ms < 0 or self.reserve_ms < 0:
            raise ClockError("clock times cannot be negative")
        if self.flag_loses not in FLAG_LOSES:
            raise ClockError(f"flag_loses {self.flag_loses!r}: expected game or match")

    @classmethod
    def backgammon(
        cls, length: int, move_ms: int = 12 * SECOND_MS, reserve_per_point_ms: int = 2 * MINUTE_MS
    ) -> ClockSettings:
        """RULES.md 10: the reserve is 2 min per match point, 2 min for a single game."""
        return cls(move_ms, reserve_per_point_ms * max(length, 1), True, "game")

    @classmethod
    def sudden_death(cls, budget_ms: int = 15 * MINUTE_MS) -> ClockSettings:
        """RULES.md 8.3: one budget per player for the whole match; running out loses it."""
        return cls(0, budget_ms, False, "match")

    def to_json(self) -> dict[str, Any]:
        return {
            "move_ms": self.move_ms,
            "reserve_ms": self.reserve_ms,
            "per_game": self.per_game,
            "flag_loses": self.flag_loses,
        }

    @classmethod
    def from_json(cls, data: object, field: str = "clock") -> ClockSettings:
        """Read settings written by :meth:`to_json`; NotationError naming a wrong field."""
        item = want_object(data, field)

        def milliseconds(key: str) -> int:
            return want_int(member(item, key, field), f"{field}.{key}", 0, MAX_CLOCK_MS)

        return cls(
            milliseconds("move_ms"),
            milliseconds("reserve_ms"),
            want_bool(member(item, "per_game", field), f"{field}.per_game"),
            want_str(member(item, "flag_loses", field), f"{field}.flag_loses"),
        )


_DURATION = re.compile(r"^([0-9]+)(ms|s|m|h)?$")
_UNIT_MS = {"ms": 1, "s": SECOND_MS, "m": MINUTE_MS, "h": 60 * MINUTE_MS, None: SECOND_MS}


def parse_duration_ms(text: str) -> int:
    """``12s``, ``2m``, ``1500ms``, ``1h``; a bare number is seconds."""
    match = _DURATION.match(text.strip().lower())
    if match is None:
        raise NotationError("duration", text, "expected a number with ms, s, m or h, such as 12s or 2m")
    return int(match.group(1)) * _UNIT_MS[match.group(2)]


def parse_clock_spec(text: str, length: int) -> ClockSettings:
    """``12s+2m``: allowance per move + reserve per match point (RULES.md 10)."""
    parts = text.split("+")
    if len(parts) != 2:
        raise NotationError("clock", text, "expected <move>+<reserve per point>, such as 12s+2m")
    try:
        move_ms, reserve_ms = parse_duration_ms(parts[0]), parse_duration_ms(parts[1])
    except NotationError as error:
        raise NotationError("clock", text, f"{error.value!r}: {error.reason}") from None
    return ClockSettings.backgammon(length, move_ms, reserve_ms)


@dataclass(frozen=True)
class Clock:
    """Both players' reserves, and whose time runs since when (``None``: stopped)."""

    settings: ClockSettings
    reserve_ms: tuple[int, int]
    running: int | None = None
    since_ms: int = 0

    @classmethod
    def new(cls, settings: ClockSettings) -> Clock:
        return cls(settings, (settings.reserve_ms, settings.reserve_ms))

    def _elapsed(self, now_ms: int) -> int:
        if now_ms < self.since_ms:
            raise ClockError(f"time went backwards: {now_ms} ms after {self.since_ms} ms")
        return now_ms - self.since_ms

    def remaining(self, seat: int, now_ms: int) -> tuple[int, int]:
        """(allowance left, reserve left) of ``seat`` at ``now_ms``, never negative."""
        if self.running != seat:
            return (self.settings.move_ms if self.running is None else 0, self.reserve_ms[seat])
        elapsed = self._elapsed(now_ms)
        allowance = self.settings.move_ms - elapsed
        if allowance >= 0:
            return (allowance, self.reserve_ms[seat])
        return (0, max(0, self.reserve_ms[seat] + allowance))

    def flagged(self, now_ms: int) -> int | None:
        """The player whose time has run out at ``now_ms``, if any."""
        if self.running is None:
            return None
        if self._elapsed(now_ms) >= self.settings.move_ms + self.reserve_ms[self.running]:
            return self.running
        return None

    def stop(self, now_ms: int) -> Clock:
        """Charge the running player and stop (end of a game, breaks: RULES.md 11.4)."""
        if self.running is None:
            return self
        seat = self.running
        reserves = list(self.reserve_ms)
        reserves[seat] = self.remaining(seat, now_ms)[1]
        return replace(self, reserve_ms=(reserves[0], reserves[1]), running=None, since_ms=now_ms)

    def start(self, seat: int, now_ms: int) -> Clock:
        """Charge whoever was running and start ``seat``'s time with a fresh allowance."""
        stopped = self.stop(now_ms)
        return replace(stopped, running=seat, since_ms=now_ms)

    def new_game(self) -> Clock:
        """A stopped clock for the next game: reserves given again when ``per_game``."""
        if self.running is not None:
            raise ClockError("stop the clock before the next game")
        if self.settings.per_game:
            return Clock.new(self.settings)
        return self

    def to_json(self) -> dict[str, Any]:
        return {"reserve_ms": list(self.reserve_ms), "running": self.running, "since_ms": self.since_ms}
