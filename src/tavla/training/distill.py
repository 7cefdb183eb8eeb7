"""Distilling the lookahead's choices into the network.

The lookahead levels play better than the network alone because they choose better
among a roll's turns, not because they know positions' values better. Fitting the
network on its 1-ply estimates of positions, one position at a time, did not carry
that gain (docs/bots.md): the fit spends itself on each position's level, where
the choice depends only on the differences between a roll's turns. This fit asks for
the differences. Each decision of the network's self-play keeps its best
``candidates`` turns at 0-ply with their lookahead estimates; the network learns to
rank them as the lookahead does (a softmax over a decision's equities, its
cross-entropy against the lookahead's softmax, at a ``temperature`` in equity),
anchored to the lookahead's chances so that its estimates stay chances.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tavla.bots.afterstates import afterstates
from tavla.bots.network import Network
from tavla.bots.outcomes import equity
from tavla.core.errors import TavlaError
from tavla.core.registry import find_game
from tavla.rules.dicegame import DiceGame
from tavla.rules.turns import TURN_LIST_LIMIT
from tavla.training.self_teacher import network_targets
from tavla.training.supervised import EQUITY_WEIGHTS, Adam, Layers, SingleCopy, sigmoid
from tavla.training.td import MAX_TURNS

Array = npt.NDArray[np.floating[Any]]


@dataclass(frozen=True)
class Decisions:
    """Decisions of self-play: each one's candidate positions after the turn (best
    first by the player's 0-ply, "" where a decision had fewer than the width) and
    their lookahead estimates for the player who moved (zero rows where no candidate)."""

    texts: npt.NDArray[np.str_]
    """(decisions, candidates)"""
    estimates: npt.NDArray[np.float32]
    """(decisions, candidates, 5)"""

    def __post_init__(self) -> None:
        if self.texts.ndim != 2 or self.estimates.shape != (*self.texts.shape, 5):
            shapes = f"{self.texts.shape} with estimates of {self.estimates.shape}"
            raise TavlaError(f"decisions of shape {shapes}")

    @property
    def counts(self) -> npt.NDArray[np.int64]:
        return np.asarray((self.texts != "").sum(axis=1), dtype=np.int64)

    def __len__(self) -> int:
        return len(self.texts)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, texts=self.texts, estimates=self.estimates)

    @classmethod
    def load(cls, path: Path) -> Decisions:
        with np.load(path) as data:
            return cls(data["texts"], data["estimates"].astype(np.float32))

    @classmethod
    def joined(cls, parts: list[Decisions]) -> Decisions:
        width = max(part.texts.shape[1] for part in parts)
        texts, estimates = [], []
        for part in parts:
            more = width - part.texts.shape[1]
            texts.append(np.pad(part.texts, ((0, 0), (0, more)), constant_values=""))
            estimates.append(np.pad(part.estimates, ((0, 0), (0, more), (0, 0))))
        return cls(np.concatenate(texts), np.concatenate(estimates))


def self_play_decisions(
    game: str,
    network: Network,
    games: int,
    seed: int,
    *,
    candidates: int = 8,
    explore: float = 0.1,
    progress: Callable[[int, int], None] | None = None,
) -> list[list[DiceGame[Any]]]:
    """The network's ``games`` games against itself at 0-ply, dice and exploration drawn
    from ``seed``: for each decision with a choice, its best ``candidates`` turns'
    positions, best first. Now and then (``explore``) the second best is played, so
    that the games see positions the network would not reach alone."""
    start = find_game(game).start()
    if not isinstance(start, DiceGame):
        raise TavlaError(f"{game} is not a dice game: it has no decisions to distil")
    if candidates < 2:
        raise TavlaError(f"a choice is between at least 2 candidates, not {candidates}")
    rng = random.Random(seed)
    found_all: list[list[DiceGame[Any]]] = []

    def rate(rows: Any) -> Any:
        return equity(network.evaluate(rows))

    for number in range(games):
        position: DiceGame[Any] = start.with_side(rng.randrange(2))
        for _ in range(MAX_TURNS):
            if position.is_chance:
                position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
            # A huge progressive double (chelebi, gulbara) is searched by the network's own
            # beam, as its player searches it: its best turns, not every one.
            found = afterstates(position, limit=TURN_LIST_LIMIT, score_rows=rate)
            order = np.argsort(-rate(found.features), kind="stable")
            if len(order) >= 2:
                found_all.append([found.after(int(index)) for index in order[:candidates]])
            second = len(order) > 1 and rng.random() < explore
            position = found.after(int(order[1] if second else order[0]))
            if position.outcome() is not None:
                break
        else:
            raise RuntimeError(f"a self-play game of {game} ran past {MAX_TURNS} turns")
        if progress is not None:
            progress(number + 1, games)
    return found_all


def label_decisions(
    game: str,
    decisions: list[list[DiceGame[Any]]],
    *,
    plies: int = 1,
    weights: Path | None = None,
    processes: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> Decisions:
    """Each candidate's ``plies``-deep estimate by the network (``weights`` or the
    shipped one), for the player who moved, computed in ``processes`` processes."""
    width = max((len(found) for found in decisions), default=2)
    flat = [after for found in decisions for after in found]
    rows = network_targets(game, flat, plies=plies, weights=weights, processes=processes, progress=progress)
    texts = np.full((len(decisions), width), "", dtype=object)
    estimates = np.zeros((len(decisions), width, 5), dtype=np.float32)
    at = 0
    for index, found in enumerate(decisions):
        texts[index, : len(found)] = [after.notation() for after in found]
        estimates[index, : len(found)] = rows[at : at + len(found)]
        at += len(found)
    return Decisions(texts.astype(str), estimates)


# ---------------------------------------------------------------------------- fit


@dataclass(frozen=True)
class DistilSettings:
    epochs: int = 10
    batch: int = 128
    """Decisions per step."""
    learning_rate: float = 1e-3
    temperature: float = 0.05
    """In equity: how sharply the lookahead's preference is asked for."""
    anchor: float = 1.0
    """Weight of the chances' cross-entropy beside the ranking's."""
    seed: int = 0
    validation: float = 0.05


