"""A small neural evaluator of afterstates: one hidden layer, five sigmoid outputs.

``Network.evaluate(features)`` scores every row of an ``afterstates`` feature
array in one matrix product and returns the five chances of
:mod:`tavla.bots.outcomes` per row, seen by the player who just moved. Inference
needs numpy alone; the trainer (:mod:`tavla.training`) changes the arrays
in place.

A network may also take its game's board terms (:mod:`tavla.bots.terms`: the race,
shots, pins, primes) as extra inputs after the encoder's; ``metadata["terms"]``
names them, and :meth:`Network.prepare` appends them to the encoder's rows.

A network is saved as ``NAME.npz`` (the arrays) beside ``NAME.json`` (what made
it: game, encoder, layer sizes, training command, seed, games, date). The
weights shipped with the package live in ``tavla/bots/weights/<game>.npz``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from tavla.bots.encoding import encoder_for
from tavla.bots.encoding.base import Features
from tavla.bots.outcomes import OUTPUTS, Estimate, consistent, equity, flip, output_mask, ruled_out
from tavla.bots.terms import GAME_TERMS, TERM_SETS, Terms, term_set
from tavla.core.errors import TavlaError
from tavla.core.registry import find_game

Array = npt.NDArray[np.float64]
DEFAULT_HIDDEN = 80
"""TD-Gammon 0.0's hidden layer was 40, later versions 80: big enough to learn, cheap to train."""
INIT_SCALE = 0.1


def sigmoid(values: Array) -> Array:
    # Clipped so that exp never overflows on a wild early weight (the result is 0 or 1 anyway).
    result: Array = 1.0 / (1.0 + np.exp(-np.clip(values, -40.0, 40.0)))
    return result


