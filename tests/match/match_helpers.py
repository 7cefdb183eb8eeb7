"""Helpers of the match tests: a fake time source and a quick match builder."""

from __future__ import annotations

from typing import Any

from tavla.core.dice import SeededDice
from tavla.match.match import Match
from tavla.match.settings import MatchSettings


class FakeTime:
    """A time source the test moves by hand (integer milliseconds)."""

    def __init__(self, start_ms: int = 1_000) -> None:
        self.now_ms = start_ms

    def __call__(self) -> int:
        return self.now_ms

    def advance(self, ms: int) -> None:
        self.now_ms += ms


def new_match(time: FakeTime | None = None, /, **options: Any) -> Match:
    """A match of ``MatchSettings(**options)`` on seeded dice and a fake time source."""
    settings = MatchSettings(**options)
    return Match(settings, dice=SeededDice(0), now=time or FakeTime())
