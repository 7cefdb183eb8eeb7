"""Supervised training of an evaluator on positions with known chances.

The targets are five chances per position (the estimate convention of
:mod:`tavla.bots.outcomes`): a teacher's estimates (GNU Backgammon for tabla) or
rollout results. The network is trained in numpy with the Adam optimiser on the
cross-entropy of each output, which suits chances better than squared error: its
gradient at the output logits is simply ``prediction - target``.

Works on any network with one sigmoid hidden layer and five sigmoid outputs
(``w1``, ``b1``, ``w2``, ``b2`` and an output ``mask``), updated in place. The
steps run in single precision on copies of the weights (twice as fast, half the
memory for millions of rows), written back into the network after every epoch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.floating[Any]]


class Layers(Protocol):
    """The arrays are changed in place, never replaced: read-only members suffice."""

    @property
    def w1(self) -> Array: ...
    @property
    def b1(self) -> Array: ...
    @property
    def w2(self) -> Array: ...
    @property
    def b2(self) -> Array: ...
    @property
    def mask(self) -> Array: ...


@dataclass
class SingleCopy:
    """Single-precision copies of a network's arrays, the ones the optimiser steps."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array
    mask: Array

    @classmethod
    def of(cls, net: Layers) -> SingleCopy:
        return cls(*(np.array(a, dtype=np.float32) for a in (net.w1, net.b1, net.w2, net.b2, net.mask)))

    def store(self, net: Layers) -> None:
        for mine, theirs in ((self.w1, net.w1), (self.b1, net.b1), (self.w2, net.w2), (self.b2, net.b2)):
            theirs[...] = mine


@dataclass(frozen=True)
class FitSettings:
    epochs: int = 10
    batch: int = 128
    learning_rate: float = 1e-3
    decay: float = 1.0
    """The learning rate is multiplied by this after each epoch: a falling rate lets the
    last epochs settle instead of wandering around the minimum."""
    seed: int = 1
    validation: float = 0.05
    """Share of the positions held out to report the error on unseen positions."""


@dataclass(frozen=True)
class EpochReport:
    epoch: int
    train_loss: float
    validation_loss: float
    validation_equity_error: float
    """Mean absolute difference of cubeless equity from the targets', held-out rows."""


EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])
"""Cubeless equity is these times the five chances, less one."""


def sigmoid(values: Array) -> Array:
    result: Array = 1.0 / (1.0 + np.exp(-np.clip(values, -40.0, 40.0)))
    return result


def predict(net: Layers, features: Array) -> Array:
    hidden = sigmoid(features @ net.w1 + net.b1)
    out: Array = sigmoid(hidden @ net.w2 + net.b2) * net.mask
    return out


def cross_entropy(predicted: Array, targets: Array, mask: Array) -> float:
    clipped = np.clip(predicted, 1e-7, 1 - 1e-7)
    terms = -(targets * np.log(clipped) + (1 - targets) * np.log(1 - clipped)) * mask
    return float(terms.sum(axis=1).mean())


class Adam:
    """The Adam optimiser over a list of arrays, updated in place."""

    def __init__(self, params: list[Array], learning_rate: float) -> None:
        self.params = params
        self.rate = learning_rate
        self.first = [np.zeros_like(p) for p in params]
        self.second = [np.zeros_like(p) for p in params]
        self.steps = 0

    def step(self, grads: list[Array], beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
        self.steps += 1
        correction1 = 1 - beta1**self.steps
        correction2 = 1 - beta2**self.steps
        for param, grad, first, second in zip(self.params, grads, self.first, self.second, strict=True):
            first *= beta1
            first += (1 - beta1) * grad
            second *= beta2
            second += (1 - beta2) * grad * grad
            param -= self.rate * (first / correction1) / (np.sqrt(second / correction2) + eps)


def _gradients(net: Layers, features: Array, targets: Array) -> tuple[list[Array], float]:
    hidden = sigmoid(features @ net.w1 + net.b1)
    out = sigmoid(hidden @ net.w2 + net.b2)
    loss = cross_entropy(out * net.mask, targets, net.mask)
    rows = len(features)
    d_logits = (out - targets) * net.mask / rows
    d_hidden = (d_logits @ net.w2.T) * hidden * (1 - hidden)
    grads = [features.T @ d_hidden, d_hidden.sum(axis=0), hidden.T @ d_logits, d_logits.sum(axis=0)]
    return grads, loss


def fit(
    net: Layers,
    features: Array,
    targets: Array,
    settings: FitSettings = FitSettings(),
    on_epoch: Callable[[EpochReport], None] | None = None,
    on_batch: Callable[[int, int], None] | None = None,
) -> list[EpochReport]:
    """Train ``net`` in place on rows of features and their five target chances.

    Deterministic for a given ``settings.seed``: the held-out rows and the order of
    the batches come from it. ``on_batch(done, total)`` reports progress.
    """
    if len(features) != len(targets):
        raise ValueError(f"{len(features)} feature rows for {len(targets)} targets")
    rng = np.random.default_rng(settings.seed)
    order = rng.permutation(len(features))
    held = int(len(features) * settings.validation)
    test_rows, train_rows = order[:held], order[held:]
    work = SingleCopy.of(net)
    features = np.asarray(features, dtype=np.float32)
    targets = np.asarray(targets, dtype=np.float32)
    optimiser = Adam([work.w1, work.b1, work.w2, work.b2], settings.learning_rate)
    batches = -(-len(train_rows) // settings.batch)
    reports: list[EpochReport] = []
    for epoch in range(1, settings.epochs + 1):
        rng.shuffle(train_rows)
        losses = []
        for index in range(batches):
            chosen = train_rows[index * settings.batch : (index + 1) * settings.batch]
            grads, loss = _gradients(work, features[chosen], targets[chosen])
            optimiser.step(grads)
            losses.append(loss * len(chosen))
            if on_batch is not None:
                on_batch((epoch - 1) * batches + index + 1, settings.epochs * batches)
        work.store(net)
        report = _report(net, features[test_rows], targets[test_rows], epoch, sum(losses) / len(train_rows))
        reports.append(report)
        if on_epoch is not None:
            on_epoch(report)
        optimiser.rate *= settings.decay
    return reports


def _report(net: Layers, features: Array, targets: Array, epoch: int, train_loss: float) -> EpochReport:
    if not len(features):
        return EpochReport(epoch, train_loss, float("nan"), float("nan"))
    predicted = predict(net, features)
    equity_error = float(np.abs((predicted - targets) @ EQUITY_WEIGHTS).mean())
    return EpochReport(epoch, train_loss, cross_entropy(predicted, targets, net.mask), equity_error)
