"""The ``tavla`` command: one Typer app, one module per subcommand.

Each subcommand module defines ``register(app)``; adding a command is adding its
module to ``COMMAND_MODULES``.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="tavla",
    help="The Turkish and Balkan backgammon family and Abluka.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

COMMAND_MODULES = [
    "tavla.cli.moves",
    "tavla.cli.show",
    "tavla.cli.convert",
    "tavla.cli.play",
    "tavla.cli.engine",
    "tavla.cli.match",
    "tavla.cli.replay",
]

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    app()
