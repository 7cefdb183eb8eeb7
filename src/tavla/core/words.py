"""Enumerations of words that records, JSON and messages carry as plain text."""

from __future__ import annotations

from enum import StrEnum


class Word(StrEnum):
    """A StrEnum that compares, hashes, prints and serialises as its word.

    ``repr`` is the word's too, so that messages written as ``f"at {phase!r}"`` read
    ``at 'roll'`` whether they are given the member or the plain string.
    """

    def __repr__(self) -> str:
        return repr(self.value)
