"""Engines behind one line protocol (ENGINE_PROTOCOL.md), a registry of them per game."""

from tavla.engine.registry import LEVELS, EngineError, GameEngine, engine_for, engine_games, register_engine

__all__ = ["LEVELS", "EngineError", "GameEngine", "engine_for", "engine_games", "register_engine"]