@dataclass(frozen=True)
class DistilReport:
    epoch: int
    agreement: float
    """Share of held-out decisions where the network's 0-ply picks the lookahead's best."""
    equity_lost: float
    """Mean of the lookahead's equity given up by the network's 0-ply pick, held out."""


def _forward(net: Layers, rows: Array) -> tuple[Array, Array]:
    hidden = sigmoid(rows @ net.w1 + net.b1)
    return hidden, sigmoid(hidden @ net.w2 + net.b2) * net.mask


def _softmax(values: Array, valid: npt.NDArray[np.bool_]) -> Array:
    shifted = np.where(valid, values, -np.inf)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    weights = np.where(valid, np.exp(shifted), 0.0)
    result: Array = weights / weights.sum(axis=1, keepdims=True)
    return result


def distil_gradients(
    net: Layers,
    inputs: Array,
    targets: Array,
    valid: npt.NDArray[np.bool_],
    temperature: float,
    anchor: float,
) -> tuple[list[Array], float]:
    """The gradients of the loss over a batch of decisions (inputs ``(B, K, F)``,
    targets ``(B, K, 5)``, ``valid`` ``(B, K)``) with respect to w1, b1, w2, b2, and
    the loss: the ranking's cross-entropy per decision plus ``anchor`` times the
    chances' cross-entropy per candidate."""
    batch, width, size = inputs.shape
    rows = inputs.reshape(-1, size)
    hidden, out = _forward(net, rows)
    values = (out @ EQUITY_WEIGHTS).reshape(batch, width) / temperature
    wanted = _softmax((targets @ EQUITY_WEIGHTS) / temperature, valid)
    chosen = _softmax(values, valid)
    log_chosen = np.log(np.where(valid, chosen, 1.0))
    ranking = -float((wanted * log_chosen).sum() / batch)
    clipped = np.clip(out, 1e-7, 1 - 1e-7)
    flat_targets = targets.reshape(-1, 5)
    flat_valid = valid.reshape(-1, 1)
    count = max(int(valid.sum()), 1)
    terms = -(flat_targets * np.log(clipped) + (1 - flat_targets) * np.log(1 - clipped)) * net.mask
    chances = float((terms * flat_valid).sum() / count)
    d_values = ((chosen - wanted) / temperature / batch).reshape(-1, 1)
    d_logits = d_values * EQUITY_WEIGHTS[None, :] * out * (1 - out)
    d_logits = (d_logits + anchor * (out - flat_targets) * flat_valid / count) * net.mask
    d_hidden = (d_logits @ net.w2.T) * hidden * (1 - hidden)
    grads = [rows.T @ d_hidden, d_hidden.sum(axis=0), hidden.T @ d_logits, d_logits.sum(axis=0)]
    return grads, ranking + anchor * chances


