"""A random legal player for the six dice games, until trained bots replace it.

Every level plays the same way: a turn chosen uniformly among the legal turns when
they can be listed, else built die by die from the legal steps (a progressive double
of chelebi or gulbara can have millions of turns). It never doubles, takes every
double, and so plays a legal, if weak, game through the same protocol as the
stronger engines will.
"""

from __future__ import annotations

import random
from typing import Any

from tavla.core.registry import all_games
from tavla.engine.registry import LEVELS, EngineError, register_engine
from tavla.rules.dicegame import DiceGame

LIST_LIMIT = 2000
"""Past this many positions after one die, the turn is built step by step instead."""


class RandomDiceEngine:
    games: tuple[str, ...] = tuple(d.name for d in all_games() if d.facts.has_dice)

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def _check(self, position: Any, level: str) -> DiceGame[Any]:
        if level not in LEVELS:
            raise EngineError(f"level {level!r}: unknown; levels: {', '.join(LEVELS)}")
        if not isinstance(position, DiceGame):
            raise EngineError(f"not a dice game position: {position.notation()}")
        if position.outcome() is not None:
            raise EngineError(f"the game is over in {position.notation()}")
        if position.is_chance:
            raise EngineError(f"the dice are not rolled in {position.notation()}: give the roll")
        return position

    def move(self, position: Any, level: str, movetime_ms: int | None) -> dict[str, Any]:
        game = self._check(position, level)
        turns = game.legal_turns_within(LIST_LIMIT)
        if turns is not None:
            turn = self._rng.choice(list(turns))
        else:
            builder = game.steps()
            while not builder.complete:
                builder.step(self._rng.choice(list(builder.legal_steps())))
            turn = builder.commit()
        return {"move": turn.text, "after": turn.after.notation()}

    def double(self, position: Any, match: dict[str, Any] | None, level: str) -> bool:
        return False

    def take(self, position: Any, match: dict[str, Any] | None, level: str) -> str:
        return "take"


ENGINE = register_engine(RandomDiceEngine())
