"""A training run: settings, the trainer, checkpoints, the strength log, resumption.

A run lives in one directory:

- ``checkpoint.npz``: the weights, the random state, the games played and the
  strength log so far, rewritten (atomically) every ``checkpoint_every`` games;
- ``strength.csv``: one row per strength benchmark (every ``bench_every`` games
  and at game 0): the network at 0-ply against a baseline on fixed seeds, each
  seed played twice with the colours swapped;
- ``<game>.npz`` / ``<game>.json``: the final weights and how they were made.

Resuming loads the checkpoint and plays on: the same seed gives the same games
and the same weights as a run that was never interrupted. An interruption
(Ctrl-C) between checkpoints keeps the state of the last finished game.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from tavla.bots.afterstates import BEAM_WIDTH
from tavla.bots.baselines import baseline_player
from tavla.bots.duel import duel
from tavla.bots.heuristics import HEURISTICS
from tavla.bots.network import DEFAULT_HIDDEN, Network
from tavla.bots.players import Player, ScoringPlayer
from tavla.core.errors import TavlaError
from tavla.rules.turns import TURN_LIST_LIMIT
from tavla.training.td import TDTrainer

CHECKPOINT = "checkpoint.npz"
LOG = "strength.csv"
BENCH_SEED = 1_000_000
"""The strength benchmark's seeds start here, apart from any training seed: every run,
and every checkpoint of a run, meets the same dice."""
LOG_FIELDS = ("games", "train_seconds", "opponent", "bench_games", "win_rate", "ppg", "ppg_ci95")


@dataclass(frozen=True)
class TrainingSettings:
    game: str
    games: int = 10_000
    """Self-play games to reach in all (a resumed run may raise it)."""
    hidden: int | None = None
    """Hidden units (None: ``DEFAULT_HIDDEN``, or as many as ``init``'s; more than
    ``init`` has widens it, see ``Network.widened``)."""
    alpha: float = 0.1
    lam: float = 0.7
    seed: int = 0
    checkpoint_every: int = 500
    bench_every: int = 1000
    bench_games: int = 200
    """Games per benchmark: ``bench_games / 2`` seeds, each with both colours."""
    opponent: str = "heuristic"
    limit: int = 200
    width: int = 16
    terms: bool = False
    """Whether the network also takes the game's board terms as inputs (``tavla.bots.terms``)."""
    chances: bool = False
    """With ``terms``: the set with the next roll's chances too (``term_set(game, "chances")``);
    weights from ``init`` that take fewer are given them with no weight (``Network.with_terms``)."""
    coached: float = 0.0
    """Share of the self-play games in which the heuristic baseline plays one side."""
    init: str | None = None
    """Weights the run starts from (a network fitted by ``tavla teach``, an earlier run's),
    instead of fresh ones drawn from ``seed``: their inputs replace ``terms``."""
    policy: str | None = None
    """Weights of the game that choose every self-play turn (``TDTrainer``'s policy), such
    as a policy network from ``tavla distill``; the run's network learns their turns' values."""


def opponent_player(name: str, game: str, *, limit: int = TURN_LIST_LIMIT, width: int = BEAM_WIDTH) -> Player:
    """The benchmark's opponent (a random one plays from a fixed seed, like the dice).

    ``limit`` and ``width`` bound the heuristic's huge progressive doubles as the
    network's are bound: a benchmark then takes minutes, not an hour, in gulbara.
    """
    if name == "heuristic":
        return ScoringPlayer("heuristic", HEURISTICS[game], limit=limit, width=width)
    if name not in ("random", "pubeval"):
        raise TavlaError(f"unknown benchmark opponent {name!r}: heuristic, random or pubeval")
    return baseline_player(name, game, seed=BENCH_SEED)


def _policy_of(settings: TrainingSettings, sha256: str | None = None) -> Network | None:
    """The run's policy network, loaded again on every resume: a resumed run needs its
    file, unchanged (``sha256``, the digest noted when the run began)."""
    if settings.policy is None:
        return None
    path = Path(settings.policy)
    if not path.exists():
        raise TavlaError(f"{path}: no such policy weights (the run's turns are chosen by them)")
    if sha256 is not None and file_digest(path) != sha256:
        raise TavlaError(f"{path} has changed since the run began: its turns were chosen by other weights")
    policy = Network.load(path)
    if policy.game != settings.game:
        raise TavlaError(f"{path} plays {policy.game}, not {settings.game}")
    return policy


