"""docs/json.md: its examples are what the library makes, they validate against the
models, and ``tavla schema`` prints the models' JSON Schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavla.cli.main import app
from tavla.cli.schema import NAMES
from tavla.schema import SCHEMAS, ActionJson, MatchStateJson, PositionJson, StepsJson, parse_action
from tavla.schema.examples import EXAMPLES, example

DOC = (Path(__file__).parent.parent.parent / "docs" / "json.md").read_text(encoding="utf-8")
BLOCKS = dict(re.findall(r"<!-- example: (\S+) -->\n```json\n(.*?)\n```", DOC, flags=re.S))


def test_every_example_is_in_the_docs_as_the_library_makes_it() -> None:
    assert set(BLOCKS) == set(EXAMPLES)
    for name in EXAMPLES:
        assert BLOCKS[name] == example(name), f"regenerate docs/json.md: {name}"


def test_the_examples_validate() -> None:
    for name, model in (
        ("position-tapa", PositionJson),
        ("position-gulbara", PositionJson),
        ("position-abluka", PositionJson),
        ("steps", StepsJson),
        ("match", MatchStateJson),
    ):
        model.model_validate_json(BLOCKS[name])
    kinds = []
    for line in BLOCKS["actions"].splitlines():
        ActionJson.model_validate_json(line)
        kinds.append(parse_action(line).kind)
    assert len(kinds) == len(set(kinds)) == 14


def test_the_docs_describe_every_field() -> None:
    for model in (MatchStateJson, StepsJson):
        for field in model.model_fields:
            assert f"`{field}`" in DOC, (model.__name__, field)


@pytest.mark.parametrize("name", NAMES)
def test_schema_command_prints_each_schema(name: str) -> None:
    result = CliRunner().invoke(app, ["schema", name])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == SCHEMAS[name].model_json_schema()


def test_schema_command_prints_all_and_refuses_unknown_names() -> None:
    runner = CliRunner()
    everything = json.loads(runner.invoke(app, ["schema"]).output)
    assert set(everything) == set(NAMES) == set(SCHEMAS)
    refused = runner.invoke(app, ["schema", "board"])
    assert refused.exit_code == 2
    assert "expected one of position, steps, match, action" in refused.output
