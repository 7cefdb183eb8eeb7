"""Match settings: the format and the options of RULES.md 1.4, 8.3, 9 and 10."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tavla.core.definition import GameDefinition
from tavla.core.errors import NotationError
from tavla.core.jsonread import member, shown, want_bool, want_int, want_list, want_object, want_str
from tavla.core.registry import find_game
from tavla.match.clock import ClockSettings
from tavla.match.errors import MatchSettingsError

NEXT_GAME_START = ("opening_roll", "winner_starts")
MAX_LENGTH = 10_000
"""The longest match a record may ask for: far beyond any played, short of absurd."""
MAX_SETS = 999


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
    def from_json(cls, data: object, field: str = "settings") -> MatchSettings:
        """Read settings written by :meth:`to_json`; NotationError naming a wrong field."""
        item = want_object(data, field)

        def flag(key: str) -> bool:
            return want_bool(member(item, key, field), f"{field}.{key}")

        clock = item.get("clock")
        names = want_list(item.get("names", ["White", "Black"]), f"{field}.names")
        if len(names) != 2:
            raise NotationError(f"{field}.names", shown(names), "expected the two players' names")
        return cls(
            game=want_str(member(item, "game", field), f"{field}.game"),
            length=want_int(member(item, "length", field), f"{field}.length", 0, MAX_LENGTH),
            cube=flag("cube"),
            beavers=flag("beavers"),
            raccoons=flag("raccoons"),
            jacoby=flag("jacoby"),
            next_game_start=want_str(member(item, "next_game_start", field), f"{field}.next_game_start"),
            sets=want_int(member(item, "sets", field), f"{field}.sets", 1, MAX_SETS),
            clock=None if clock is None else ClockSettings.from_json(clock, f"{field}.clock"),
            names=(want_str(names[0], f"{field}.names"), want_str(names[1], f"{field}.names")),
            options=_read_options(item.get("options", {}), f"{field}.options"),
        )


def _read_options(value: object, field: str) -> tuple[tuple[str, bool | int], ...]:
    """Rule options as written by :meth:`MatchSettings.to_json`: names to true, false or
    whole numbers (the game checks the names and ranges)."""
    pairs: list[tuple[str, bool | int]] = []
    for name, option in want_object(value, field).items():
        if type(option) is not bool and type(option) is not int:
            raise NotationError(f"{field}.{name}", shown(option), "expected true, false or a whole number")
        pairs.append((str(name), option))
    return tuple(pairs)
