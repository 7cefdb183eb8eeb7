"""Game definitions: what a game is, apart from any one position of it.

A :class:`GameDefinition` is to a position what OpenSpiel's ``Game`` is to its
``State``: one registered object per game, holding its name and aliases, the
facts callers look up (direction of play, bar, pips, cube, checkers, how the
board is drawn) and its rule options. A definition with options other than the
defaults is another definition of the same game; definitions are interned, so
the same game and options always give the same object, and they pickle by name
and options.

Options are a frozen dataclass per game (a subclass of :class:`GameOptions`);
their values are booleans or integers in a declared range, written in the TPN
after the game's name as ``tapa(mother_pin_wins=true)`` when they differ from
the defaults (see ``docs/notation.md``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Self

from tavla.core.errors import NotationError, OptionError

if TYPE_CHECKING:
    from tavla.core.protocol import AnyPosition


class Direction(StrEnum):
    """How the two players move round the board."""

    OPPOSITE = "opposite"
    """Towards each other: my point n is the opponent's 25 - n (tabla, tapa, indiyka)."""
    SAME = "same"
    """The same way round: my point n is the opponent's ((n + 11) mod 24) + 1 (gulbara)."""
    NONE = "none"
    """No direction: a game without points (Abluka)."""


class BoardKind(StrEnum):
    """How the board is drawn."""

    POINTS = "points"
    """Twenty-four points, a bar and two off trays."""
    GRID = "grid"
    """Abluka's 7x7 squares."""


