"""Match settings: the format and the options of RULES.md 1.4, 8.3, 9 and 10."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tavla.core.definition import GameDefinition
from tavla.core.errors import TavlaError
from tavla.core.registry import find_game
from tavla.match.clock import ClockSettings
from tavla.match.errors import MatchSettingsError

NEXT_GAME_START = ("opening_roll", "winner_starts")


@dataclass(frozen=True)
class MatchSettings:
    """How a match is played.

    ``game`` names the game and ``options`` its rule options that differ from the
    defaults, as ``(name, value)`` pairs (see :attr:`definition`).
    ``length`` 0 is a single game for money (RULES.md 9.1), N a match to N points.
    Games without dice (Abluka) ignore ``length`` and the cube: they play ``sets``
    games with alternating colours (RULES.md 8.3). ``names`` are the players, seat
    0 first; in the dice games seat 0 plays White throughout.
    """

    game: str = "tabla"
    length: int = 0
    cube: bool = True
    beavers: bool = False
    raccoons: bool = False
    jacoby: bool = False
    next_game_start: str = "opening_roll"
    sets: int = 3
    clock: ClockSettings | None = None
    names: tuple[str, str] = field(default=("White", "Black"))
    options: tuple[tuple[str, bool | int], ...] = ()

    def __post_init__(self) -> None:
        definition = find_game(self.game).with_options(**dict(self.options))  # raises TavlaError
        # One form for the same rules: the canonical name and the changed options only.
        object.__setattr__(self, "game", definition.name)
        object.__setattr__(self, "options", tuple(definition.changed_options().items()))
        if self.length < 0:
            raise MatchSettingsError(f"match length {self.length}: expected 0 (money) or more")
        if self.sets < 1:
            raise MatchSettingsError(f"sets {self.sets}: expected 1 or more")
        if self.next_game_start not in NEXT_GAME_START:
            raise MatchSettingsError(
                f"next_game_start {self.next_game_start!r}: expected {' or '.join(NEXT_GAME_START)}"
            )
        if self.length > 0 and (self.beavers or self.raccoons or self.jacoby):
            raise MatchSettingsError("beavers, raccoons and Jacoby are for money play only (RULES.md 9.2)")
        if self.raccoons and not self.beavers:
            raise MatchSettingsError("raccoons need beavers (RULES.md 9.2)")
        if len(self.names) != 2:
            raise MatchSettingsError("a match has two players")

    @property
    def money(self) -> bool:
        return self.length == 0

    @property
    def definition(self) -> GameDefinition:
        """The game played, under its options."""
        return find_game(self.game).with_options(**dict(self.options))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "length": self.length,
            "cube": self.cube,
            "beavers": self.beavers,
            "raccoons": self.raccoons,
            "jacoby": self.jacoby,
            "next_game_start": self.next_game_start,
            "sets": self.sets,
            "clock": None if self.clock is None else self.clock.to_json(),
            "names": list(self.names),
            "options": dict(self.options),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchSettings:
        clock = data.get("clock")
        names = data.get("names", ["White", "Black"])
        return cls(
            game=str(data["game"]),
            length=int(data["length"]),
            cube=bool(data["cube"]),
            beavers=bool(data["beavers"]),
            raccoons=bool(data["raccoons"]),
            jacoby=bool(data["jacoby"]),
            next_game_start=str(data["next_game_start"]),
            sets=int(data["sets"]),
            clock=None if clock is None else ClockSettings.from_json(clock),
            names=(str(names[0]), str(names[1])),
            options=_read_options(data.get("options", {})),
        )


def _read_options(value: object) -> tuple[tuple[str, bool | int], ...]:
    if not isinstance(value, dict):
        raise TavlaError(f"settings options {value!r}: expected an object of option names and values")
    pairs: list[tuple[str, bool | int]] = []
    for name, option in value.items():
        if not isinstance(option, bool | int):
            raise TavlaError(f"settings option {name}={option!r}: expected true, false or a whole number")
        pairs.append((str(name), option))
    return tuple(pairs)
