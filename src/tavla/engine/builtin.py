"""Importing this module registers every engine that ships with the package."""

from tavla.engine import abluka, dice, indiyka, random_dice

__all__ = ["abluka", "dice", "indiyka", "random_dice"]