class NotationKind(StrEnum):
    TPN = "tpn"
    ABLUKA = "abluka"


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What callers above the rules ask about a game, instead of testing its name."""

    title: str
    """The name to show (``Tabla``, ``Gul bara``)."""
    board: BoardKind
    notation: NotationKind
    direction: Direction
    has_dice: bool
    has_bar: bool
    """Hit checkers go to the bar (tabla, antitabla, chelebi)."""
    has_pips: bool
    """A pip count means something (checkers travel round the board)."""
    has_cube: bool
    """The doubling cube may be used (RULES.md 9.2)."""
    stacks_colours: bool
    """A point may hold both colours (tapa's pins)."""
    checkers: int
    """Checkers per player (0 for Abluka)."""
    gnubg_compatible: bool
    """Positions can be written as gnubg's Position/Match IDs (tabla's board and
    movement: tabla, antitabla, chelebi)."""
    gnubg_rules: bool = False
    """gnubg plays these very rules, so whole matches go to and from its ``.mat``
    files (tabla only)."""


@dataclass(frozen=True)
class GameOptions:
    """Base of every game's rule options: a frozen dataclass of bool and int fields.

    An int field declares its range in its metadata: ``field(default=4,
    metadata={"min": 1, "max": 4})``.
    """

    def validate(self) -> None:
        """Check values against each other; subclasses raise :class:`OptionError`."""


@dataclass(frozen=True)
class NoOptions(GameOptions):
    """The options of a game that has none."""


NO_OPTIONS = NoOptions()

_VALUE = re.compile(r"[0-9]{1,6}")
_OPTION_TEXT = re.compile(r"[a-z_]+=[a-z0-9]+(,[a-z_]+=[a-z0-9]+)*")


def _kind(options_type: type[GameOptions], name: str) -> type:
    """The declared type (bool or int) of an option field."""
    annotation = {f.name: f.type for f in dataclasses.fields(options_type)}[name]
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    if text == "bool":
        return bool
    if text == "int":
        return int
    raise TypeError(f"{options_type.__name__}.{name}: options are bool or int, not {text}")


def _option_field(
    game: str, options_type: type[GameOptions], name: str, value: object
) -> dataclasses.Field[Any]:
    """The declared field of option ``name``; raises OptionError for an unknown name."""
    for option in dataclasses.fields(options_type):
        if option.name == name:
            return option
    known = ", ".join(f.name for f in dataclasses.fields(options_type))
    if not known:
        raise OptionError(game, name, value, f"{game} has no rule options")
    raise OptionError(game, name, value, f"unknown option; {game}'s options: {known}")


def check_option_value(game: str, options_type: type[GameOptions], name: str, value: object) -> None:
    """Raise OptionError unless ``value`` is of the option's type and in its range."""
    option = _option_field(game, options_type, name, value)
    kind = _kind(options_type, name)
    if kind is bool and not isinstance(value, bool):
        raise OptionError(game, name, value, "expected true or false")
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(game, name, value, "expected a whole number")
        low, high = option.metadata.get("min"), option.metadata.get("max")
        if (low is not None and value < low) or (high is not None and value > high):
            raise OptionError(game, name, value, f"expected {low} to {high}")


def _read_value(game: str, options_type: type[GameOptions], name: str, text: str) -> bool | int:
    """An option value written in a TPN or on a command line."""
    _option_field(game, options_type, name, text)
    if _kind(options_type, name) is bool:
        if text not in ("true", "false"):
            raise OptionError(game, name, text, "expected true or false")
        return text == "true"
    if not _VALUE.fullmatch(text):
        raise OptionError(game, name, text, "expected a whole number")
    return int(text)


def _write_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True, eq=False)
class GameDefinition:
    """One game under one set of rule options. Compare definitions with ``is`` or ``==``
    (the same object for the same game and options)."""

    name: str
    aliases: tuple[str, ...]
    facts: GameFacts
    position_class: type[AnyPosition]
    options: GameOptions

    _interned: ClassVar[dict[tuple[str, GameOptions], GameDefinition]] = {}

    # ----------------------------------------------------------------- options
    @property
    def defaults(self) -> GameDefinition:
        """This game under its default options."""
        return self.with_option_values(type(self.options)())

    def with_options(self, **changes: object) -> GameDefinition:
        """This game with some options changed; raises OptionError for a bad name or value."""
        for name, value in changes.items():
            check_option_value(self.name, type(self.options), name, value)
        return self.with_option_values(dataclasses.replace(self.options, **changes))

    def with_option_values(self, options: GameOptions) -> GameDefinition:
        """The interned definition of this game under ``options`` (validated)."""
        if type(options) is not type(self.options):
            raise OptionError(self.name, "options", options, f"expected {type(self.options).__name__}")
        key = (self.name, options)
        found = GameDefinition._interned.get(key)
        if found is not None:
            return found
        for option in dataclasses.fields(options):
            check_option_value(self.name, type(options), option.name, getattr(options, option.name))
        options.validate()
        definition = dataclasses.replace(self, options=options)
        GameDefinition._interned[key] = definition
        return definition

    def changed_options(self) -> dict[str, bool | int]:
        """The options that differ from the defaults, in declared order."""
        defaults = type(self.options)()
        return {
            f.name: getattr(self.options, f.name)
            for f in dataclasses.fields(self.options)
            if getattr(self.options, f.name) != getattr(defaults, f.name)
        }

    def option_values(self) -> dict[str, bool | int]:
        """Every option with its value, in declared order."""
        return {f.name: getattr(self.options, f.name) for f in dataclasses.fields(self.options)}

    def read_options(self, values: Mapping[str, object]) -> GameDefinition:
        """This game with options given as values or as their text (``"true"``, ``"2"``):
        the form of records, command lines and the TPN."""
        changes: dict[str, object] = {}
        for name, value in values.items():
            if isinstance(value, str):
                changes[name] = _read_value(self.name, type(self.options), name, value)
            else:
                changes[name] = value
        return self.with_options(**changes)

    # -------------------------------------------------------------------- TPN
    @property
    def head(self) -> str:
        """The TPN's first field: the name, then the options that differ from the defaults."""
        changed = self.changed_options()
        if not changed:
            return self.name
        inner = ",".join(f"{name}={_write_value(value)}" for name, value in changed.items())
        return f"{self.name}({inner})"

    def read_head(self, head: str) -> GameDefinition:
        """The definition a TPN's first field names: ``tapa`` or ``tapa(mother_pin_wins=true)``."""
        name, paren, rest = head.partition("(")
        if name != self.name:
            raise NotationError("game", head, f"expected {self.name}")
        if not paren:
            return self.defaults
        if not rest.endswith(")") or not _OPTION_TEXT.fullmatch(rest[:-1]):
            raise NotationError("game", head, "options are written name(key=value,key=value)")
        values: dict[str, object] = {}
        for item in rest[:-1].split(","):
            key, _, value = item.partition("=")
            if key in values:
                raise NotationError("game", head, f"option {key} given twice")
            values[key] = value
        try:
            return self.defaults.read_options(values)
        except OptionError as error:
            raise NotationError("game", head, str(error)) from None

    # -------------------------------------------------------------- positions
    def start(self) -> AnyPosition:
        """The starting position of this game under these options."""
        return self.position_class.start().with_rules(self)

    def from_notation(self, text: str) -> AnyPosition:
        """A position of this game. The text's first field may name options; a text
        without them is read under this definition's options."""
        head, space, rest = text.strip().partition(" ")
        if head == self.name and self is not self.defaults:
            # Read as if the text named the options: the reader's checks depend on them
            # (a game a rule ends cannot have dice to play; a completion's roll count).
            text = f"{self.head}{space}{rest}"
        position = self.position_class.from_notation(text)
        if position.definition is self or self is self.defaults:
            return position
        raise NotationError("game", position.definition.head, f"expected {self.head}")

    # ----------------------------------------------------------------- pickle
    def __reduce__(self) -> tuple[Any, ...]:
        return (_definition_of, (self.name, self.changed_options()))

    def __repr__(self) -> str:
        return f"<GameDefinition {self.head}>"


def _definition_of(name: str, changed: dict[str, object]) -> GameDefinition:
    from tavla.core.registry import find_game

    return find_game(name).with_options(**changed)


class Defined:
    """Mixin of positions: the definition they belong to, from their class and options.

    A game with options declares an ``options`` dataclass field; others keep the
    class-level :data:`NO_OPTIONS`.
    """

    DEFINITION: ClassVar[GameDefinition]
    """The definition under default options, set when the game is registered."""
    options: GameOptions = NO_OPTIONS

    @property
    def definition(self) -> GameDefinition:
        default = type(self).DEFINITION
        if self.options is default.options:
            return default
        return default.with_option_values(self.options)

    def with_rules(self, definition: GameDefinition) -> Self:
        """This position under ``definition``'s options (the same game)."""
        if definition.name != type(self).DEFINITION.name:
            raise OptionError(definition.name, "game", type(self).DEFINITION.name, "another game")
        if definition.options == self.options:
            return self
        return dataclasses.replace(self, options=definition.options)  # type: ignore[type-var]
