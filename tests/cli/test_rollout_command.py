"""``tavla rollout``: a position, or the best turns of a roll, rolled out by the game's
network (tavla.bots.rollout; RULES.md 2 for the tabla positions, 5 for tapa)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.cli.cli_helpers import run_subcommand
from tests.dice_positions import dice_position
from typer.testing import Result

from tavla.bots.encoding.base import Features
from tavla.bots.network import Network
from tavla.bots.outcomes import equity
from tavla.bots.rollout import Roller, RolloutSettings
from tavla.cli import rollout
from tavla.rules.dicegame import DiceGame

BEAR_OFF = "tabla -/-/-/-/2w/3w/-/-/-/-/-/-/-/-/-/-/-/-/3b/2b/-/-/-/- 0,0 10,10 w"
TAPA_START = "tapa 15b/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/15w 0,0 0,0 w -"


def run(*args: str) -> Result:
    return run_subcommand(rollout, "rollout", *args)


def test_the_best_turns_of_a_roll_are_rolled_out_on_the_same_dice() -> None:
    position = f"{BEAR_OFF} 31"
    result = run(position, "--trials", "6", "--candidates", "3", "--json")
    assert result.exit_code == 0, result.output
    about = json.loads(result.stdout)
    rows = about["rollouts"]
    assert about["settings"] == "rollout 6xend vr" and len(rows) == 3
    assert [row["equity"] for row in rows] == sorted((row["equity"] for row in rows), reverse=True)
    start = dice_position(position)
    network = Network.shipped("tabla")
    turns = {turn.text: turn for turn in start.legal_turns()}
    roller = Roller(network)
    for row in rows:
        after = turns[row["turn"]].after
        alone = roller.rollout(after, 0, RolloutSettings(trials=6), dice=start.notation())
        assert row["equity"] == pytest.approx(alone.equity, abs=1e-4)
        assert row["finished"] == row["trials"] == 6  # played to the end: no truncation
        zero_ply = equity(network.evaluate(network_row(after)))
        assert row["zero_ply_equity"] == pytest.approx(float(zero_ply), abs=1e-4)
    # The three are the network's best three at 0-ply.
    every = sorted(float(equity(network.evaluate(network_row(t.after)))) for t in turns.values())[::-1]
    assert sorted(row["zero_ply_equity"] for row in rows) == pytest.approx(sorted(every[:3]), abs=1e-4)


def network_row(position: DiceGame[Any]) -> Features:
    from tavla.bots.encoding import encoder_for

    return encoder_for(position).encode(position, 0)


def test_a_position_awaiting_its_roll_is_rolled_out_for_the_side_to_roll() -> None:
    result = run(TAPA_START, "--trials", "4", "--truncate", "2", "--json")
    assert result.exit_code == 0, result.output
    [row] = json.loads(result.stdout)["rollouts"]
    assert "turn" not in row and row["finished"] == 0 and row["trials"] == 4
    assert 0 <= row["chances"]["lose_backgammon"] <= row["chances"]["lose_gammon"] <= 1
    table = run(TAPA_START, "--trials", "4", "--truncate", "2")
    words = " ".join(table.output.split())
    assert table.exit_code == 0 and TAPA_START in words and "rollout 4x2 vr" in words
    assert "cubeless equity for the side to roll" in words
    heading = next(line for line in table.output.splitlines() if "equity" in line and "┃" in line)
    assert heading.split("┃")[1].strip() == "equity"  # no turn column: the roll is to come


def test_figures_are_given_to_four_places_and_the_table_names_the_mover() -> None:
    position = f"{BEAR_OFF} 31"
    rows = json.loads(run(position, "--trials", "2", "--candidates", "2", "--json").stdout)["rollouts"]
    for row in rows:
        figures = [row["equity"], row["equity_error"], row["zero_ply_equity"], *row["chances"].values()]
        assert all(value == round(value, 4) for value in figures), row
        assert 0 < row["chances"]["win"] < 1
    table = run(position, "--trials", "2", "--candidates", "2")
    heading = next(line for line in table.output.splitlines() if "equity" in line and "┃" in line)
    assert [cell.strip() for cell in heading.split("┃")[1:3]] == ["turn", "equity"]
    assert "cubeless equity for the mover, ± its standard error" in " ".join(table.output.split())


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["3W3/7/7/7/7/7/3B3 b"], "no trained bot rolls out abluka"),
        (["indiyka -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- 0,0 0,0 w 31"], "rolls out indiyka"),
        (["tabla -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/2b 0,0 15,13 w -"], "the game is over"),
        (["tabla nonsense"], "tavla:"),
        ([TAPA_START, "--trials", "0"], "Invalid value for '--trials'"),
        (["--trails"], "no such option: --trails"),
    ],
)
def test_what_cannot_be_rolled_out_is_refused_in_one_line(args: list[str], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output
