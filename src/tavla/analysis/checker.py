"""Checker play and dice luck of a finished game or match, judged by a bot.

For every turn a player chose, the bot ranks the legal turns (``plies`` deep, with
its move filters) and the turn played is compared with the best: the equity lost,
marked as GNU Backgammon marks it (:data:`MARKS`). A forced turn (one legal turn)
is no decision and counts for nothing.

For every roll, the luck: the roller's equity after his best turn with the dice he
got, less the mean of that over all 21 rolls (0-ply, both). Good dice are positive.

Equities are cubeless points per game for the player concerned (-3 to 3), whatever
the match score: the checker play's part of the review. Cube decisions are judged
by :mod:`tavla.analysis.cube`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from tavla.bots.encoding import encoder_for
from tavla.bots.outcomes import Estimate
from tavla.bots.outcomes import equity as equities
from tavla.bots.search import DiceSearch, Estimator, SearchSettings
from tavla.core.errors import TavlaError
from tavla.match.actions import ActionKind, MatchAction
from tavla.match.record import MatchRecord, Step, replay_steps
from tavla.match.state import MatchState
from tavla.rules.dicegame import DiceGame

MARKS: tuple[tuple[float, str], ...] = ((0.16, "blunder"), (0.08, "error"), (0.04, "doubtful"))
"""Equity lost from which a decision gets each mark, worst first (gnubg's defaults for
"very bad", "bad" and "doubtful")."""
SHOWN_ALTERNATIVES = 5


def mark_of(loss: float) -> str:
    """The mark of a decision that lost ``loss`` equity; "" below every threshold."""
    for threshold, name in MARKS:
        if loss >= threshold - 1e-9:
            return name
    return ""


@dataclass(frozen=True)
class RolledLoss:
    """What a rollout says the turn played gives up against the bot's best turn."""

    loss: float
    """The best turn's rolled-out equity less the played turn's: below 0 where the turn
    played did better."""
    error: float
    """The standard error of ``loss``, from the trials' differences (the two turns
    meet the same dice trial by trial)."""
    trials: int
    settings: str
    """How it was rolled out, e.g. "rollout 72xend"."""


@dataclass(frozen=True)
class MoveReview:
    game_number: int
    action_index: int
    """The MOVE action's index in the record."""
    seat: int
    before: str
    """The position with the dice, in notation."""
    played: str
    best: str
    played_equity: float
    best_equity: float
    alternatives: tuple[tuple[str, float], ...]
    """The best turns found, best first, with their equities."""
    forced: bool
    plies: int
    rollout: RolledLoss | None = None
    """The turn played and the best turn rolled out (:mod:`tavla.analysis.rollouts`);
    None where they were not."""

    @property
    def judged_loss(self) -> float:
        """The equity lost by the bot's estimates (``plies`` deep)."""
        return max(0.0, self.best_equity - self.played_equity)

    @property
    def loss(self) -> float:
        """The equity lost: the rollout's where there is one, else the bot's estimate's."""
        if self.rollout is not None:
            return max(0.0, self.rollout.loss)
        return self.judged_loss

    @property
    def mark(self) -> str:
        return "" if self.forced else mark_of(self.loss)


@dataclass(frozen=True)
class RollLuck:
    game_number: int
    action_index: int
    seat: int
    dice: tuple[int, int]
    luck: float
    """Equity the roll gave the roller beyond an average roll's."""


EstimatorFor = Callable[[str], Estimator]
"""The estimator of a game, by the game's name."""


