"""Bots: evaluators and search for the games of ``tavla.rules`` (no I/O)."""
