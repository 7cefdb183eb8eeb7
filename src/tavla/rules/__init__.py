"""The rules of every game; importing this package registers them all."""

from tavla.rules import backgammon

__all__ = ["backgammon"]
