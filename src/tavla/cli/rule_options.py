"""``--rule NAME=VALUE``: a game's rule options on the command line (docs/rules.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from tavla.core.definition import GameDefinition
from tavla.core.errors import OptionError
from tavla.core.registry import find_game

RuleOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        help="A rule option of the game, NAME=VALUE (true, false or a number), e.g. "
        "mother_pin_wins=true for tapa; repeat for more (docs/rules.md lists them).",
    ),
]


def game_with_rules(game: str, rules: list[str] | None) -> GameDefinition:
    """Game ``game`` under the options ``rules`` (``["name=value", ...]``); OptionError
    naming the option for a malformed, unknown or out-of-range one."""
    definition = find_game(game)
    values: dict[str, object] = {}
    for item in rules or []:
        name, equals, value = item.partition("=")
        if not equals or not name or not value:
            raise OptionError(
                definition.name, "--rule", item, "write NAME=VALUE, e.g. --rule mother_pin_wins=true"
            )
        values[name.strip()] = value.strip().lower()
    return definition.read_options(values)
