"""Importing this module registers every engine that ships with the package."""

from tavla.engine import abluka, indiyka, random_dice

__all__ = ["abluka", "indiyka", "random_dice"]
