"""Choosing a turn in a dice game by looking ahead over the rolls (expectimax).

A bot's evaluator estimates positions after a turn, from the side of the player
who just moved: five chances per row (:mod:`tavla.bots.outcomes`). This module turns
such an :class:`Estimator` into a player that searches:

- **0-ply**: every legal turn's resulting position is estimated, the best equity
  wins. Cheap: one batched call per roll.
- **n-ply** estimate of a resulting position: the mean, over the next rolls, of the
  position after the reply the next player would choose at 0-ply, estimated at
  (n-1) plies (GNU Backgammon's n-ply evaluation). A finished game is its result.
- **Move filters**: deeper plies cost 21 times more each, so only the turns that
  look best at the ply below are searched deeper, as gnubg filters its moves: at
  most ``keep`` turns, and none more than ``margin`` equity behind the best.
- **Time**: with ``movetime_ms`` the search goes one ply deeper while time is left
  and answers with the deepest ply it completed for every filtered turn.

Whose turn comes next is read from each position, never assumed to alternate: a
gulbara player completing his opponent's double acts next without a roll, then
rolls again himself (RULES.md 6.3).

Progressive doubles with too many turns to list (chelebi, gulbara) are searched
over the beam of ``afterstates(score=...)``, the evaluator's own ranking.

**A policy beside the evaluator.** ``DiceSearch(value, settings, policy=other)``
lets a second estimator choose between the turns of one roll (the 0-ply choice, the
root's move filter, each reply in the lookahead, the beam) while ``value`` gives
every estimate that is averaged or reported. A network fitted to rank one roll's
turns as its lookahead does (``tavla distill``) chooses better than it values:
values of different rolls' positions are what a lookahead adds up.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

import numpy as np

from tavla.bots.afterstates import BEAM_WIDTH, Afterstates, afterstates
from tavla.bots.encoding.base import Features
from tavla.bots.outcomes import Estimate, flip, outcome_estimate
from tavla.bots.outcomes import equity as equities
from tavla.core.errors import TavlaError
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn


class Estimator(Protocol):
    """A game's evaluator: feature rows (the game's encoder) to estimates.

    Rows of finished games must come out exact: the search trusts every row.
    """

    def evaluate(self, features: Features) -> Estimate: ...


@dataclass(frozen=True)
class SearchSettings:
    plies: int = 0
    """The deepest ply searched (0: the evaluator alone)."""
    keep: tuple[int, ...] = (8, 3)
    """Turns kept for ply 1, ply 2, ... (the last value repeats)."""
    margin: tuple[float, ...] = (0.16, 0.04)
    """Equity behind the best past which a turn is not searched deeper, per ply."""
    noise: float = 0.0
    """Standard deviation of the normal noise added to each root turn's equity: the
    weaker levels' mistakes."""
    root_width: int = BEAM_WIDTH
    """Turns the beam keeps on a huge progressive double at the root ..."""
    inner_width: int = 8
    """... and in the lookahead, where the 21 replies of every searched turn each may
    be one: the beam's cost grows with its width."""

    def keep_at(self, ply: int) -> int:
        return self.keep[min(ply, len(self.keep)) - 1]

    def margin_at(self, ply: int) -> float:
        return self.margin[min(ply, len(self.margin)) - 1]


@dataclass(frozen=True)
class Choice:
    turn: DiceTurn[Any]
    estimated: Callable[[], Estimate] = field(repr=False)
    """Computes :attr:`estimate` when first asked: a player that only plays the turn
    need not pay the evaluator's call for it when a policy chose it."""
    plies: int
    """The deepest ply completed for every searched turn."""
    positions: int
    """Positions estimated by the evaluator."""

    @cached_property
    def estimate(self) -> Estimate:
        """The chosen turn's five chances for the mover, at ``plies``."""
        return self.estimated()

    @property
    def equity(self) -> float:
        return float(equities(self.estimate[None])[0])


class _OutOfTime(Exception):
    pass


