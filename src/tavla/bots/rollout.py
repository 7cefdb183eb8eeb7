"""Rollouts: a position's chances measured by playing it out many times.

A rollout plays a position forward ``trials`` times, the network choosing every
turn on both sides at 0-ply, and averages what each trial ends in: the game's
result, or, when ``truncate`` turns have been played and the game goes on, the
network's estimate of the position reached. Strong backgammon programs label
positions this way to train their networks: a result seen at the end of the game
carries none of the network's errors, and a truncated trial only those of its leaf,
several rolls further on.

Two things keep the dice's noise down:

- **Stratified dice.** The first roll of the trials cycles through the 36 rolls in
  order, and within every 36 trials each second roll also comes once (a Latin
  square, as gnubg's "quasi-random dice"). Later rolls are drawn from the seed and
  the position's text, so a position gets the same estimate whatever else is rolled
  out beside it, in any process.
- **Variance reduction** (on by default). Before each roll the network's 0-ply
  choice is found for all 21 rolls; the luck of the roll that came is the estimate
  after its choice minus the mean over the 21, and a trial's result is taken minus
  the luck of all its rolls. The luck has mean zero whatever the network's errors,
  so the estimate stays unbiased, while most of the spread between trials, which is
  the dice's, is taken out. A step costs 21 times more (a 1-ply look), and a few
  trials do what many plain ones would.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from tavla.bots.encoding import encoder_for
from tavla.bots.outcomes import Estimate, consistent, equity, flip, outcome_estimate
from tavla.bots.search import DiceSearch, Estimator, SearchSettings
from tavla.core.errors import TavlaError
from tavla.rules.dicegame import DiceGame

ROLLS = tuple((first, second) for first in range(1, 7) for second in range(1, 7))
"""The 36 rolls in a fixed order, each double once and each other roll in both orders."""
SECOND_STRIDE = 5
"""Trial i's second roll is ``ROLLS[(5 i + i // 36) % 36]``: 5 is prime to 36, so the
36 trials of a block meet every second roll once, each block with another pairing."""


@dataclass(frozen=True)
class RolloutSettings:
    trials: int = 36
    """Games played from the position: a multiple of 36 stratifies the first two rolls."""
    truncate: int = 0
    """Turns after which a trial stops and the leaf is estimated; 0 plays to the end."""
    variance_reduction: bool = True
    seed: int = 0

    def __post_init__(self) -> None:
        if self.trials < 1:
            raise TavlaError(f"a rollout needs at least one trial, not {self.trials}")
        if self.truncate < 0:
            raise TavlaError(f"a rollout cannot stop after {self.truncate} turns: give 0 (the end) or more")

    @property
    def label(self) -> str:
        """How the settings read in a dataset's metadata: "rollout 36x10 vr"."""
        reduced = " vr" if self.variance_reduction else ""
        return f"rollout {self.trials}x{self.truncate or 'end'}{reduced}"


@dataclass(frozen=True)
class Rollout:
    chances: Estimate
    """The mean of the trials: win, win gammon, win backgammon, lose gammon, lose
    backgammon, for the player the rollout was asked for."""
    equity_error: float
    """The standard error of the cubeless equity's mean, the trials taken as
    independent (the stratified first rolls make the true error smaller)."""
    trials: int
    finished: int
    """Trials that reached the end of the game (the others stopped at ``truncate``)."""

    @property
    def equity(self) -> float:
        return float(equity(self.chances))


