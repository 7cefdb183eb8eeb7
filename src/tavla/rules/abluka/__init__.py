"""Abluka (RULES.md 8): a king and blockers on a 7x7 board, no dice."""

from tavla.rules.abluka.position import AblukaPosition, AblukaSteps, AblukaTurn

__all__ = ["AblukaPosition", "AblukaSteps", "AblukaTurn"]