def file_digest(path: Path | str) -> str:
    """The SHA-256 of a file, so that a network's lineage names the exact weights it used."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class TrainingRun:
    def __init__(
        self,
        directory: Path,
        settings: TrainingSettings,
        network: Network,
        rng: random.Random,
        *,
        games_played: int = 0,
        train_seconds: float = 0.0,
        log: list[dict[str, Any]] | None = None,
    ) -> None:
        self.directory = directory
        self.settings = settings
        self.network = network
        self.rng = rng
        self.games_played = games_played
        self.train_seconds = train_seconds
        self.log: list[dict[str, Any]] = log or []
        self.trainer = TDTrainer(
            network,
            alpha=settings.alpha,
            lam=settings.lam,
            rng=rng,
            limit=settings.limit,
            width=settings.width,
            coach=opponent_player("heuristic", settings.game, limit=settings.limit, width=settings.width)
            if settings.coached
            else None,
            coached=settings.coached,
            policy=_policy_of(settings, network.metadata.get("policy", {}).get("sha256")),
        )

    @classmethod
    def create(cls, directory: Path, settings: TrainingSettings) -> TrainingRun:
        opponent_player(settings.opponent, settings.game)  # refuse a wrong name before any work
        if settings.init is None:
            network = Network.create(
                settings.game,
                hidden=settings.hidden or DEFAULT_HIDDEN,
                seed=settings.seed,
                terms="chances" if settings.chances else settings.terms,
            )
            settings = dataclasses.replace(settings, hidden=network.hidden)
        else:
            # A network of a game on the same board may start another (tabla's, chelebi).
            source = settings.init
            network = Network.load(Path(source)).for_game(settings.game)
            if settings.hidden is not None:
                network = network.widened(settings.hidden, seed=settings.seed)
            if settings.chances and network.term_label != "chances":
                network = network.with_terms("chances")
            label = network.term_label
            settings = dataclasses.replace(
                settings, hidden=network.hidden, terms=label is not None, chances=label == "chances"
            )
            # The games behind the weights: this run's own are counted from 0.
            network.metadata["init_games"] = int(network.metadata.get("games", 0))
            # Its commands come first in the lineage; "command" will name this run's own.
            network.metadata["init_commands"] = len(network.metadata.get("commands", ()))
            # The file this run started from; its source's own "init_weights" names an older one.
            network.metadata["init_weights"] = {"path": source, "sha256": file_digest(source)}
        if settings.policy is not None:
            _policy_of(settings)  # refuse a missing file or another game's before any work
            network.metadata["policy"] = {"path": settings.policy, "sha256": file_digest(settings.policy)}
        return cls(directory, settings, network, random.Random(settings.seed))

    @classmethod
    def resume(
        cls,
        directory: Path,
        *,
        games: int | None = None,
        coached: float | None = None,
        alpha: float | None = None,
    ) -> TrainingRun:
        """The run saved in ``directory``, to go on until ``games`` (default: as it was set),
        with the ``coached`` share and learning rate ``alpha`` from now on if given."""
        path = directory / CHECKPOINT
        if not path.exists():
            raise TavlaError(f"no checkpoint to resume in {directory}")
        with np.load(path) as data:
            state = json.loads(str(data["state"]))
            arrays = {name: np.array(data[name]) for name in ("w1", "b1", "w2", "b2", "mask")}
        settings = TrainingSettings(**state["settings"])
        if games is not None:
            settings = dataclasses.replace(settings, games=games)
        if coached is not None:
            settings = dataclasses.replace(settings, coached=coached)
        if alpha is not None:
            settings = dataclasses.replace(settings, alpha=alpha)
        rng = random.Random()
        version, internal, gauss = state["rng"]
        rng.setstate((version, tuple(internal), gauss))
        network = Network(**arrays, metadata=state["metadata"])
        return cls(
            directory,
            settings,
            network,
            rng,
            games_played=state["games_played"],
            train_seconds=state["train_seconds"],
            log=state["log"],
        )

    # ------------------------------------------------------------------- running
    def run(
        self,
        *,
        on_game: Callable[[TrainingRun], None] | None = None,
        on_bench: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        """Train until ``settings.games``, benchmarking and checkpointing on the way."""
        settings = self.settings
        if settings.bench_every and not self.log:
            self._bench(on_bench)
        while self.games_played < settings.games:
            snapshot = {name: array.copy() for name, array in self.network.arrays().items()}
            rng_state = self.rng.getstate()
            begin = time.process_time()
            try:
                self.trainer.play_game()
            except KeyboardInterrupt:
                # Back to the end of the last whole game, which a resume replays exactly.
                for name, array in snapshot.items():
                    getattr(self.network, name)[...] = array
                self.rng.setstate(rng_state)
                self.checkpoint()
                raise
            self.train_seconds += time.process_time() - begin
            self.games_played += 1
            if settings.bench_every and self.games_played % settings.bench_every == 0:
                self._bench(on_bench)
            if self.games_played % settings.checkpoint_every == 0 or self.games_played == settings.games:
                self.checkpoint()
            if on_game is not None:
                on_game(self)

    def benchmark(self, games: int | None = None) -> dict[str, Any]:
        """The network at 0-ply against the settings' opponent, on the fixed seeds."""
        settings = self.settings
        count = settings.bench_games if games is None else games
        player = ScoringPlayer("network", self.network.equities, limit=settings.limit, width=settings.width)
        result = duel(
            settings.game,
            player,
            opponent_player(settings.opponent, settings.game, limit=settings.limit, width=settings.width),
            range(BENCH_SEED, BENCH_SEED + max(1, count // 2)),
        )
        return {
            "games": self.games_played,
            "train_seconds": round(self.train_seconds, 2),
            "opponent": settings.opponent,
            "bench_games": result.games,
            "win_rate": round(result.win_rate, 4),
            "ppg": round(result.ppg, 4),
            "ppg_ci95": round(result.ppg_ci95, 4),
        }

    def _bench(self, on_bench: Callable[[dict[str, Any]], None] | None) -> None:
        row = self.benchmark()
        self.log.append(row)
        self.write_log()
        if on_bench is not None:
            on_bench(row)

    # --------------------------------------------------------------- persistence
    def checkpoint(self) -> Path:
        """Write the whole state to ``checkpoint.npz`` (replaced atomically)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        version, internal, gauss = self.rng.getstate()
        state = {
            "settings": dataclasses.asdict(self.settings),
            "games_played": self.games_played,
            "train_seconds": self.train_seconds,
            "rng": [version, list(internal), gauss],
            "metadata": self.network.metadata,
            "log": self.log,
        }
        path = self.directory / CHECKPOINT
        partial = path.with_name(CHECKPOINT + ".partial")
        arrays: dict[str, Any] = {"state": np.array(json.dumps(state)), **self.network.arrays()}
        with partial.open("wb") as handle:
            np.savez(handle, **arrays)
        os.replace(partial, path)
        return path

    def write_log(self) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / LOG
        with path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=LOG_FIELDS)
            writer.writeheader()
            writer.writerows(self.log)
        return path

    def note_command(self, command: str) -> None:
        """Record the command of this session (a resumed run has several)."""
        commands = self.network.metadata.setdefault("commands", [])
        commands.append(command)

    def save_weights(self, path: Path | None = None) -> Path:
        """The final weights with how they were made (the shipped weights' metadata)."""
        settings = self.settings
        commands = self.network.metadata.get("commands", [])
        own = commands[int(self.network.metadata.get("init_commands", 0)) :] or [""]
        self.network.metadata.update(
            {
                "command": own[0],
                "seed": settings.seed,
                "games": self.games_played,
                "alpha": settings.alpha,
                "lambda": settings.lam,
                "train_seconds": round(self.train_seconds, 1),
                "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                "last_benchmark": self.log[-1] if self.log else None,
            }
        )
        return self.network.save(path or self.directory / f"{settings.game}.npz")

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.train_seconds if self.train_seconds else 0.0
