"""Errors that say what was wrong and where (the input and the position)."""

from __future__ import annotations


class TavlaError(ValueError):
    """Base class of every error the library raises on bad input."""


class NotationError(TavlaError):
    """A position or move text that cannot be read.

    ``field`` names the part of the notation that is wrong and ``value`` is the
    offending text, so a command-line tool can print one precise line.
    """

    def __init__(self, field: str, value: str, reason: str) -> None:
        self.field = field
        self.value = value
        self.reason = reason
        super().__init__(f"{field} {value!r}: {reason}")


class IllegalMoveError(TavlaError):
    """A move or turn that the rules do not allow in the given position."""

    def __init__(self, move: str, position: str, reason: str = "illegal move") -> None:
        self.move = move
        self.position = position
        self.reason = reason
        super().__init__(f"{reason}: {move!r} in {position}")


class UnknownGameError(TavlaError):
    """A game name that the registry does not know."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        super().__init__(f"game {name!r}: unknown; known games: {', '.join(known)}")


class WrongPhaseError(TavlaError):
    """An action offered at the wrong time (rolling when a turn is due, and so on)."""


class OptionError(TavlaError):
    """A rule option that the game does not have, or a value it does not allow."""

    def __init__(self, game: str, name: str, value: object, reason: str) -> None:
        self.game = game
        self.field = name
        self.value = value
        self.reason = reason
        super().__init__(f"{game} option {name}={value!r}: {reason}")
