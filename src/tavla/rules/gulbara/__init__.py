"""Gulbara (gul bara, rosespring): RULES.md 6."""

from tavla.rules.gulbara.position import GulbaraOptions, GulbaraPosition, progressive_dice

__all__ = ["GulbaraOptions", "GulbaraPosition", "progressive_dice"]
