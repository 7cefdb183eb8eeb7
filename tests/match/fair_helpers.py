"""Matches played with fair dice the way a server plays them: each game's dice begun
as the game starts, the seeds fixed so that the tests repeat."""

from __future__ import annotations

import hashlib
import random

from tavla.core.fairdice import join_client_seeds
from tavla.match.fairdice import MatchFairDice
from tavla.match.match import Match
from tavla.match.players import RandomPlayer, play_random_match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings


def server_seed(label: str, game: int) -> str:
    return hashlib.sha256(f"{label} game {game}".encode()).hexdigest()


class FairMatch(Match):
    """A match that begins the next game's fair dice whenever a game starts."""

    def __init__(self, settings: MatchSettings, label: str = "test") -> None:
        self.fair = MatchFairDice()
        self.label = label
        super().__init__(settings, dice=self.fair, now=lambda: 0)

    def start_next_game(self) -> None:
        super().start_next_game()
        number = len(self.fair.games) + 1
        self.fair.begin_game(join_client_seeds(f"ayse{number}", "mehmet"), server_seed(self.label, number))


def fair_match(seed: int, length: int = 3, game: str = "tabla") -> FairMatch:
    """A finished random match of ``length`` points with fair dice."""
    match = FairMatch(MatchSettings(game, length=length), label=f"match {seed}")
    players = (RandomPlayer(random.Random(seed)), RandomPlayer(random.Random(~seed)))
    play_random_match(match, players)
    return match


def fair_record(seed: int, length: int = 3) -> MatchRecord:
    match = fair_match(seed, length)
    return match.fair.record(match)
