"""Tapa (plakoto, mahbousseh): RULES.md 5."""

from tavla.rules.tapa.position import TapaOptions, TapaPosition

__all__ = ["TapaOptions", "TapaPosition"]