class Roller:
    """Rollouts with one evaluator (a network): it plays every turn at 0-ply and
    estimates the leaves."""

    def __init__(self, estimator: Estimator) -> None:
        self.estimator = estimator
        self.search = DiceSearch(estimator, SearchSettings())

    def rollout(
        self, position: DiceGame[Any], player: int, settings: RolloutSettings, *, dice: str | None = None
    ) -> Rollout:
        """``position``'s chances for ``player`` (any position: after a turn, or with
        the dice rolled). The dice come from the seed and ``dice``, by default the
        position's text; the candidates of one roll given the same ``dice`` meet the same
        rolls, so that the luck cancels from their differences too."""
        results, finished = self.trials(position, player, settings, dice=dice)
        spread = float(np.std(equity(results), ddof=1)) if settings.trials > 1 else 0.0
        # Luck taken out can carry a mean a hair outside [0, 1] or out of nesting: the
        # chances are made proper ones, as a network's outputs are.
        chances = consistent(np.clip(results.mean(axis=0), 0.0, 1.0))
        return Rollout(chances, spread / np.sqrt(settings.trials), settings.trials, finished)

    def trials(
        self,
        position: DiceGame[Any],
        player: int,
        settings: RolloutSettings,
        *,
        dice: str | None = None,
        chosen: range | None = None,
    ) -> tuple[np.ndarray, int]:
        """Each trial's result (one row of five chances per trial, the luck taken out
        where ``settings`` asks) and how many trials reached the end: what
        :meth:`rollout` averages. Trial i of two positions given the same ``dice``
        meets the same rolls, so their rows can be compared trial by trial.
        ``chosen`` plays only those of the ``settings.trials`` trials (each is the
        same wherever it is played: a rollout can be played in parts)."""
        wanted = range(settings.trials) if chosen is None else chosen
        if wanted.step != 1 or (len(wanted) and (wanted.start < 0 or wanted.stop > settings.trials)):
            raise TavlaError(f"trials {wanted.start} to {wanted.stop - 1} are not among {settings.trials}")
        outcome = position.outcome()
        if outcome is not None:
            return np.tile(outcome_estimate(outcome, player), (len(wanted), 1)), len(wanted)
        key = position.notation() if dice is None else dice
        base = zlib.crc32(f"{settings.seed} {key}".encode())
        results = np.empty((len(wanted), 5))
        finished = 0
        for row, trial in enumerate(wanted):
            results[row], ended = self._trial(position, player, _Dice(trial, base), settings)
            finished += ended
        return results, finished

    def _trial(
        self, position: DiceGame[Any], player: int, dice: _Dice, settings: RolloutSettings
    ) -> tuple[Estimate, bool]:
        luck = np.zeros(5)
        turns = 0
        while True:
            outcome = position.outcome()
            if outcome is not None:
                return outcome_estimate(outcome, player) - luck, True
            if not position.is_chance:  # dice already rolled, or a gulbara completion
                position = self._best(position)
            elif settings.truncate and turns >= settings.truncate:
                return self._leaf(position, player) - luck, False
            elif settings.variance_reduction:
                position, lucky = self._lucky_step(position, dice.next(), player)
                luck += lucky
            else:
                position = self._best(position.with_roll(dice.next()))
            turns += 1

    def _leaf(self, position: DiceGame[Any], player: int) -> Estimate:
        """The estimate of a position awaiting a roll, as the search rates it: from the
        side of the player who just moved, turned round for his opponent."""
        owner = 1 - position.side
        row = encoder_for(position).encode(position, owner)
        estimate: Estimate = np.asarray(self.estimator.evaluate(row[None, :]), dtype=np.float64)[0]
        return estimate if owner == player else flip(estimate)

    # Every choice is the search's inner one: a huge progressive double keeps the
    # network's best 8 turns of the beam, as inside a lookahead, not the 64 of play.
    def _best(self, position: DiceGame[Any]) -> DiceGame[Any]:
        found, estimate = self.search.expand(position, root=False)
        after: DiceGame[Any] = found.after(int(np.argmax(equity(estimate))))
        return after

    def _lucky_step(
        self, position: DiceGame[Any], roll: tuple[int, int], player: int
    ) -> tuple[DiceGame[Any], Estimate]:
        """The position after the 0-ply choice with ``roll``, and the roll's luck for
        ``player``: the estimate after that choice minus its mean over all 21 rolls."""
        mean = np.zeros(5)
        came = sorted(roll)
        chosen: tuple[Any, int, Estimate] | None = None
        options = position.chance_outcomes()
        expanded = self.search.expand_many([position.with_roll(option) for option, _ in options])
        for (option, weight), (found, estimate) in zip(options, expanded, strict=True):
            best = int(np.argmax(equity(estimate)))
            mean += float(weight) * estimate[best]
            if sorted(option) == came:
                chosen = (found, best, estimate[best])
        if chosen is None:
            raise TavlaError(f"{roll} is not among the rolls of {position.notation()}")
        found, best, value = chosen
        # The estimates are the roller's (the side to act); the luck is read from ``player``'s.
        lucky = value - mean if position.side == player else flip(value) - flip(mean)
        after: DiceGame[Any] = found.after(best)
        return after, lucky


class _Dice:
    """A trial's rolls: the first two from the stratified table, then seeded draws."""

    def __init__(self, trial: int, base: int) -> None:
        self._fixed = [ROLLS[(SECOND_STRIDE * trial + trial // 36) % 36], ROLLS[trial % 36]]
        self._draw = random.Random(base * 1_000_003 + trial)

    def next(self) -> tuple[int, int]:
        if self._fixed:
            return self._fixed.pop()
        return (self._draw.randint(1, 6), self._draw.randint(1, 6))
