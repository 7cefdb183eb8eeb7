"""``tavla schema``: the JSON Schema of the objects a server and its clients exchange.

    tavla schema                 # every object, one JSON document keyed by name
    tavla schema position        # one of: position, steps, match, action

The schemas come from the models of :mod:`tavla.schema`, so they are what the server
sends and accepts; docs/json.md describes each object with an example.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from tavla.cli.errors import fail

NAMES = ("position", "steps", "match", "action")
"""The objects of ``tavla.schema.SCHEMAS``, named here so that other commands do not
load pydantic and the models when the CLI starts."""


def schema_document(name: str | None) -> dict[str, Any]:
    """The JSON Schema of ``name``, or of every object keyed by name."""
    from tavla.schema import SCHEMAS

    if name is None:
        return {key: model.model_json_schema() for key, model in SCHEMAS.items()}
    return SCHEMAS[name].model_json_schema()


def schema(
    name: Annotated[
        str | None, typer.Argument(help=f"one of {', '.join(NAMES)}; all of them when left out")
    ] = None,
) -> None:
    """Print the JSON Schema of positions, steps, match states or client actions."""
    if name is not None and name not in NAMES:
        raise fail(f"schema {name!r}: expected one of {', '.join(NAMES)}")
    print(json.dumps(schema_document(name), indent=2))


def register(app: typer.Typer) -> None:
    app.command("schema")(schema)