class CheckerReviewer:
    """Reviews the turns and rolls of match records of one bot's games."""

    def __init__(self, estimator_for: EstimatorFor, settings: SearchSettings) -> None:
        self._estimator_for = estimator_for
        self._settings = settings
        self._searches: dict[str, DiceSearch] = {}

    def _search(self, game: str) -> DiceSearch:
        if game not in self._searches:
            self._searches[game] = DiceSearch(self._estimator_for(game), self._settings)
        return self._searches[game]

    def review(
        self, record: MatchRecord, steps: Iterable[Step] | None = None
    ) -> Iterator[MoveReview | RollLuck]:
        """Each turn's review and each roll's luck, in the order of the record: of all
        its actions, or of ``steps`` (some of its :func:`replay_steps`)."""
        if not record.settings.definition.facts.has_dice:
            raise TavlaError(f"{record.settings.game} has no dice: nothing to review here")
        search = self._search(record.settings.game)
        for step in replay_steps(record) if steps is None else steps:
            action, state, after, index = step.action, step.before, step.after, step.index
            if action.kind is ActionKind.MOVE and action.seat is not None:
                yield self._move(search, state, action, index)
            elif action.kind is ActionKind.ROLL and action.seat is not None and not state.awaiting_opening:
                yield self._luck(search, state, after, action, index)

    # ------------------------------------------------------------------ turns
    def _move(self, search: DiceSearch, state: MatchState, action: MatchAction, index: int) -> MoveReview:
        position = _dice_position(state)
        played = position.parse_turn(action.value)
        found, estimate = search.expand(position)
        texts = [turn.text for turn in found.turns]
        rows = {text: estimate[i] for i, text in enumerate(texts)}
        if played.text not in rows:  # a huge double's beam may have missed the turn played
            row = encoder_for(position).encode_many([played.after], position.side)
            rows[played.text] = np.asarray(search.estimator.evaluate(row), dtype=np.float64)[0]
        forced = found.complete and len(found) == 1
        plies = self._settings.plies
        if plies and not forced:
            rows = self._deeper(search, position, found.turns, rows, played.text, plies)
        ranked = sorted(rows, key=lambda text: -_equity(rows[text]))
        return MoveReview(
            game_number=state.game_number,
            action_index=index,
            seat=state.seat_of(position.side),
            before=position.notation(),
            played=played.text,
            best=ranked[0],
            played_equity=_equity(rows[played.text]),
            best_equity=_equity(rows[ranked[0]]),
            alternatives=tuple((text, _equity(rows[text])) for text in ranked[:SHOWN_ALTERNATIVES]),
            forced=forced,
            plies=0 if forced else plies,
        )

    def _deeper(
        self,
        search: DiceSearch,
        position: DiceGame[Any],
        turns: list[Any],
        rows: dict[str, Estimate],
        played: str,
        plies: int,
    ) -> dict[str, Estimate]:
        """The filtered best turns and the turn played, all estimated at ``plies``."""
        keep = self._settings.keep_at(1)
        margin = self._settings.margin_at(1)
        ranked = sorted(rows, key=lambda text: -_equity(rows[text]))
        top = _equity(rows[ranked[0]])
        chosen = [text for text in ranked[:keep] if top - _equity(rows[text]) <= margin]
        if played not in chosen:
            chosen.append(played)
        after_of = {turn.text: turn.after for turn in turns}
        if played not in after_of:
            after_of[played] = position.parse_turn(played).after
        deeper = search.turn_estimates([after_of[text] for text in chosen], position.side, plies)
        return dict(zip(chosen, deeper, strict=True))

    # ------------------------------------------------------------------ luck
    def _luck(
        self, search: DiceSearch, state: MatchState, after: MatchState, action: MatchAction, index: int
    ) -> RollLuck:
        before = _dice_position(state)
        rolled = _dice_position(after)
        if rolled.dice is None:
            raise TavlaError(f"the roll {action.value} left no dice in {rolled.notation()}")
        rolls = before.chance_outcomes()
        expanded = search.expand_many([before.with_roll(roll) for roll, _ in rolls], root=True)
        # Every roll has a turn, if only the empty one of a player who cannot move.
        values = {
            roll: float(equities(estimate).max())
            for (roll, _), (_, estimate) in zip(rolls, expanded, strict=True)
        }
        mean = sum(float(weight) * values[roll] for roll, weight in rolls)
        dice = (rolled.dice[0], rolled.dice[1])
        actual = values[dice] if dice in values else values[(dice[1], dice[0])]
        return RollLuck(state.game_number, index, state.seat_of(before.side), dice, actual - mean)


def _dice_position(state: MatchState) -> DiceGame[Any]:
    position = state.position
    if not isinstance(position, DiceGame):
        raise TavlaError(f"not a dice game position: {position.notation()}")
    return position


def _equity(row: Estimate) -> float:
    return float(equities(np.asarray(row)[None])[0])
