"""The user documentation under docs/: present, linked, and true to the code."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tavla
from tavla.cli.main import COMMAND_MODULES, app
from tavla.core.fairdice import FairDice, commitment
from tavla.engine.server import EngineServer
from tavla.match.settings import MatchSettings

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
PAGES = (
    "rules.md",
    "notation.md",
    "engine-protocol.md",
    "records.md",
    "json.md",
    "features.md",
    "adding-a-game.md",
    "fair-dice.md",
    "cube.md",
    "bots.md",
    "abluka-engine.md",
    "tournaments.md",
    "ratings.md",
    "federations.md",
    "deploy.md",
    "capacity.md",
)


def text(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def test_readme_links_every_page_and_every_link_resolves() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in PAGES:
        assert f"(docs/{page})" in readme
    for source, body in [(ROOT / "README.md", readme), *((DOCS / p, text(p)) for p in PAGES)]:
        for target in re.findall(r"\]\(([^)#]+\.md)\)", body):
            assert (source.parent / target).is_file(), (source.name, target)
    assert "RULES.md" not in readme and "ENGINE_PROTOCOL.md" not in readme
    assert "### Match records" not in readme and '"format": "tavla-record"' in text("records.md")


def test_cli_help_points_at_the_docs_not_at_internal_files() -> None:
    runner = CliRunner()
    engine_help = runner.invoke(app, ["engine", "--help"], terminal_width=200).output
    assert "docs/engine-protocol.md" in engine_help
    for module in COMMAND_MODULES:
        command = module.rsplit(".", 1)[1].replace("_", "-")  # verify_dice is verify-dice
        result = runner.invoke(app, [command, "--help"], terminal_width=200)
        assert result.exit_code == 0 and f"Usage: tavla {command} " in result.output, command
        assert "RULES.md" not in result.output and "ENGINE_PROTOCOL.md" not in result.output, command


RULE_OPTIONS = [("tapa", "mother_pin_wins"), ("gulbara", "progressive_from_roll")]


@pytest.mark.parametrize(("game", "option"), RULE_OPTIONS)
def test_rules_list_each_rule_option_with_its_default(game: str, option: str) -> None:
    options = tavla.find_game(game).options
    default = getattr(options, option)
    shown = str(default).lower()
    assert [f.name for f in dataclasses.fields(options)] == [option]
    assert f"| `{option}` |" in text("rules.md")
    row = next(line for line in text("rules.md").splitlines() if line.startswith(f"| `{option}` |"))
    assert row.rstrip(" |").endswith(f"`{shown}`")
    assert f"Option `{option}`" in text("rules.md")


def test_rules_list_every_match_setting() -> None:
    rules = text("rules.md")
    for field in dataclasses.fields(MatchSettings):
        if field.name not in ("game", "names", "clock"):
            assert f"`{field.name}`" in rules, field.name
    assert "`flag_loses`" in rules


def test_notation_examples_read_back() -> None:
    notation = text("notation.md")
    blocks = re.findall(r"```\n(.*?)```", notation, re.DOTALL)
    lines = [line for block in blocks for line in block.splitlines()]
    complete = [line for line in lines if line.split(" ")[0] in tavla.game_names() and "..." not in line]
    assert complete
    for line in complete:
        assert tavla.from_notation(line).notation() == line
    assert tavla.from_notation("3W3/7/7/7/7/7/3B3 b").notation() in notation


def test_engine_protocol_example_matches_the_engine() -> None:
    page = text("engine-protocol.md")
    requests = [json.loads(line[2:]) for line in page.splitlines() if line.startswith("> {")]
    replies = [json.loads(line[2:]) for line in page.splitlines() if line.startswith("< {")]
    server = EngineServer()
    answered = [server.handle(request) for request in requests if request["cmd"] != "quit"]
    assert len(answered) == len(replies)
    for ours, documented in zip(answered, replies, strict=True):
        assert set(ours) == set(documented)
        if "move" not in ours:
            assert ours == documented


def test_fair_dice_snippet_prints_what_the_page_says() -> None:
    """The hand check of fair-dice.md runs as written and agrees with FairDice."""
    page = text("fair-dice.md")
    snippet = re.search(r"```python\n(.*?)```", page, re.DOTALL)
    printed = re.search(r"It prints:\n\n```\n(.*?)```", page, re.DOTALL)
    assert snippet is not None and printed is not None
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(snippet.group(1), {})
    assert output.getvalue() == printed.group(1)
    seed = bytes(range(32)).hex()
    dice = FairDice(seed, "alice:bob")
    assert printed.group(1).splitlines() == [commitment(seed), str([dice.die() for _ in range(10)])]
    assert "`36`" in page and "`34`" in page


def test_deploy_page_shows_the_balancer_configuration_tavla_cluster_writes() -> None:
    from tavla.cluster.servers import nginx_config

    page = text("deploy.md")
    written = nginx_config(Path("/state"), "127.0.0.1", 8000, [8001, 8002, 8003])
    shown = page.split("```nginx\n", 1)[1].split("```", 1)[0]
    for line in shown.splitlines():
        directive = line.strip()
        if directive.startswith(("proxy_", "map ", "least_conn", "keepalive", "server 127")):
            assert directive in written, directive
    options = CliRunner().invoke(app, ["cluster", "--help"], terminal_width=200).output
    for option in set(re.findall(r"--[a-z][a-z-]+", page.split("`tavla cluster`", 1)[1])):
        assert option in options, option


def test_capacity_plan_shows_what_the_model_computes_from_the_stored_runs() -> None:
    import argparse
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("capacity_model", ROOT / "benchmarks" / "capacity_model.py")
    assert spec is not None and spec.loader is not None
    model = importlib.util.module_from_spec(spec)
    sys.modules["capacity_model"] = model  # its dataclasses look their module up there
    spec.loader.exec_module(model)
    runs = json.loads((ROOT / "benchmarks" / "measured" / "cluster_load_think2000.json").read_text())
    costs = model.Costs.measured(next(run for run in runs if run["processes"] == 1), 110.0)
    options = argparse.Namespace(
        intents_per_game_s=0.5, utilisation=0.6, idle_rss_mib=110.0, postgres_cores=32
    )
    page = text("capacity.md")
    for games in (1_000, 10_000, 100_000):
        plan = model.plan(games, costs, options)
        row = (
            f"| {games:,} | {plan.intents_per_s:,.0f} | {plan.processes:,} | {plan.sockets_per_process:,} "
            f"| {plan.mib_per_process:,.0f} | {plan.postgres_cores:,.1f} | {plan.commits_per_s:,.0f} "
            f"| {plan.redis_shards} | {plan.redis_commands_per_s:,.0f} | {plan.lobby_rows_per_s:,.0f} |"
        )
        assert row in page, row
    assert f"{costs.server_cpu_ms:.2f} ms" in page and f"{costs.commits:.2f}" in page
