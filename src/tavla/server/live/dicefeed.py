"""The dice of a live match: one provably fair seed per game (docs/fair-dice.md).

Each game's dice come from its own server seed, committed to when the game starts
and revealed when it ends, mixed with the players' client seeds.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.core.fairdice import FairDice, commitment, join_client_seeds, new_server_seed
from tavla.server.live.changes import NewDice


@dataclass
class GameSeed:
    game_number: int
    server_seed: str
    commitment: str
    client_seed: str
    dice_drawn: int = 0
    revealed: bool = False


class DiceFeed:
    """Draws the dice of the current game without changing anything until told to."""

    def __init__(self, client_seeds: tuple[str, str], seeds: list[GameSeed]) -> None:
        self.client_seed = join_client_seeds(*client_seeds)
        self.seeds = {seed.game_number: seed for seed in seeds}

    def begin(self, game_number: int) -> NewDice:
        """A fresh seed for ``game_number`` (not kept until :meth:`keep` is called)."""
        server_seed = new_server_seed()
        return NewDice(game_number, server_seed, commitment(server_seed), self.client_seed)

    def keep(self, new: NewDice) -> None:
        self.seeds[new.game_number] = GameSeed(
            new.game_number, new.server_seed, new.commitment, new.client_seed
        )

    def source(self, game_number: int, pending: NewDice | None = None) -> FairDice:
        """A dice source positioned after the dice this game has drawn."""
        if pending is not None and pending.game_number == game_number:
            return FairDice(pending.server_seed, pending.client_seed)
        seed = self.seeds[game_number]
        dice = FairDice(seed.server_seed, seed.client_seed)
        for _ in range(seed.dice_drawn):
            dice.die()
        return dice