def distil_report(
    net: Layers, inputs: Array, targets: Array, valid: npt.NDArray[np.bool_], epoch: int = 0
) -> DistilReport:
    """How the network's 0-ply picks compare with the lookahead's on these decisions."""
    if not len(inputs):
        return DistilReport(epoch, float("nan"), float("nan"))
    batch, width, size = inputs.shape
    _, out = _forward(net, inputs.reshape(-1, size))
    picked = np.where(valid, (out @ EQUITY_WEIGHTS).reshape(batch, width), -np.inf).argmax(axis=1)
    deep = np.where(valid, targets @ EQUITY_WEIGHTS, -np.inf)
    best = deep.argmax(axis=1)
    lost = deep[np.arange(batch), best] - deep[np.arange(batch), picked]
    return DistilReport(epoch, float((picked == best).mean()), float(lost.mean()))


def distil(
    net: Layers,
    inputs: Array,
    targets: Array,
    valid: npt.NDArray[np.bool_],
    settings: DistilSettings = DistilSettings(),
    on_epoch: Callable[[DistilReport], None] | None = None,
    on_batch: Callable[[int, int], None] | None = None,
) -> list[DistilReport]:
    """Train ``net`` in place on decisions; deterministic for ``settings.seed`` (the
    held-out decisions and the batches' order). The first report (epoch 0) is before
    any step."""
    rng = np.random.default_rng(settings.seed)
    order = rng.permutation(len(inputs))
    held = int(len(inputs) * settings.validation)
    test_rows, train_rows = order[:held], order[held:]
    work = SingleCopy.of(net)
    inputs = np.asarray(inputs, dtype=np.float32)
    targets = np.asarray(targets, dtype=np.float32)
    reports = [distil_report(work, inputs[test_rows], targets[test_rows], valid[test_rows])]
    if on_epoch is not None:
        on_epoch(reports[0])
    optimiser = Adam([work.w1, work.b1, work.w2, work.b2], settings.learning_rate)
    batches = -(-len(train_rows) // settings.batch)
    for epoch in range(1, settings.epochs + 1):
        rng.shuffle(train_rows)
        for index in range(batches):
            chosen = train_rows[index * settings.batch : (index + 1) * settings.batch]
            grads, _ = distil_gradients(
                work, inputs[chosen], targets[chosen], valid[chosen], settings.temperature, settings.anchor
            )
            optimiser.step(grads)
            if on_batch is not None:
                on_batch((epoch - 1) * batches + index + 1, settings.epochs * batches)
        work.store(net)
        report = distil_report(work, inputs[test_rows], targets[test_rows], valid[test_rows], epoch)
        reports.append(report)
        if on_epoch is not None:
            on_epoch(report)
    return reports
