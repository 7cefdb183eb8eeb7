"""Self-play TD(lambda): the traces' arithmetic, determinism, resumption, and that it learns."""

from __future__ import annotations

import dataclasses
import random
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tavla.bots import outcomes
from tavla.bots.afterstates import afterstates
from tavla.bots.baselines import baseline_player
from tavla.bots.duel import duel
from tavla.bots.network import Network
from tavla.bots.outcomes import FLIP
from tavla.bots.players import RandomPlayer, network_player
from tavla.core.errors import TavlaError
from tavla.core.protocol import Outcome
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn
from tavla.training import run as td_run
from tavla.training import td
from tavla.training.run import CHECKPOINT, LOG, TrainingRun, TrainingSettings
from tavla.training.td import LastGradient, TDTrainer, Traces


class TextbookTraces:
    """The traces as written in the books: every weight decayed and flipped at every turn."""

    def __init__(self, network: Network) -> None:
        self.w1 = np.zeros((5, *network.w1.shape))
        self.b1 = np.zeros((5, network.hidden))
        self.w2 = np.zeros_like(network.w2)
        self.b2 = np.zeros(5)

    def flip(self) -> None:
        for name in ("w1", "b1", "b2"):
            flipped = getattr(self, name)[FLIP]
            flipped[0] *= -1
            setattr(self, name, flipped)
        self.w2 = self.w2[:, FLIP]
        self.w2[:, 0] *= -1

    def decay_and_add(
        self, lam: float, network: Network, x: np.ndarray, hidden: np.ndarray, out: np.ndarray
    ) -> None:
        slope = out * (1 - out) * network.mask
        through = network.w2 * slope * (hidden * (1 - hidden))[:, None]
        self.w1 = lam * self.w1 + np.einsum("i,jk->kij", x, through)
        self.b1 = lam * self.b1 + through.T
        self.w2 = lam * self.w2 + np.outer(hidden, slope)
        self.b2 = lam * self.b2 + slope

    def apply(self, network: Network, alpha: float, delta: np.ndarray) -> None:
        network.w1 += np.einsum("k,kij->ij", alpha * delta, self.w1)
        network.b1 += (alpha * delta) @ self.b1
        network.w2 += self.w2 * (alpha * delta)[None, :]
        network.b2 += self.b2 * alpha * delta


@pytest.mark.parametrize(
    ("kind", "lam"), [(Traces, 0.0), (Traces, 0.7), (LastGradient, 0.0)], ids=["lazy-0", "lazy-0.7", "last-0"]
)
def test_lazy_traces_equal_the_textbook_ones(kind: Any, lam: float) -> None:
    rng = np.random.default_rng(0)
    lazy_net, book_net = (
        Network.create("tabla", hidden=10, seed=1),
        Network.create("tabla", hidden=10, seed=1),
    )
    lazy, book = kind(lazy_net), TextbookTraces(book_net)
    for _ in range(200):
        x = (rng.random(198) < 0.2) * rng.random(198)
        for network, traces in ((lazy_net, lazy), (book_net, book)):
            hidden, out = network.forward(x[None, :])
            traces.decay_and_add(lam, network, x, hidden[0], out[0])
        delta = rng.normal(size=5) * 0.1
        lazy.apply(lazy_net, 0.1, delta)
        book.apply(book_net, 0.1, delta)
        if rng.random() < 0.5:
            lazy.flip()
            book.flip()
    for name, array in book_net.arrays().items():
        assert getattr(lazy_net, name) == pytest.approx(array, abs=1e-12)


