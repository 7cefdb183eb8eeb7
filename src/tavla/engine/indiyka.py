"""Indiyka's engine: exact chances for play and cube (tavla.bots.indiyka_exact).

The dice leave one turn in indiyka, so every level plays it; the cube follows the
exact winning chances through Janowski's model (docs/cube.md), the same at every
level. Registered after the random dice engine, it answers for indiyka in its place.
"""

from __future__ import annotations

from typing import Any

# The random dice engine registers first, whatever the order of imports, so that this
# one replaces it for indiyka.
import tavla.engine.random_dice  # noqa: F401
from tavla.bots.cube import Answer, CubeAction, take_decision
from tavla.bots.cube.request import cube_context, doubler_of
from tavla.bots.indiyka_exact import best_turn, cube_decision, exact_chances, win_chance
from tavla.engine.registry import LEVELS, EngineError, register_engine
from tavla.rules.indiyka import IndiykaPosition

_DOUBLES = (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS, CubeAction.DOUBLE_BEAVER)


class IndiykaEngine:
    games: tuple[str, ...] = ("indiyka",)

    def move(self, position: Any, level: str, movetime_ms: int | None) -> dict[str, Any]:
        here = _check(position, level)
        if here.dice is None:
            raise EngineError(f"the dice are not rolled in {here.notation()}: give the roll")
        turn = best_turn(here)
        after = here.play(turn)
        mover_wins = 1.0 - win_chance(after) if after.outcome() is None else 1.0
        return {"move": turn.text, "after": after.notation(), "equity": round(2 * mover_wins - 1, 6)}

    def double(self, position: Any, match: dict[str, Any] | None, level: str) -> bool:
        here = _before_roll(_check(position, level), doubler_of(position, match, answering=False))
        context = cube_context(match, here.side)
        return cube_decision(here, context).action in _DOUBLES

    def take(self, position: Any, match: dict[str, Any] | None, level: str) -> str:
        doubler = doubler_of(position, match, answering=True)
        here = _before_roll(_check(position, level), doubler)
        answer = take_decision(exact_chances(here), cube_context(match, doubler)).answer
        return "drop" if answer == Answer.PASS else str(answer)


def _check(position: Any, level: str) -> IndiykaPosition:
    if level not in LEVELS:
        raise EngineError(f"level {level!r}: unknown; levels: {', '.join(LEVELS)}")
    if not isinstance(position, IndiykaPosition):
        raise EngineError(f"not an indiyka position: {position.notation()}")
    if position.outcome() is not None:
        raise EngineError(f"the game is over in {position.notation()}")
    return position


def _before_roll(position: IndiykaPosition, doubler: int) -> IndiykaPosition:
    """The position as the doubler sees it when he may double: his turn, no dice."""
    if position.dice is not None:
        raise EngineError(f"the cube is turned before rolling, not in {position.notation()}")
    return position.with_side(doubler)


ENGINE = register_engine(IndiykaEngine())
