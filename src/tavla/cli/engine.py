"""``tavla engine``: serve the engine line protocol on standard input and output."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tavla.cli.errors import clear_errors
from tavla.engine.dice import use_networks
from tavla.engine.server import serve_stdio


def engine(
    weights: Annotated[
        list[Path] | None,
        typer.Option(
            help="A network file (tavla train, teach or distill wrote it) that plays its game "
            "at every level instead of the shipped weights; repeat for more games.",
        ),
    ] = None,
) -> None:
    """Answer engine requests, one JSON object per line (see docs/engine-protocol.md)."""
    if weights:
        with clear_errors():
            use_networks(weights)
    serve_stdio()


def register(app: typer.Typer) -> None:
    app.command("engine")(engine)
