"""Self-play TD(lambda), as TD-Gammon learnt: the network plays both sides greedily.

After each turn the estimate of the afterstate just chosen becomes the target of
the previous one, and the game's result is the target of the last one (which
the network learns too, so that it knows a finished game when it sees one).
Every estimate is seen by its owner, the player who made it; between owners the
target is flipped (:func:`tavla.bots.outcomes.flip`), and so are the eligibility
traces, output by output (the flip is linear on differences: my p_win error is
minus his; my gammon errors are his lost-gammon errors). A gulbara completion
makes one player move twice in a row: no flip there.

The traces keep, per output, the decayed sum of that output's gradients; an
update moves the weights by ``alpha * sum_k delta_k * trace_k``. They start
empty each game, so a checkpoint between games needs only the weights and the
random state.
"""

from __future__ import annotations

import random
from typing import Any, cast

import numpy as np

from tavla.bots.afterstates import Afterstates, afterstates
from tavla.bots.encoding.base import Features
from tavla.bots.network import Array, Network
from tavla.bots.outcomes import FLIP, Estimate, consistent, equity, flip, outcome_estimate
from tavla.bots.players import Player
from tavla.bots.playout import ORDINARY_DICE
from tavla.core.protocol import Outcome
from tavla.core.registry import find_game
from tavla.rules.dicegame import DiceGame
from tavla.rules.turns import TURN_LIST_LIMIT

MAX_TURNS = 2_000
"""A self-play game is cut off after this many turns (typical games take about a hundred):
an untrained antitabla network can hit back and forth for ever. A cut-off game
teaches its turns' targets but has no result to learn."""


class Traces:
    """Eligibility traces of every weight, one set per output, in the current owner's frame.

    Stored lazily, because decaying and flipping some 100,000 numbers after every
    turn cost more than playing the turn: the trace of output ``k`` is
    ``sign[k] * scale * stored[slot[k]]``. Decaying multiplies ``scale``; a flip
    permutes ``slot`` and ``sign``; adding a gradient touches only the rows of
    the inputs that are not zero (most are).
    """

    def __init__(self, network: Network) -> None:
        outputs = len(network.b2)
        self.w1 = np.zeros((outputs, *network.w1.shape))
        self.b1 = np.zeros((outputs, network.hidden))
        self.w2 = np.zeros_like(network.w2.T)  # output k's gradient lives in column k of w2 only
        self.b2 = np.zeros_like(network.b2)
        self.slot = np.arange(outputs)
        self.sign = np.ones(outputs)
        self.scale = 1.0

    def flip(self) -> None:
        """Re-express the traces in the other player's frame (see :func:`outcomes.flip`)."""
        self.slot = self.slot[FLIP]
        self.sign = self.sign[FLIP]
        self.sign[0] = -self.sign[0]

    def decay_and_add(self, lam: float, network: Network, x: Array, hidden: Array, out: Estimate) -> None:
        """``trace = lam * trace + gradient of each output at this afterstate``."""
        self.scale *= lam
        if self.scale < 1e-100 or lam == 0.0:  # fold the scale in before it underflows
            self._fold()
        slope = out * (1.0 - out) * network.mask  # d out_k / d (pre-activation k)
        through = network.w2 * slope * (hidden * (1.0 - hidden))[:, None]  # d out_k / d hidden pre-act
        # Logical output k is stored in slot[k]: divide by its factor before storing.
        order = np.argsort(self.slot)
        factor = (self.sign * self.scale)[order]
        used = np.flatnonzero(x)
        self.w1[:, used, :] += x[used][None, :, None] * (through.T[order] / factor[:, None])[:, None, :]
        self.b1 += through.T[order] / factor[:, None]
        self.w2 += (slope[:, None] * hidden[None, :])[order] / factor[:, None]
        self.b2 += slope[order] / factor

    def _fold(self) -> None:
        for trace in (self.w1, self.b1, self.w2, self.b2):
            trace *= self.scale
        self.scale = 1.0

    def apply(self, network: Network, alpha: float, delta: Estimate) -> None:
        """Move the weights by ``alpha * sum_k delta_k * trace_k``."""
        logical = alpha * delta * self.sign * self.scale  # per output k
        coefficient = np.empty_like(delta)
        coefficient[self.slot] = logical  # per stored slot
        # Every output's trace moves all of w1 and b1; output k's moves only column k of w2.
        network.w1 += np.tensordot(coefficient, self.w1, axes=1)
        network.b1 += coefficient @ self.b1
        network.w2 += (self.w2[self.slot] * logical[:, None]).T
        network.b2 += self.b2[self.slot] * logical


