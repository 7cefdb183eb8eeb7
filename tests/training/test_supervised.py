"""Supervised fitting of an evaluator (tavla.training.supervised)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from tavla.training.supervised import Adam, FitSettings, _gradients, cross_entropy, fit, predict


@dataclass
class Net:
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    mask: np.ndarray


def fresh(inputs: int = 6, hidden: int = 8, seed: int = 0) -> Net:
    rng = np.random.default_rng(seed)
    return Net(
        rng.uniform(-0.1, 0.1, (inputs, hidden)),
        np.zeros(hidden),
        rng.uniform(-0.1, 0.1, (hidden, 5)),
        np.zeros(5),
        np.array([1.0, 1.0, 1.0, 1.0, 0.0]),
    )


def task(rows: int = 2000, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Targets that are a smooth function of the features, the last output masked."""
    rng = np.random.default_rng(seed)
    features = rng.uniform(0, 1, (rows, 6))
    win = 1 / (1 + np.exp(-(3 * features[:, 0] - 2 * features[:, 1])))
    targets = np.stack(
        [win, win * features[:, 2], win * features[:, 2] / 3, (1 - win) / 2, np.zeros(rows)], 1
    )
    return features, targets


def test_fitting_learns_a_smooth_target_and_the_loss_falls() -> None:
    features, targets = task()
    net = fresh()
    before = cross_entropy(predict(net, features), targets, net.mask)
    reports = fit(net, features, targets, FitSettings(epochs=30, batch=64, learning_rate=0.01))
    after = cross_entropy(predict(net, features), targets, net.mask)
    assert after < before - 0.3
    assert reports[-1].validation_equity_error < 0.05
    assert reports[-1].train_loss < reports[0].train_loss
    assert np.all(predict(net, features)[:, 4] == 0)  # a masked output stays 0


def test_the_same_seed_gives_the_same_weights() -> None:
    features, targets = task(400)
    nets = [fresh(), fresh()]
    for net in nets:
        fit(net, features, targets, FitSettings(epochs=3, seed=7))
    assert np.array_equal(nets[0].w1, nets[1].w1) and np.array_equal(nets[0].w2, nets[1].w2)
    other = fresh()
    fit(other, features, targets, FitSettings(epochs=3, seed=8))
    assert not np.array_equal(other.w1, nets[0].w1)


def test_gradients_match_finite_differences() -> None:
    """The analytic gradient of the loss is the numeric one (backpropagation bugs)."""
    features, targets = task(50)
    net = fresh(seed=3)
    grads, _ = _gradients(net, features, targets)
    for array, grad in ((net.w1, grads[0]), (net.b1, grads[1]), (net.w2, grads[2]), (net.b2, grads[3])):
        flat = array.reshape(-1)
        for index in (0, flat.size // 2, flat.size - 1):
            keep = flat[index]
            flat[index] = keep + 1e-6
            up = cross_entropy(predict(net, features), targets, net.mask)
            flat[index] = keep - 1e-6
            down = cross_entropy(predict(net, features), targets, net.mask)
            flat[index] = keep
            assert grad.reshape(-1)[index] == pytest.approx((up - down) / 2e-6, rel=1e-3, abs=1e-7)


def test_adam_moves_toward_a_minimum() -> None:
    point = np.array([3.0, -2.0])
    adam = Adam([point], learning_rate=0.1)
    for _ in range(500):
        adam.step([2 * point])
    assert np.allclose(point, 0, atol=1e-2)


def test_mismatched_rows_are_refused() -> None:
    with pytest.raises(ValueError, match="3 feature rows for 2 targets"):
        fit(fresh(), np.zeros((3, 6)), np.zeros((2, 5)))


def test_the_learning_rate_falls_by_the_decay_each_epoch() -> None:
    features, targets = task(200)
    steady, falling = fresh(), fresh()
    fit(steady, features, targets, FitSettings(epochs=1, seed=2))
    fit(falling, features, targets, FitSettings(epochs=1, seed=2, decay=0.1))
    assert np.array_equal(steady.w1, falling.w1)  # the first epoch runs at the full rate
    fit(steady, features, targets, FitSettings(epochs=2, seed=2))
    fit(falling, features, targets, FitSettings(epochs=2, seed=2, decay=0.1))
    assert not np.array_equal(steady.w1, falling.w1)


def test_an_epoch_reports_the_mean_loss_of_its_training_rows() -> None:
    """With a rate of 0 nothing moves, so the epoch's training loss is the network's
    cross-entropy over the training rows (here all of them), each row once, whatever the
    batches (203 rows: the last batch short)."""
    features, targets = task(203)
    net = fresh()
    settings = FitSettings(epochs=2, batch=16, learning_rate=0.0, validation=0.0, seed=3)
    expected = cross_entropy(predict(net, features), targets, net.mask)
    reports = fit(net, features, targets, settings)
    assert [report.train_loss for report in reports] == pytest.approx([expected, expected], rel=1e-5)
