"""``tavla verify-dice RECORD.json`` (docs/fair-dice.md): a line per game and the exit
status, 0 when every game verifies, 1 when any does not, 2 for an unreadable file."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import typer
from tests.match.fair_helpers import fair_record
from typer.testing import CliRunner, Result

from tavla.cli import verify_dice
from tavla.core.diceverify import DiceVerdict
from tavla.match.actions import MatchAction
from tavla.match.fairdice import GameCheck
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings

THREE_GAMES = 1
"""The seed of a random fair match with three games (tests/match/fair_helpers.py)."""


def run(path: Path) -> Result:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    verify_dice.register(app)

    @app.callback()
    def _group() -> None:
        """A group, so that the command is named as in ``tavla``."""

    return CliRunner().invoke(app, ["verify-dice", str(path)])


def saved(tmp_path: Path, record: MatchRecord) -> Path:
    path = tmp_path / "match.json"
    path.write_text(record.to_json(), encoding="utf-8")
    return path


def test_an_honest_record_verifies(tmp_path: Path) -> None:
    result = run(saved(tmp_path, fair_record(THREE_GAMES)))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    seeds = ["ayse1:mehmet", "ayse2:mehmet", "ayse3:mehmet"]
    heads = [f"Game {number} (client seed {seed!r}" for number, seed in enumerate(seeds, start=1)]
    assert [line.split("):")[0] for line in lines[:3]] == heads
    assert all("): OK (" in line and "rolls" in line for line in lines[:3])
    assert lines[-1] == "All 3 games' dice verify."


def test_an_altered_roll_fails_with_its_action(tmp_path: Path) -> None:
    record = fair_record(THREE_GAMES)
    target = [i for i, action in enumerate(record.actions) if action.kind == "roll"][-1]
    old = record.actions[target]
    value = "12" if old.value not in ("12", "21") else "34"
    actions = [*record.actions[:target], MatchAction(old.kind, old.seat, value, old.t_ms)]
    actions += record.actions[target + 1 :]
    # The altered record no longer replays to its final IDs: write it without them.
    data = replace(record, actions=actions).to_dict()
    data.pop("final", None)
    path = tmp_path / "altered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run(path)
    assert result.exit_code == 1, result.output
    assert f"): FAILED [mismatch] at action {target + 1}:" in result.output
    assert result.output.splitlines()[-1] == "1 of 3 games does not verify."


def test_a_hidden_seed_fails(tmp_path: Path) -> None:
    record = fair_record(THREE_GAMES)
    hidden = replace(record, dice=(*record.dice[:2], replace(record.dice[2], server_seed=None)))
    result = run(saved(tmp_path, hidden))
    assert result.exit_code == 1
    assert "Game 3 (client seed 'ayse3:mehmet'): FAILED [seed_hidden]" in result.output


def test_a_wrong_commitment_fails(tmp_path: Path) -> None:
    record = fair_record(THREE_GAMES)
    wrong = replace(record.dice[0], commitment=record.dice[1].commitment)
    result = run(saved(tmp_path, replace(record, dice=(wrong, *record.dice[1:]))))
    assert result.exit_code == 1
    assert "): FAILED [bad_commitment]" in result.output


def test_a_record_without_fair_dice_fails(tmp_path: Path) -> None:
    record = MatchRecord.of(Match(MatchSettings("tabla", length=1), now=lambda: 0))
    result = run(saved(tmp_path, record))
    assert result.exit_code == 1
    assert "holds no fair dice" in result.output


def test_abluka_has_nothing_to_check(tmp_path: Path) -> None:
    result = run(saved(tmp_path, MatchRecord(MatchSettings("abluka"))))
    assert result.exit_code == 0
    assert "played without dice" in result.output


@pytest.mark.parametrize("text", ["not json", '{"format": "tavla-record", "version": 3, "kind": "match"}'])
def test_a_file_that_is_no_record_exits_2(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    result = run(path)
    assert result.exit_code == 2


def test_a_seed_with_markup_is_shown_as_written(tmp_path: Path) -> None:
    record = fair_record(THREE_GAMES)
    marked = replace(record.dice[0], client_seed="[bold]x[/bold]:y")
    result = run(saved(tmp_path, replace(record, dice=(marked, *record.dice[1:]))))
    assert result.exit_code == 1
    assert "Game 1 (client seed '[bold]x[/bold]:y'): FAILED [mismatch]" in result.output


def test_a_match_on_one_seed_chain_is_said_to_be_one_and_separate_seeds_are_named(tmp_path: Path) -> None:
    import random

    from tests.match.fair_helpers import FairMatch

    from tavla.core.fairdice import join_client_seeds, seed_chain
    from tavla.match.players import RandomPlayer, play_random_match

    chain = seed_chain("cd" * 32, 16)

    class ChainedMatch(FairMatch):
        def start_next_game(self) -> None:
            Match.start_next_game(self)
            number = len(self.fair.games) + 1
            self.fair.begin_game(join_client_seeds("ayse", "mehmet"), chain[number - 1])

    for seed in range(20):  # the first seeded match that lasts more than one game
        match = ChainedMatch(MatchSettings("tabla", length=5))
        play_random_match(match, (RandomPlayer(random.Random(seed)), RandomPlayer(random.Random(~seed))))
        record = match.fair.record(match)
        if len(record.dice) > 1:
            break
    assert len(record.dice) > 1
    chained = run(saved(tmp_path, record)).output.splitlines()
    assert chained[-2] == "Each game's commitment is the seed revealed before it: one chain."
    separate = run(saved(tmp_path, fair_record(THREE_GAMES))).output.splitlines()
    assert separate[-2] == "The games' seeds were drawn one by one, not as one chain."
    assert separate[-1] == "All 3 games' dice verify."


@pytest.mark.timeout(30)
def test_a_game_without_a_client_seed_is_named_alone() -> None:
    line = verify_dice.check_line(GameCheck(2, DiceVerdict(None, "12 rolls verified", rolls=12)), None)
    assert line.plain == "Game 2: OK (12 rolls verified)"
    line = verify_dice.check_line(GameCheck(2, DiceVerdict(None, "12 rolls verified", rolls=12)), "a:b")
    assert line.plain == "Game 2 (client seed 'a:b'): OK (12 rolls verified)"


def test_a_one_game_record_is_spoken_of_in_the_singular(tmp_path: Path) -> None:
    record = fair_record(THREE_GAMES, length=1)
    assert len(record.dice) == 1
    result = run(saved(tmp_path, record))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "The game's dice verify."
    game = record.dice[0]
    altered = replace(record, dice=(replace(game, commitment=game.commitment[::-1]),))
    failed = run(saved(tmp_path, altered))
    assert failed.exit_code == 1 and failed.output.splitlines()[-1] == "1 of 1 game does not verify."