class LastGradient:
    """TD(0)'s traces: the gradient of the last estimate alone, kept as the row it came from.

    At lambda 0 a trace is forgotten at the next turn, so storing every weight's
    gradient for each of the five outputs (what :class:`Traces` does) is wasted: this
    keeps the afterstate's inputs and activations and back-propagates the error when
    it comes. The update is :class:`Traces`' at lambda 0 (tested), for about a quarter
    of a self-play turn's time less. Each gradient is applied once, before the weights
    move again, so the output weights it reads are those it was taken with.
    """

    def __init__(self, network: Network) -> None:
        self.x: Array = np.zeros(network.inputs)
        self.hidden: Array = np.zeros(network.hidden)
        self.out: Estimate = np.zeros(len(network.b2))

    def flip(self) -> None:
        """Nothing to re-express: the next error arrives after the next gradient replaces this one."""

    def decay_and_add(self, lam: float, network: Network, x: Array, hidden: Array, out: Estimate) -> None:
        self.x, self.hidden, self.out = x, hidden, out

    def apply(self, network: Network, alpha: float, delta: Estimate) -> None:
        """Move the weights by ``alpha * sum_k delta_k * gradient_k`` of the last estimate."""
        out_error = alpha * delta * self.out * (1.0 - self.out) * network.mask
        hidden_error = (network.w2 @ out_error) * self.hidden * (1.0 - self.hidden)
        used = np.flatnonzero(self.x)
        network.w1[used] += np.outer(self.x[used], hidden_error)
        network.b1 += hidden_error
        network.w2 += np.outer(self.hidden, out_error)
        network.b2 += out_error


def progressive(position: DiceGame[Any]) -> bool:
    """Whether the turn due plays more than four dice (a progressive double)."""
    sequences, _ = position.turn_sequences()
    return any(len(dice) > ORDINARY_DICE for dice in sequences)


class TDTrainer:
    """Plays self-play games of ``network.game`` and updates ``network`` in place.

    ``limit`` and ``width`` bound huge progressive doubles (chelebi, gulbara):
    past ``limit`` positions after one die the network's own equity steers a beam
    of ``width`` turns (``afterstates``), so a game never stalls on one roll.
    Rolls of at most four dice are always listed whole.

    With a ``coach`` (a baseline player), a share ``coached`` of the games puts it
    on one side: the network learns from its own turns only, the coach's turn
    being part of what follows each of them. Such games end as the coach plays
    to end them, which antitabla's greedy self-play does not learn by itself,
    and they keep showing the network the baseline it is measured against.

    With a ``policy`` (another network of the game, such as one ``tavla distill``
    fitted), the policy chooses every self-play turn and ``network`` learns the
    values of the turns it chose: policy evaluation, which greedy self-play merges
    with improvement. A policy stronger than the network's own 0-ply choice shows
    the network the positions and results of stronger play.
    """

    def __init__(
        self,
        network: Network,
        *,
        alpha: float = 0.1,
        lam: float = 0.7,
        rng: random.Random,
        limit: int = 200,
        width: int = 16,
        coach: Player | None = None,
        coached: float = 0.0,
        policy: Network | None = None,
    ) -> None:
        self.network = network
        self.policy = policy
        self.coach = coach
        self.coached = coached
        self.alpha = alpha
        self.lam = lam
        self.rng = rng
        self.limit = limit
        self.width = width
        self.start = find_game(network.game).start()

    def play_game(self) -> Outcome | None:
        """One self-play game from the start, learning after every turn; its result
        (None for a game cut off after ``MAX_TURNS`` turns)."""
        network, rng = self.network, self.rng
        position: DiceGame[Any] = self.start.with_side(rng.randrange(2))  # type: ignore[assignment]
        coach_side = None
        if self.coach is not None and rng.random() < self.coached:
            coach_side = rng.randrange(2)
        traces: Traces | LastGradient = Traces(network) if self.lam > 0.0 else LastGradient(network)
        previous: tuple[int, Estimate] | None = None  # (owner, estimate) of the last afterstate
        for _ in range(MAX_TURNS):
            if position.is_chance:
                position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
            owner = position.side
            if owner == coach_side and self.coach is not None:
                position = self.coach.choose(position).after
                outcome = position.outcome()
                if outcome is not None:
                    if previous is not None:  # the network's last afterstate learns the result
                        last_owner, last_estimate = previous
                        result = outcome_estimate(outcome, last_owner) * network.mask
                        traces.apply(network, self.alpha, result - last_estimate)
                    return outcome
                continue
            limit = self.limit if progressive(position) else TURN_LIST_LIMIT
            found = afterstates(position, limit=limit, score_rows=self._beam_scores, width=self.width)
            inputs = network.prepare(found.features)
            hidden, out = network.forward_prepared(inputs)
            index = int(np.argmax(equity(out if self.policy is None else self._policy_rows(found, inputs))))
            estimate = out[index]
            if previous is not None:
                last_owner, last_estimate = previous
                target = estimate if last_owner == owner else flip(estimate)
                traces.apply(network, self.alpha, target - last_estimate)
                if last_owner != owner:
                    traces.flip()
            traces.decay_and_add(self.lam, network, inputs[index], hidden[index], estimate)
            previous = (owner, estimate)
            position = found.after(index)
            outcome = position.outcome()
            if outcome is not None:
                result = outcome_estimate(outcome, owner) * network.mask
                traces.apply(network, self.alpha, result - estimate)
                return outcome
        return None

    def _policy_rows(self, found: Afterstates[Any], inputs: Array) -> Estimate:
        """The policy's estimates of a roll's turns; from the network's inputs when the two
        take the same ones (the board terms cost more than the product)."""
        policy = cast(Network, self.policy)
        if policy.term_label == self.network.term_label and policy.inputs == self.network.inputs:
            return consistent(policy.forward_prepared(inputs)[1])
        return policy.evaluate(found.features)

    def _beam_scores(self, rows: Features) -> Array:
        """The beam's rating of the rows of a huge progressive double's turns: the policy's
        when there is one, as it chooses the turns."""
        return (self.policy or self.network).equities(rows)
