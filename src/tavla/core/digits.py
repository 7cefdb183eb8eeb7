"""ASCII digits only: the one test every reader of numbers in text uses.

``str.isdigit()`` is true for '²', '٣' and other Unicode digits, and ``int()``
either fails on them ('²') or quietly reads them ('٣'). Notation, records and
command lines are ASCII, so a number there is a run of the digits 0-9 alone.
"""

from __future__ import annotations

import re

from tavla.core.errors import NotationError

_DIGITS = re.compile(r"[0-9]+")
_ROLL = re.compile(r"[1-6][1-6]")


def is_digits(text: str) -> bool:
    """True for a non-empty run of ASCII digits 0-9 and nothing else."""
    return _DIGITS.fullmatch(text) is not None


def parse_natural(text: str, field: str, reason: str = "expected a whole number such as 3") -> int:
    """A number of ASCII digits; NotationError naming ``field`` otherwise."""
    if not is_digits(text):
        raise NotationError(field, text, reason)
    return int(text)


def parse_roll_text(text: str, field: str = "dice") -> tuple[int, int]:
    """Two dice written as two digits 1-6 (``52``); NotationError naming ``field`` otherwise."""
    if _ROLL.fullmatch(text) is None:
        raise NotationError(field, text, "expected two dice 1-6 such as 52")
    return int(text[0]), int(text[1])
