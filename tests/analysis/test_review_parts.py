"""A record reviewed a part at a time (tavla.analysis.report.review_part, combine) is the
record reviewed at once; the site reviews finished games so, a part per call to the
bots' workers (tavla.server.analysis, docs/deploy.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.cli.test_analyze import random_game

from tavla.analysis.report import analyze, combine, default_plies, review_part
from tavla.bots.network import Network
from tavla.bots.search import SearchSettings
from tavla.match.record import MatchRecord, replay_states, replay_steps
from tavla.server import analysis as site_analysis
from tavla.server.analysis import Analyses, analysis_json


def record_of(tmp_path: Path, game: str, turns: int) -> MatchRecord:
    return MatchRecord.from_json(random_game(tmp_path / f"{game}.json", game=game, turns=turns).read_text())


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("game", "size"), [("tabla", 7), ("tapa", 16), ("tabla", 1000)])
def test_parts_combined_are_the_whole_review(tmp_path: Path, game: str, size: int) -> None:
    record = record_of(tmp_path, game, turns=24)
    network = Network.shipped(game)
    settings = SearchSettings(plies=default_plies(game))
    whole = analyze(record, lambda _: network, settings)
    parts, start = [], None
    for first in range(0, len(record.actions), size):
        actions = range(first, min(first + size, len(record.actions)))
        part = review_part(record, lambda _: network, settings, actions, start)
        parts.append(part)
        start = part.end
    assert len(parts) == -(-len(record.actions) // size)
    assert combine(record, parts) == whole
    assert whole.moves and whole.lucks and whole.cubes  # the random game ends with a double
    assert parts[-1].end == list(replay_states(record))[-1]


def test_the_steps_of_a_part_start_where_the_record_stands(tmp_path: Path) -> None:
    record = record_of(tmp_path, "tabla", turns=6)
    states = list(replay_states(record))
    steps = list(replay_steps(record, range(5, 9)))
    assert [step.index for step in steps] == [5, 6, 7, 8]
    assert [step.before for step in steps] == states[5:9] and [step.after for step in steps] == states[6:10]
    assert [step.action for step in steps] == record.actions[5:9]
    assert list(replay_steps(record, range(5, 9), start=states[5])) == steps
    with pytest.raises(ValueError, match="consecutive"):
        list(replay_steps(record, range(0, 9, 2)))


def test_parts_of_different_depths_are_not_combined(tmp_path: Path) -> None:
    record = record_of(tmp_path, "tabla", turns=4)
    network = Network.shipped("tabla")
    first = review_part(record, lambda _: network, SearchSettings(plies=0), range(0, 4))
    second = review_part(
        record, lambda _: network, SearchSettings(plies=1), range(4, len(record.actions)), first.end
    )
    with pytest.raises(ValueError, match="different depths"):
        combine(record, [first, second])


class InlineThinking:
    """Runs each call at once, in this process, and records it."""

    def __init__(self) -> None:
        self.calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        self.calls.append((function, args))
        return function(*args)


def test_the_site_reviews_a_game_a_few_actions_a_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert site_analysis.part_actions("tapa") == 16 == site_analysis.part_actions("tabla")
    assert site_analysis.part_actions("gulbara") == 4 == site_analysis.part_actions("chelebi")
    monkeypatch.setattr(site_analysis, "PART_ACTIONS", 5)
    record = record_of(tmp_path, "tapa", turns=12)
    thinking = InlineThinking()
    found = asyncio.run(Analyses(thinking).of("g1", True, record))  # type: ignore[arg-type]
    total = len(record.actions)
    assert [args[1] for _function, args in thinking.calls] == [
        range(first, min(first + 5, total)) for first in range(0, total, 5)
    ]
    # Each part starts from where the one before it ended: no part replays the record.
    states = list(replay_states(record))
    assert [args[2] for _function, args in thinking.calls] == [None] + [
        states[first] for first in range(5, total, 5)
    ]
    network = Network.shipped("tapa")
    assert found == analysis_json(analyze(record, lambda _: network, SearchSettings(plies=1)))
    assert found["plies"] == 1
