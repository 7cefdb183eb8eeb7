"""Indiyka: RULES.md 7."""

from tavla.rules.indiyka.position import IndiykaPosition

__all__ = ["IndiykaPosition"]
