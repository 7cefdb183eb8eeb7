"""Importing this module registers every engine that ships with the package."""

from tavla.engine import abluka, random_dice

__all__ = ["abluka", "random_dice"]