@pytest.mark.parametrize("game", ["tapa", "gulbara"])
def test_td0_learns_as_the_full_traces_would(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole games at lambda 0, owners changing turn about (and, in gulbara, not always):
    the last gradient alone moves the weights as the five outputs' traces did."""

    def two_games() -> Network:
        network = Network.create(game, hidden=12, seed=3, terms=True)
        trainer = TDTrainer(network, rng=random.Random(8), lam=0.0, alpha=0.05)
        for _ in range(2):
            trainer.play_game()
        return network

    fast = two_games()
    monkeypatch.setattr(td, "LastGradient", Traces)
    full = two_games()
    for name, array in full.arrays().items():
        assert getattr(fast, name) == pytest.approx(array, abs=1e-9)
    assert not same_weights(fast, Network.create(game, hidden=12, seed=3, terms=True))


def trained(game: str, games: int, seed: int, hidden: int = 16) -> Network:
    network = Network.create(game, hidden=hidden, seed=seed)
    trainer = TDTrainer(network, rng=random.Random(seed))
    for _ in range(games):
        trainer.play_game()
    return network


def same_weights(first: Network, second: Network) -> bool:
    return all(
        np.array_equal(a, b) for a, b in zip(first.arrays().values(), second.arrays().values(), strict=True)
    )


@pytest.mark.parametrize("game", ["tabla", "tapa", "gulbara", "indiyka"])
def test_training_is_deterministic_under_a_seed(game: str) -> None:
    first, second = trained(game, 2, seed=4), trained(game, 2, seed=4)
    assert same_weights(first, second)
    assert not same_weights(first, Network.create(game, hidden=16, seed=4))
    assert not same_weights(first, trained(game, 2, seed=5))


SETTINGS = TrainingSettings(
    game="tabla", games=6, hidden=8, seed=3, checkpoint_every=2, bench_every=3, bench_games=2
)


def test_resumed_run_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    whole = TrainingRun.create(tmp_path / "whole", SETTINGS)
    whole.run()
    half = TrainingRun.create(tmp_path / "half", dataclasses.replace(SETTINGS, games=4))
    half.run()
    resumed = TrainingRun.resume(tmp_path / "half", games=6)
    assert resumed.games_played == 4
    resumed.run()
    assert same_weights(whole.network, resumed.network)
    # The same benchmarks at 0, 3 and 6 games (only the CPU time taken differs).
    assert untimed(resumed.log) == untimed(whole.log)
    assert [row["games"] for row in whole.log] == [0, 3, 6]
    assert len((tmp_path / "half" / LOG).read_text().splitlines()) == 4


def untimed(log: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{key: value for key, value in row.items() if key != "train_seconds"} for row in log]


def test_an_interruption_mid_game_resumes_from_the_last_whole_game(tmp_path: Path) -> None:
    whole = TrainingRun.create(tmp_path / "whole", SETTINGS)
    whole.run()
    run = TrainingRun.create(tmp_path / "cut", SETTINGS)
    play = run.trainer.play_game
    calls = 0

    def interrupted() -> Outcome | None:
        nonlocal calls
        calls += 1
        if calls == 4:  # part of a game: weights changed, then Ctrl-C
            run.network.w1 += 1.0
            raise KeyboardInterrupt
        return play()

    run.trainer.play_game = interrupted  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        run.run()
    resumed = TrainingRun.resume(tmp_path / "cut")
    assert resumed.games_played == 3  # the checkpoint written on interruption
    resumed.run()
    assert same_weights(whole.network, resumed.network)


def test_copied_checkpoint_resumes_elsewhere(tmp_path: Path) -> None:
    run = TrainingRun.create(tmp_path / "a", dataclasses.replace(SETTINGS, bench_every=0))
    run.run()
    (tmp_path / "b").mkdir()
    shutil.copy(tmp_path / "a" / CHECKPOINT, tmp_path / "b" / CHECKPOINT)
    resumed = TrainingRun.resume(tmp_path / "b", games=8)
    assert resumed.settings.games == 8 and resumed.games_played == 6
    assert same_weights(resumed.network, run.network)


def test_a_short_run_learns_to_beat_random_play() -> None:
    """60 self-play games (about a second) already beat the untrained weights clearly."""
    seeds = range(30)
    before = duel("tabla", network_player(Network.create("tabla", hidden=20, seed=1)), RandomPlayer(5), seeds)
    after = duel("tabla", network_player(trained("tabla", 60, seed=1, hidden=20)), RandomPlayer(5), seeds)
    assert after.win_rate >= 0.65
    assert after.ppg > before.ppg + 0.3


def test_a_game_too_long_is_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(td, "MAX_TURNS", 3)
    network = Network.create("antitabla", hidden=8, seed=1)
    before = network.w1.copy()
    assert TDTrainer(network, rng=random.Random(1)).play_game() is None
    assert not np.array_equal(before, network.w1)  # the turns played still taught something


class CountingCoach:
    """A baseline that counts the turns it is asked to play."""

    def __init__(self, game: str) -> None:
        self.player = baseline_player("heuristic", game)
        self.name = "counting " + self.player.name  # a Player has a name
        self.turns = 0

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        self.turns += 1
        return self.player.choose(position)


def test_a_coached_game_learns_from_the_networks_turns_only(monkeypatch: pytest.MonkeyPatch) -> None:
    network = Network.create("antitabla", hidden=8, seed=1, terms=True)
    coach = CountingCoach("antitabla")
    learnt = 0
    original = Traces.decay_and_add

    def counting(self: Traces, *args: Any) -> None:
        nonlocal learnt
        learnt += 1
        original(self, *args)

    monkeypatch.setattr(Traces, "decay_and_add", counting)
    before = network.w1.copy()
    outcome = TDTrainer(network, rng=random.Random(2), coach=coach, coached=1.0).play_game()
    assert outcome is not None  # the heuristic plays its side to an end
    # One side each, turn about: the network learnt after each of its turns, no others.
    assert coach.turns > 10 and abs(coach.turns - learnt) <= 1
    assert not np.array_equal(before, network.w1)


def test_no_coach_turns_without_a_share() -> None:
    coach = CountingCoach("tabla")
    trainer = TDTrainer(Network.create("tabla", hidden=8, seed=1), rng=random.Random(2), coach=coach)
    trainer.play_game()
    assert coach.turns == 0


def test_a_resumed_run_may_change_its_coached_share_and_learning_rate(tmp_path: Path) -> None:
    run = TrainingRun.create(tmp_path / "r", dataclasses.replace(SETTINGS, games=2, bench_every=0))
    run.run()
    assert run.trainer.coach is None
    resumed = TrainingRun.resume(tmp_path / "r", games=3, coached=1.0, alpha=0.02)
    assert resumed.settings.coached == 1.0 and resumed.trainer.coach is not None
    assert resumed.trainer.coached == 1.0  # every game from now on has the coach on one side
    assert resumed.trainer.alpha == 0.02
    resumed.run()
    again = TrainingRun.resume(tmp_path / "r")
    assert again.settings.coached == 1.0 and again.games_played == 3  # the changes are saved
    assert again.settings.alpha == 0.02


@pytest.mark.parametrize("policy_terms", [False, True], ids=["same-inputs", "other-inputs"])
def test_a_policy_chooses_every_turn_and_the_network_learns_its_own_values_of_them(
    monkeypatch: pytest.MonkeyPatch, policy_terms: bool
) -> None:
    network = Network.create("tabla", hidden=8, seed=1)
    policy = Network.create("tabla", hidden=8, seed=2, terms=policy_terms)
    decisions: list[tuple[int, np.ndarray, int]] = []  # (mover, rows, turn played)
    deltas: list[np.ndarray] = []
    listing = afterstates  # what td calls, until replaced below

    def recording(position: Any, **options: Any) -> Any:
        found = listing(position, **options)
        play = found.after

        def after(index: int) -> Any:
            decisions.append((found.player, found.features, index))
            return play(index)

        found.after = after  # type: ignore[method-assign]  # a stand-in that records, on purpose
        return found

    monkeypatch.setattr(td, "afterstates", recording)
    monkeypatch.setattr(LastGradient, "apply", lambda self, net, alpha, delta: deltas.append(delta.copy()))
    # The traces are not applied: the network stays as it was, so every delta can be recomputed.
    outcome = TDTrainer(network, rng=random.Random(5), lam=0.0, policy=policy).play_game()
    assert outcome is not None and len(decisions) > 20
    for _, rows, index in decisions:
        assert index == int(np.argmax(policy.equities(rows)))
    assert any(index != int(np.argmax(network.equities(rows))) for _, rows, index in decisions)
    values = [network.forward(rows[index : index + 1])[1][0] for _, rows, index in decisions]
    owners = [mover for mover, _, _ in decisions]
    expected = [
        (values[k] if owners[k] == owners[k - 1] else outcomes.flip(values[k])) - values[k - 1]
        for k in range(1, len(values))
    ]
    expected.append(outcomes.outcome_estimate(outcome, owners[-1]) * network.mask - values[-1])
    assert len(deltas) == len(expected)
    for got, want in zip(deltas, expected, strict=True):
        np.testing.assert_allclose(got, want, atol=1e-12)


def test_a_run_with_a_policy_names_it_keeps_it_on_resume_and_refuses_other_weights(tmp_path: Path) -> None:
    policy_path = Network.create("tabla", hidden=8, seed=9).save(tmp_path / "policy.npz")
    settings = dataclasses.replace(SETTINGS, bench_every=0, policy=str(policy_path))
    whole = TrainingRun.create(tmp_path / "whole", settings)
    assert whole.trainer.policy is not None
    whole.run()
    assert whole.network.metadata["policy"]["sha256"] == td_run.file_digest(policy_path)
    half = TrainingRun.create(tmp_path / "half", dataclasses.replace(settings, games=4))
    half.run()
    resumed = TrainingRun.resume(tmp_path / "half", games=6)
    resumed.run()
    assert same_weights(whole.network, resumed.network)
    greedy = TrainingRun.create(tmp_path / "greedy", dataclasses.replace(settings, policy=None))
    greedy.run()
    assert not same_weights(greedy.network, whole.network)
    # A policy file changed under a run, missing, or of another game: a clear error.
    Network.create("tabla", hidden=8, seed=10).save(policy_path)
    with pytest.raises(TavlaError, match="changed"):
        TrainingRun.resume(tmp_path / "half", games=8)
    with pytest.raises(TavlaError, match="no such policy"):
        TrainingRun.create(tmp_path / "c", dataclasses.replace(settings, policy=str(tmp_path / "none.npz")))
    other = Network.create("tapa", hidden=8, seed=9).save(tmp_path / "tapa-policy.npz")
    with pytest.raises(TavlaError, match="plays tapa, not tabla"):
        TrainingRun.create(tmp_path / "d", dataclasses.replace(settings, policy=str(other)))
    assert not (tmp_path / "c").exists() and not (tmp_path / "d").exists()


def test_every_benchmark_is_reported_logged_and_the_last_kept_with_the_weights(tmp_path: Path) -> None:
    """docs/bots.md, "Training": a fixed benchmark at game 0 and every K games, each
    reported as it comes, logged, and the last written into the weights' metadata."""
    run = TrainingRun.create(tmp_path / "r", SETTINGS)
    reported: list[dict[str, Any]] = []
    run.run(on_bench=reported.append)
    assert [row["games"] for row in reported] == [0, 3, 6] and reported == run.log
    assert all(row["bench_games"] == 2 and 0 <= row["win_rate"] <= 1 for row in reported)
    saved = Network.load(run.save_weights())
    assert saved.metadata["last_benchmark"] == reported[-1]
    assert saved.metadata["games"] == 6 and saved.metadata["seed"] == SETTINGS.seed