@dataclass
class Network:
    """Weights of ``inputs -> hidden (sigmoid) -> 5 (sigmoid)`` and where they came from."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array
    mask: Array
    """1 for outputs the game can reach, 0 for impossible gammons (see ``output_mask``)."""
    metadata: dict[str, Any] = field(default_factory=dict)
    _terms: Terms | None = field(init=False, default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._terms = _terms_of(self.metadata)
        if self._terms is not None and int(self.metadata.get("inputs", 0)) != self.inputs:
            raise TavlaError(f"{self.inputs} weight rows for {self.metadata.get('inputs')} inputs")

    @classmethod
    def create(
        cls, game: str, *, hidden: int = DEFAULT_HIDDEN, seed: int = 0, terms: bool | str = False
    ) -> Network:
        """Fresh small random weights for ``game``'s encoder (and its board terms after it
        when ``terms``: True for the game's default set, or a set's label), from ``seed``."""
        encoder = encoder_for(find_game(game).position_class)
        rng = np.random.default_rng(seed)
        inputs = encoder.size
        metadata: dict[str, Any] = {
            "game": game,
            "encoder": type(encoder).__name__,
            "hidden": hidden,
            "outputs": OUTPUTS,
            "init_seed": seed,
        }
        if terms:
            if game not in GAME_TERMS:
                known = ", ".join(GAME_TERMS)
                raise TavlaError(f"{game} has no board terms for a network (games with them: {known})")
            chosen = GAME_TERMS[game] if terms is True else term_set(game, str(terms))
            if chosen is None:
                labels = ", ".join(t.label for t in TERM_SETS[game])
                raise TavlaError(f"{game} has no board terms called {terms!r} (it has: {labels})")
            metadata["terms"] = list(chosen.names)
            metadata["term_sizes"] = chosen.divisors().tolist()
            inputs += len(chosen.names)
        metadata["inputs"] = inputs
        return cls(
            w1=rng.uniform(-INIT_SCALE, INIT_SCALE, (inputs, hidden)),
            b1=np.zeros(hidden),
            w2=rng.uniform(-INIT_SCALE, INIT_SCALE, (hidden, OUTPUTS)),
            b2=np.zeros(OUTPUTS),
            mask=output_mask(game),
            metadata=metadata,
        )

    @property
    def game(self) -> str:
        return str(self.metadata.get("game", ""))

    @property
    def term_label(self) -> str | None:
        """The label of the board terms it takes beside the encoding (None: none)."""
        return None if self._terms is None else self._terms.label

    @property
    def inputs(self) -> int:
        return int(self.w1.shape[0])

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[1])

    def for_game(self, game: str) -> Network:
        """These weights as the start of a network for ``game``, a game played on the same
        board to the same results (tabla's for chelebi or antitabla): what they know of
        points, blots and races carries over, and training teaches the rest.

        Raises :class:`TavlaError` when the games' boards or results differ (the board
        terms, when the network takes some, are checked as for any weights loaded)."""
        if game == self.game:
            return self
        encoder = type(encoder_for(find_game(game).position_class)).__name__
        if encoder != self.metadata.get("encoder"):
            raise TavlaError(f"a network of {self.game} cannot start one of {game}: their boards differ")
        if not np.array_equal(output_mask(game), self.mask):
            raise TavlaError(f"a network of {self.game} cannot start one of {game}: their results differ")
        # What was measured of the weights in their own game says nothing of this one.
        measured = {"benchmark", "last_benchmark", "validation_equity_error"}
        metadata = {key: value for key, value in self.metadata.items() if key not in measured}
        metadata.update(game=game, init_game=self.game)
        arrays = {name: array.copy() for name, array in self.arrays().items()}
        return Network(**arrays, metadata=metadata)

    def widened(self, hidden: int, *, seed: int = 0) -> Network:
        """These weights with ``hidden`` hidden units, the new ones added with small random
        input weights from ``seed`` and no weight to the outputs: the network estimates
        exactly as before, and training then puts the new units to use (more room for a
        network whose training has stopped gaining at its size).

        Raises :class:`TavlaError` for fewer units than it has (that would change it)."""
        if hidden < self.hidden:
            raise TavlaError(f"a network of {self.hidden} hidden units cannot be narrowed to {hidden}")
        added = hidden - self.hidden
        rng = np.random.default_rng(seed)
        metadata = dict(self.metadata, hidden=hidden)
        if added:
            metadata["widened_from"] = self.hidden
        return Network(
            w1=np.hstack([self.w1, rng.uniform(-INIT_SCALE, INIT_SCALE, (self.inputs, added))]),
            b1=np.concatenate([self.b1, np.zeros(added)]),
            w2=np.vstack([self.w2, np.zeros((added, self.w2.shape[1]))]),
            b2=self.b2.copy(),
            mask=self.mask.copy(),
            metadata=metadata,
        )

    def with_terms(self, label: str) -> Network:
        """These weights taking the game's set of terms ``label`` (one that extends the set
        they take, as "chances" extends "board", or any set for weights that take none),
        the new inputs given no weight: the network estimates exactly as before, and
        training then learns what they tell.

        Raises :class:`TavlaError` for a set that does not start with the terms it takes."""
        current = list(self.metadata.get("terms") or [])
        chosen = term_set(self.game, label)
        if chosen is None or list(chosen.names[: len(current)]) != current:
            labels = [terms.label for terms in TERM_SETS.get(self.game, ())]
            raise TavlaError(
                f"these {self.game} weights take the terms {self.term_label!r}: the set {label!r} "
                f"does not extend them (the game's sets: {labels})"
            )
        added = len(chosen.names) - len(current)
        metadata = dict(self.metadata, terms=list(chosen.names), term_sizes=chosen.divisors().tolist())
        metadata["inputs"] = self.inputs + added
        if added:
            metadata["terms_extended_from"] = self.term_label
        return Network(
            w1=np.vstack([self.w1, np.zeros((added, self.hidden))]),
            b1=self.b1.copy(),
            w2=self.w2.copy(),
            b2=self.b2.copy(),
            mask=self.mask.copy(),
            metadata=metadata,
        )

    # ------------------------------------------------------------------ inference
    def prepare(self, features: npt.ArrayLike) -> Array:
        """The network's inputs for rows of encoder features: the rows, then the terms."""
        rows = np.asarray(features, dtype=np.float64)
        if self._terms is None:
            return rows
        flat = rows.reshape(-1, rows.shape[-1])
        extra = self._terms.inputs(cast(Features, flat)).reshape(*rows.shape[:-1], -1)
        return np.concatenate([rows, extra], axis=-1)

    def forward(self, features: npt.ArrayLike) -> tuple[Array, Estimate]:
        """Hidden activations and masked outputs for rows of encoder features."""
        return self.forward_prepared(self.prepare(features))

    def forward_prepared(self, inputs: Array) -> tuple[Array, Estimate]:
        """:meth:`forward` on rows already through :meth:`prepare` (the trainer's view)."""
        hidden = sigmoid(inputs @ self.w1 + self.b1)
        out: Estimate = sigmoid(hidden @ self.w2 + self.b2) * self.mask
        return hidden, out

    def evaluate(self, features: npt.ArrayLike) -> Estimate:
        """The five chances for each row (shape ``(n, 5)``), or for one row (shape ``(5,)``),
        made to nest (``outcomes.consistent``)."""
        rows = np.asarray(features)
        if rows.ndim == 1:
            one: Estimate = consistent(self.forward(rows[None, :])[1][0])
            return one
        return consistent(self.forward(rows)[1])

    def chances(self, position: Any, player: int) -> Estimate:
        """The five chances of ``player`` in ``position`` (typically one awaiting a roll).

        The network rates afterstates, seen by the player who just moved: here the
        side not to act. The estimate is read from his side and flipped for his
        opponent (the cube's question is asked by the side about to roll).
        """
        owner = 1 - position.side
        estimate = self.evaluate(encoder_for(position).encode(position, owner))
        mine = estimate if owner == player else flip(estimate)
        off = getattr(position, "off", None)
        return mine if off is None else ruled_out(mine, position.game, off, player)

    def equities(self, features: npt.ArrayLike) -> Array:
        """Cubeless equity of each row for the player who just moved."""
        return equity(self.evaluate(features))

    # ---------------------------------------------------------------- persistence
    def arrays(self) -> dict[str, Array]:
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2, "mask": self.mask}

    def save(self, path: Path | str) -> Path:
        """Write ``path`` (.npz) and its metadata beside it (.json); returns the .npz path."""
        target = Path(path).with_suffix(".npz")
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as handle:
            arrays: dict[str, Any] = self.arrays()
            np.savez(handle, **arrays)
        metadata_path(target).write_text(json.dumps(self.metadata, indent=2, sort_keys=True) + "\n")
        return target

    @classmethod
    def load(cls, path: Path | str) -> Network:
        """A network written by :meth:`save` (the .json beside it is optional)."""
        source = Path(path).with_suffix(".npz")
        info = metadata_path(source)
        metadata = json.loads(info.read_text()) if info.exists() else {}
        with source.open("rb") as handle:
            return cls._from_npz(handle, metadata)

    @classmethod
    def _from_npz(cls, handle: Any, metadata: dict[str, Any]) -> Network:
        with np.load(handle) as data:
            arrays = {
                name: np.array(data[name], dtype=np.float64) for name in ("w1", "b1", "w2", "b2", "mask")
            }
        return cls(**arrays, metadata=metadata)

    @classmethod
    def shipped(cls, game: str) -> Network:
        """The trained weights for ``game`` that ship inside the package."""
        network = cls._packaged(resources.files("tavla.bots") / "weights", game)
        if network is None:
            raise TavlaError(f"no trained weights ship for {game} (tavla train --game {game} makes some)")
        return network

    @classmethod
    def shipped_policy(cls, game: str) -> Network | None:
        """A second network shipped for ``game`` that chooses its 0-ply levels' turns
        better than :meth:`shipped` does (``tavla distill``), or None. It ranks one
        roll's turns; the shipped network stays the one that values positions."""
        return cls._packaged(resources.files("tavla.bots") / "weights" / POLICY_FOLDER, game)

    @classmethod
    def _packaged(cls, folder: Traversable, game: str) -> Network | None:
        weights = folder / f"{game}.npz"
        if not weights.is_file():
            return None
        info = folder / f"{game}.json"
        metadata = json.loads(info.read_text()) if info.is_file() else {}
        with weights.open("rb") as handle:
            return cls._from_npz(handle, metadata)


def _terms_of(metadata: dict[str, Any]) -> Terms | None:
    """The board terms a network was made with, checked against today's."""
    names = metadata.get("terms")
    if not names:
        return None
    game = str(metadata.get("game", ""))
    terms = next((known for known in TERM_SETS.get(game, ()) if list(known.names) == list(names)), None)
    if terms is None:
        raise TavlaError(f"these {game} weights were made with other board terms: {names}")
    sizes = metadata.get("term_sizes")
    if sizes is not None and not np.array_equal(np.asarray(sizes, dtype=np.float64), terms.divisors()):
        raise TavlaError(f"these {game} weights were made with the terms scaled otherwise: {sizes}")
    return terms


def metadata_path(weights: Path) -> Path:
    return weights.with_suffix(".json")


POLICY_FOLDER = "policy"
"""The folder beside the shipped weights that holds the games' policy networks."""


def shipped_games() -> list[str]:
    """Games whose trained weights ship in the package."""
    folder = resources.files("tavla.bots") / "weights"
    return sorted(entry.name[: -len(".npz")] for entry in folder.iterdir() if entry.name.endswith(".npz"))
