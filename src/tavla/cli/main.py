"""The ``tavla`` command: one Typer app, one module per subcommand.

Each subcommand module defines ``register(app)``; adding a command is adding its
module to ``COMMAND_MODULES``.
"""

from __future__ import annotations

import importlib
import io
import sys

import typer

app = typer.Typer(
    name="tavla",
    help="The Turkish and Balkan backgammon family and Abluka.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _tolerant_streams() -> None:
    """A typed line that is not UTF-8 reaches a command as text it refuses (and may echo),
    not as a traceback."""
    for stream, errors in ((sys.stdin, "surrogateescape"), (sys.stdout, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=errors)


COMMAND_MODULES = [
    "tavla.cli.moves",
    "tavla.cli.show",
    "tavla.cli.convert",
    "tavla.cli.play",
    "tavla.cli.engine",
    "tavla.cli.duel",
    "tavla.cli.match",
    "tavla.cli.replay",
    "tavla.cli.schema",
    "tavla.cli.serve",
    "tavla.cli.cluster",
    "tavla.cli.site_owner",
    "tavla.cli.train",
    "tavla.cli.verify_dice",
    "tavla.cli.analyze",
    "tavla.cli.rollout",
    "tavla.cli.teach",
    "tavla.cli.distill",
    "tavla.cli.pair",
]

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    app()