class DiceSearch:
    """A player for one dice game: ``choose(position)`` with the dice rolled."""

    def __init__(
        self,
        estimator: Estimator,
        settings: SearchSettings,
        seed: int | None = None,
        *,
        policy: Estimator | None = None,
    ) -> None:
        self.estimator = estimator
        self.policy = policy
        """Chooses between one roll's turns when set; ``estimator`` still values them."""
        self.settings = settings
        self._rng = random.Random(seed)
        self._deadline: float | None = None
        self.positions = 0

    # ------------------------------------------------------------------ 0-ply
    def _score_rows(self, rows: Features) -> Sequence[float]:
        """The beam's rating of the rows of positions after a turn (huge progressive doubles)."""
        self.positions += len(rows)
        values: list[float] = equities((self.policy or self.estimator).evaluate(rows)).tolist()
        return values

    def expand(self, position: DiceGame[Any], *, root: bool = True) -> tuple[Afterstates[Any], Estimate]:
        """The legal turns of ``position`` and their 0-ply estimates for its mover."""
        return self.expand_many([position], root=root)[0]

    def expand_many(
        self, positions: Sequence[DiceGame[Any]], *, root: bool = False
    ) -> list[tuple[Afterstates[Any], Estimate]]:
        """:meth:`expand` of each position, their rows estimated in one call.

        A lookahead asks for the replies to 21 rolls at a time: one product over all
        their rows costs far less than 21 small ones, whose fixed cost (the board
        terms, numpy's calls) outweighs the arithmetic."""
        listed = self._list_turns(positions, root=root)
        if not listed:
            return []
        estimates = np.asarray(self.estimator.evaluate(np.concatenate([f.features for f in listed])))
        return list(zip(listed, self._split(listed, estimates), strict=True))

    def _list_turns(self, positions: Sequence[DiceGame[Any]], *, root: bool) -> list[Afterstates[Any]]:
        width = self.settings.root_width if root else self.settings.inner_width
        listed: list[Afterstates[Any]] = []
        for position in positions:
            self._check_time()
            found = afterstates(position, score_rows=self._score_rows, width=width)
            self.positions += len(found)
            listed.append(found)
        return listed

    @staticmethod
    def _split(listed: Sequence[Afterstates[Any]], rows: Estimate) -> list[Estimate]:
        bounds = np.cumsum([len(found) for found in listed])[:-1]
        return np.split(np.asarray(rows, dtype=np.float64), bounds)

    def best_replies(
        self, positions: Sequence[DiceGame[Any]]
    ) -> tuple[list[Afterstates[Any]], list[int], Estimate]:
        """Each decision's turns, the one it plays at 0-ply (the policy's choice when
        there is one) and that turn's estimate by the evaluator, one row each."""
        listed = self._list_turns(positions, root=False)
        for decision, found in zip(positions, listed, strict=True):
            if not len(found):
                raise TavlaError(f"no legal turn listed in {decision.notation()}")
        if not listed:
            return [], [], np.zeros((0, 5))
        rows = np.concatenate([found.features for found in listed])
        starts = np.concatenate([[0], np.cumsum([len(found) for found in listed])[:-1]])
        chooser = self.policy or self.estimator
        ranked = self._split(listed, chooser.evaluate(rows))
        best = [int(np.argmax(equities(estimate))) for estimate in ranked]
        chosen = starts + np.array(best)
        if self.policy is None:
            values = np.concatenate(ranked)[chosen]
        else:
            values = np.asarray(self.estimator.evaluate(rows[chosen]), dtype=np.float64)
        return listed, best, values

    # ------------------------------------------------------------------ n-ply
    def _check_time(self) -> None:
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise _OutOfTime

    def position_estimate(self, position: DiceGame[Any], player: int, plies: int) -> Estimate:
        """``position``'s chances for ``player`` at ``plies`` (>= 1): the mean over the
        next rolls of the best 0-ply reply, estimated at ``plies`` - 1."""
        estimate: Estimate = self.position_estimates([position], [player], plies)[0]
        return estimate

    def position_estimates(
        self, positions: Sequence[DiceGame[Any]], players: Sequence[int], plies: int
    ) -> Estimate:
        """:meth:`position_estimate` of each position for its player, one row each;
        every position's replies at one depth are estimated together."""
        totals = np.zeros((len(positions), 5))
        owners: list[int] = []
        decisions: list[DiceGame[Any]] = []
        weights: list[float] = []
        for index, position in enumerate(positions):
            outcome = position.outcome()
            if outcome is not None:
                totals[index] = outcome_estimate(outcome, players[index])
            elif position.is_chance:
                for roll, share in position.chance_outcomes():
                    owners.append(index)
                    decisions.append(position.with_roll(roll))
                    weights.append(float(share))
            else:  # a decision without a roll (a gulbara completion)
                owners.append(index)
                decisions.append(position)
                weights.append(1.0)
        listed, best, rows = self.best_replies(decisions)
        sides = [decision.side for decision in decisions]
        if plies > 1:
            replies = [found.after(index) for found, index in zip(listed, best, strict=True)]
            rows = self.position_estimates(replies, sides, plies - 1)
        for owner, side, weight, row in zip(owners, sides, weights, rows, strict=True):
            totals[owner] += weight * (row if side == players[owner] else flip(row))
        return totals

    # ------------------------------------------------------------------ root
    def choose(self, position: DiceGame[Any], movetime_ms: int | None = None) -> Choice:
        """The turn to play with ``position``'s dice; with ``movetime_ms``, the deepest
        ply (up to ``settings.plies``) completed within about that time."""
        if position.outcome() is not None:
            raise TavlaError(f"the game is over in {position.notation()}: no turn to choose")
        start = time.perf_counter()
        self._deadline = None
        self.positions = 0
        found = self._list_turns([position], root=True)[0]  # 0-ply always completes: no deadline yet
        self._deadline = None if movetime_ms is None else start + movetime_ms / 1000
        if not len(found):
            raise TavlaError(f"no legal turn listed in {position.notation()}")
        # With a policy the evaluator estimates only the turn played at 0-ply.
        ranked = np.asarray((self.policy or self.estimator).evaluate(found.features), dtype=np.float64)
        rows = ranked if self.policy is None else None
        scores = equities(ranked)
        candidates = list(range(len(found)))
        reached = 0
        try:
            for ply in range(1, self.settings.plies + 1):
                candidates = self._filtered(candidates, scores, ply)
                if len(candidates) == 1:
                    break
                deeper = np.zeros_like(ranked)
                afters = [found.after(index) for index in candidates]
                deeper[candidates] = self.turn_estimates(afters, position.side, ply)
                rows, scores, reached = deeper, equities(deeper), ply
        except _OutOfTime:
            pass
        finally:
            self._deadline = None
        values = scores[candidates]
        if self.settings.noise > 0:
            values = values + np.array([self._rng.gauss(0, self.settings.noise) for _ in candidates])
        best = candidates[int(np.argmax(values))]
        if rows is None:
            features, estimator = found.features[best : best + 1], self.estimator
            return Choice(found.turn(best), lambda: estimator.evaluate(features)[0], reached, self.positions)
        row = rows[best]
        return Choice(found.turn(best), lambda: row, reached, self.positions)

    def turn_estimates(self, afters: Sequence[DiceGame[Any]], side: int, plies: int) -> Estimate:
        """The estimates at ``plies`` for ``side`` of the positions its candidate turns
        lead to: one batch at 1 ply; a turn at a time deeper, where one turn's replies
        alone come to hundreds of positions."""
        if plies == 1:
            return self.position_estimates(afters, [side] * len(afters), plies)
        return np.concatenate([self.position_estimates([after], [side], plies) for after in afters])

    def _filtered(self, candidates: Sequence[int], scores: np.ndarray, ply: int) -> list[int]:
        values = scores[list(candidates)]
        order = np.argsort(-values, kind="stable")[: self.settings.keep_at(ply)]
        top = values[order[0]]
        return [candidates[i] for i in order if top - values[i] <= self.settings.margin_at(ply)]
