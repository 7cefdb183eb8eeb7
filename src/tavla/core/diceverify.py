"""Checking one game's recorded rolls against its fair-dice seeds (docs/fair-dice.md).

The check draws the dice again the way the game drew them, with the same functions
(:func:`~tavla.core.opening.roll_opening` for the opening roll, equal dice rolled
again and not recorded; :func:`~tavla.core.dice.roll` for every other roll), so the
numbering of the dice cannot drift from the live game's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tavla.core.dice import roll
from tavla.core.digits import parse_roll_text
from tavla.core.errors import NotationError
from tavla.core.fairdice import FairDice, is_hex_digest
from tavla.core.fairdice import commitment as commitment_of
from tavla.core.gamedice import GameDice
from tavla.core.opening import roll_opening
from tavla.core.words import Word


class RecordedRoll(Protocol):
    """A roll as a record holds it (a :class:`~tavla.match.actions.MatchAction` is one):
    the dice as they fell, and no seat for the opening roll."""

    @property
    def seat(self) -> int | None: ...

    @property
    def value(self) -> str: ...


class DiceProblem(Word):
    """Why a game's dice do not verify."""

    BAD_COMMITMENT = "bad_commitment"
    """The server seed is not the one committed to."""
    MISMATCH = "mismatch"
    """A recorded roll is not the one the seeds give."""
    SEED_HIDDEN = "seed_hidden"
    """The server seed is not revealed (the game is not over, or it was left out)."""
    NO_DICE = "no_dice"
    """A game of the record has no fair-dice entry."""
    NO_GAME = "no_game"
    """A fair-dice entry has no game in the record."""


@dataclass(frozen=True)
class DiceVerdict:
    """The outcome of a check: ``problem`` None when every roll verified.

    ``roll_index`` is the first mismatching roll among the game's rolls (from 0);
    ``rolls`` how many rolls matched before the check ended.
    """

    problem: DiceProblem | None
    message: str
    rolls: int = 0
    roll_index: int | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def verify_game_dice(
    server_seed: str | None, client_seed: str, commitment: str, rolls: Sequence[RecordedRoll]
) -> DiceVerdict:
    """Check the rolls of one game, in order, against its seeds and commitment."""
    if server_seed is None:
        return DiceVerdict(DiceProblem.SEED_HIDDEN, "the server seed is not revealed: nothing can be checked")
    if not is_hex_digest(server_seed):
        return DiceVerdict(DiceProblem.BAD_COMMITMENT, "the server seed is not 64 lowercase hex digits")
    if commitment_of(server_seed) != commitment:
        return DiceVerdict(
            DiceProblem.BAD_COMMITMENT, "the server seed's SHA-256 is not the commitment published"
        )
    try:
        dice = FairDice(server_seed, client_seed)
    except NotationError as error:
        return DiceVerdict(DiceProblem.MISMATCH, f"the client seed cannot be used: {error.reason}")
    for index, recorded in enumerate(rolls):
        opening = recorded.seat is None
        drawn = roll_opening(dice) if opening else roll(dice)
        try:
            matches = parse_roll_text(recorded.value) == drawn
        except NotationError:
            matches = False
        if not matches:
            what = "the opening roll" if opening else f"player {recorded.seat}'s roll"
            message = f"roll {index + 1} ({what}) is {recorded.value!r}; the seeds give {drawn[0]}{drawn[1]}"
            return DiceVerdict(DiceProblem.MISMATCH, message, index, index)
    return DiceVerdict(None, f"{len(rolls)} rolls ({dice.dice_drawn} dice) verified", len(rolls))


def verify_dice(entry: GameDice, rolls: Sequence[RecordedRoll]) -> DiceVerdict:
    """:func:`verify_game_dice` with a record's fair-dice entry."""
    return verify_game_dice(entry.server_seed, entry.client_seed, entry.commitment, rolls)
