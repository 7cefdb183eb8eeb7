"""Helpers for the CLI tests: a ``tavla`` app made of the board commands alone.

Built from the modules' ``register`` functions so these tests do not depend on the
other subcommands of ``tavla.cli.main``.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import typer
from typer.testing import CliRunner, Result

from tavla.cli import moves, play, show

START = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w -"

Invoke = Callable[..., Result]


def board_commands_app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    for module in (moves, show, play):
        module.register(app)
    return app


def run_subcommand(module: ModuleType, name: str, *args: str) -> Result:
    """``tavla NAME ARGS`` on an app holding that one command (``module.register``)."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    module.register(app)

    @app.callback()
    def _group() -> None:
        """Sub-commands keep their name."""

    return CliRunner().invoke(app, [name, *args])


def tpn(
    points: dict[int, str],
    bar: str = "0,0",
    off: str = "0,0",
    side: str = "w",
    dice: str = "-",
    game: str = "tabla",
) -> str:
    """A TPN line from the occupied points (White's numbering), e.g. ``{6: "5w"}``."""
    fields = "/".join(points.get(point, "-") for point in range(1, 25))
    return f"{game} {fields} {bar} {off} {side} {dice}"
