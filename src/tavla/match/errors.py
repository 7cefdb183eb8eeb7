"""Errors of match play: each names the action, the player and why it was refused.

Every refused action leaves the match exactly as it was (the state is an immutable
value that is only replaced when an action succeeds), except :class:`TimeForfeitError`,
which reports that the flag fell before the action could be made.
"""

from __future__ import annotations

from tavla.core.errors import TavlaError


class MatchError(TavlaError):
    """An action the match does not allow now."""


class MatchSettingsError(MatchError):
    """Settings that contradict each other or RULES.md (a beaver in a match ...)."""


class WrongPlayerError(MatchError):
    """An action by a player who is not the one to act."""


class CubeError(MatchError):
    """A cube action at the wrong time, by the wrong player, or beyond the 64 cap."""


class ResignError(MatchError):
    """A resignation offered, accepted or declined at the wrong time."""


class ClockError(MatchError):
    """A clock used against its rules (time running backwards ...)."""


class TimeForfeitError(MatchError):
    """The acting player's time ran out before the action; the flag has been recorded."""

    def __init__(self, seat: int, message: str) -> None:
        self.seat = seat
        super().__init__(message)
