"""Importing this module registers every engine that ships with the package."""

from tavla.engine import abluka

__all__ = ["abluka"]
