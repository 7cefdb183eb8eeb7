"""Cube decisions of a finished match, judged by a bot's chances and the cube model.

Before each roll where the player on roll could double (RULES.md 9.2, 9.3), the
bot's cubeless chances for him go through the cube model (``tavla.bots.cube``):
what doubling, and not doubling, are worth when the opponent answers right. A
double, a take, a pass or a beaver is compared with the right choice the same
way. Positions where nobody doubled and doubling was far from right are no
decision and are left out, as GNU Backgammon counts only close or actual ones; so
are those where doubling is worth exactly what not doubling is (double match point,
where a taken cube wins what the game wins).

Losses are in points per game per unit of the cube for money play (the cube
model's equities already are); for a match the loss in match winning chance is
turned into the same unit (the normalised equity of gnubg's "EMG"): twice the loss
over the match-winning-chance swing of the cube's points won or lost, so the marks
of :mod:`tavla.analysis.checker` fit both.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from tavla.analysis.checker import EstimatorFor, mark_of
from tavla.bots.cube import CubeContext, chances, double_decision, swap_sides, take_decision
from tavla.bots.cube.context import MatchScore
from tavla.bots.cube.request import cube_context
from tavla.bots.encoding import encoder_for
from tavla.bots.search import Estimator
from tavla.core.errors import TavlaError
from tavla.match.actions import ActionKind, double_error
from tavla.match.record import MatchRecord, Step, replay_steps
from tavla.match.state import MatchState
from tavla.rules.dicegame import DiceGame
from tavla.schema.match import match_state_json

CLOSE = 0.16
"""A no-double counts as a decision when doubling was at most this far from right."""
SAME = 1e-9
"""Equities this close are one: a double worth what not doubling is, is no decision."""


@dataclass(frozen=True)
class CubeReview:
    game_number: int
    action_index: int
    seat: int
    kind: str
    """``double`` (the player on roll's choice) or ``answer`` (his opponent's)."""
    position: str
    chosen: str
    right: str
    equities: dict[str, float]
    """Each choice's equity for the player deciding, in the decision's own units."""
    loss: float
    """Normalised equity lost (see the module docstring)."""

    @property
    def mark(self) -> str:
        return mark_of(self.loss)


class CubeReviewer:
    def __init__(self, estimator_for: EstimatorFor) -> None:
        self._estimator_for = estimator_for

    def review(self, record: MatchRecord, steps: Iterable[Step] | None = None) -> Iterator[CubeReview]:
        """The cube decisions of ``record``, in order (none without the cube): of all its
        actions, or of ``steps`` (some of its :func:`replay_steps`)."""
        settings = record.settings
        if not (settings.cube and settings.definition.facts.has_dice):
            return
        estimator = self._estimator_for(settings.game)
        for step in replay_steps(record) if steps is None else steps:
            state, kind, index = step.before, step.action.kind, step.index
            if kind in (ActionKind.ROLL, ActionKind.DOUBLE) and double_error(state, step.action.seat) is None:
                review = self._double(estimator, state, kind is ActionKind.DOUBLE, index)
                if review is not None:
                    yield review
            elif kind in (ActionKind.TAKE, ActionKind.DROP, ActionKind.BEAVER) and state.phase == "double":
                yield self._answer(estimator, state, kind, index)

    def _double(
        self, estimator: Estimator, state: MatchState, doubled: bool, index: int
    ) -> CubeReview | None:
        seat = _actor(state)
        context = _context(state, seat)
        values = _chances_on_roll(estimator, state)
        decision = double_decision(values, context)
        if decision.double_take is None or decision.double_pass is None:
            return None
        answered = min(decision.double_take, decision.double_pass)
        if decision.double_beaver is not None:
            answered = min(answered, decision.double_beaver)
        chosen = answered if doubled else decision.no_double
        best = max(answered, decision.no_double)
        if not doubled and decision.no_double - answered > CLOSE:
            return None  # not doubling was right by far: not a decision
        if abs(decision.no_double - answered) < SAME:
            return None  # doubling changes nothing (double match point): nothing to decide
        equities = {"no double": decision.no_double, "double, take": decision.double_take}
        equities["double, pass"] = decision.double_pass
        if decision.double_beaver is not None:
            equities["double, beaver"] = decision.double_beaver
        return CubeReview(
            state.game_number,
            index,
            seat,
            "double",
            state.position.notation(),
            "double" if doubled else "no double",
            str(decision.action),
            equities,
            _normalised(best - chosen, context),
        )

    def _answer(self, estimator: Estimator, state: MatchState, kind: ActionKind, index: int) -> CubeReview:
        offer = state.cube.offer
        if offer is None:
            raise TavlaError("an answer without a double in the record")
        doubler = offer.by
        # The cube before the double (a pending offer leaves it as it was), seen from the
        # doubler: take_decision's convention.
        context = _context(state, doubler)
        values = _chances_on_roll(estimator, state)
        decision = take_decision(values, context)
        equities = {"take": decision.take, "pass": decision.pass_}
        if decision.beaver is not None:
            equities["beaver"] = decision.beaver
        chosen = {ActionKind.TAKE: "take", ActionKind.DROP: "pass", ActionKind.BEAVER: "beaver"}[kind]
        if chosen not in equities:
            raise TavlaError(f"a {chosen} where the cube model has no such answer")
        best = max(equities.values())
        return CubeReview(
            state.game_number,
            index,
            1 - doubler,
            "answer",
            state.position.notation(),
            chosen,
            str(decision.answer),
            equities,
            _normalised(best - equities[chosen], context),
        )


def _context(state: MatchState, seat: int) -> CubeContext:
    """The cube context of ``seat``'s decision, read as an engine reads a match."""
    return cube_context(match_state_json(state, 0).model_dump(mode="json"), state.colour_of(seat))


def _actor(state: MatchState) -> int:
    seat = state.actor
    if seat is None:
        raise TavlaError(f"nobody is to act in {state.position.notation()}")
    return seat


def _chances_on_roll(estimator: Estimator, state: MatchState) -> Any:
    """The bot's cubeless chances for the player to roll (an afterstate of his
    opponent's, seen from the opponent, turned around)."""
    position = state.position
    if not isinstance(position, DiceGame):
        raise TavlaError(f"not a dice game position: {position.notation()}")
    row = encoder_for(position).encode_many([position], 1 - position.side)
    theirs = chances(np.asarray(estimator.evaluate(row), dtype=np.float64)[0])
    return swap_sides(theirs)


def _normalised(loss: float, context: CubeContext) -> float:
    """``loss`` in points per game of a cube at 1: money equities already count per
    unit of the cube; a loss of match winning chance is set against what winning or
    losing the cube's points swings (gnubg's normalised equity)."""
    play = context.play
    if not isinstance(play, MatchScore):
        return max(0.0, loss)
    value = context.cube.value
    swing = play.equity(value) - play.equity(-value)
    return max(0.0, 2 * loss / swing) if swing > 0 else 0.0
