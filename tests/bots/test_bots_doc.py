"""docs/bots.md: its example runs, and it names every baseline and every heuristic game."""

from __future__ import annotations

import re
from pathlib import Path

from tavla.bots.baselines import BASELINES
from tavla.bots.heuristics import HEURISTICS

PAGE = (Path(__file__).parent.parent.parent / "docs" / "bots.md").read_text(encoding="utf-8")


def test_the_example_runs() -> None:
    snippet = re.search(r"```python\n(.*?)```", PAGE, re.DOTALL)
    assert snippet is not None
    scope: dict[str, object] = {}
    exec(snippet.group(1), scope)
    assert scope["turn"].after.side == 1  # type: ignore[attr-defined]


def test_every_baseline_and_heuristic_is_documented() -> None:
    for name in BASELINES:
        assert f"| `{name}` |" in PAGE
    section = PAGE.split("### The heuristics")[1].split("### Pubeval")[0].lower()
    for game in HEURISTICS:
        assert f"**{game}" in section or f", {game}**" in section, game
