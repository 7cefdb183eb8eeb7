"""The dice of a live match: one provably fair seed per game (docs/fair-dice.md).

Each game's dice come from its own server seed, committed to when the game starts
and revealed when it ends, mixed with the players' client seeds.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.core.fairdice import FairDice, commitment, join_client_seeds, new_server_seed, seed_chain
from tavla.server.live.changes import NewDice

CHAIN_GAMES = 64
"""Games one seed chain covers: more than a 25-point match can last but for void games."""


def new_chain_end() -> str:
    return new_server_seed()


def first_commitment(chain_end: str) -> str:
    """What is shown before the players choose their seeds: game 1's commitment."""
    return commitment(seed_chain(chain_end, CHAIN_GAMES)[0])


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

    def __init__(
        self, client_seeds: tuple[str, str], seeds: list[GameSeed], chain_end: str | None = None
    ) -> None:
        self.client_seed = join_client_seeds(*client_seeds)
        self.seeds = {seed.game_number: seed for seed in seeds}
        self.chain = seed_chain(chain_end, CHAIN_GAMES) if chain_end is not None else []

    def begin(self, game_number: int) -> NewDice:
        """The seed of ``game_number`` (not kept until :meth:`keep` is called): from the
        match's chain, or a fresh one past its end."""
        in_chain = 1 <= game_number <= len(self.chain)
        server_seed = self.chain[game_number - 1] if in_chain else new_server_seed()
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
        dice.dice_drawn = seed.dice_drawn  # die i depends on i alone: start at the next one
        return dice
