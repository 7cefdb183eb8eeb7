"""The ratings package's error."""

from __future__ import annotations

from tavla.core.errors import TavlaError


class RatingError(TavlaError):
    """A rating request that makes no sense: a match of no length, a score outside 0..1."""
