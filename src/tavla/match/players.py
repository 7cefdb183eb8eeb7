"""A random match player: for tests, demonstrations and the ``random`` CLI opponent.

It picks uniformly among legal turns and makes cube and resignation decisions with
small fixed probabilities, so random matches exercise every kind of action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tavla.match.actions import double_error
from tavla.match.errors import TimeForfeitError
from tavla.match.match import Match
from tavla.match.state import MatchState


@dataclass(frozen=True)
class Choice:
    """What to do: an action kind and its value (move text, resignation level)."""

    kind: str
    value: str = ""


@dataclass
class RandomPlayer:
    rng: random.Random
    double_rate: float = 0.08
    drop_rate: float = 0.3
    beaver_rate: float = 0.3
    raccoon_rate: float = 0.3
    resign_rate: float = 0.005
    accept_rate: float = 0.5

    def choose(self, state: MatchState) -> Choice:
        """A legal choice for the seat that acts in ``state``."""
        rng = self.rng
        phase = state.phase
        if phase == "double":
            if state.settings.beavers and state.cube.value * 4 <= 64 and rng.random() < self.beaver_rate:
                return Choice("beaver")
            return Choice("drop" if rng.random() < self.drop_rate else "take")
        if phase == "raccoon":
            return Choice("raccoon" if rng.random() < self.raccoon_rate else "roll")
        if phase == "resign":
            return Choice("accept" if rng.random() < self.accept_rate else "decline")
        if rng.random() < self.resign_rate:
            level = rng.choice(["single", "gammon", "backgammon"]) if state.has_dice else "single"
            return Choice("resign", level)
        if phase == "roll":
            if double_error(state, state.actor) is None and rng.random() < self.double_rate:
                return Choice("double")
            return Choice("roll")
        turns = state.position.legal_turns()
        return Choice("move", rng.choice(turns).text)


def play(match: Match, choice: Choice) -> None:
    """Carry out ``choice`` for the seat that acts in ``match``."""
    if choice.kind == "roll":
        match.roll()
    else:
        match.act(choice.kind, match.state.actor, choice.value)


def play_random_match(
    match: Match, players: tuple[RandomPlayer, RandomPlayer], max_actions: int = 100_000
) -> Match:
    """Play ``match`` to the end with random players (the opening roll and game starts
    are made by the match itself); a fallen flag is recorded and play goes on."""
    for _ in range(max_actions):
        state = match.state
        if state.phase == "over":
            return match
        try:
            if state.phase == "opening":
                match.roll()
            elif state.phase == "between":
                match.start_next_game()
            else:
                actor = state.actor
                assert actor is not None
                play(match, players[actor].choose(state))
        except TimeForfeitError:
            continue
    raise RuntimeError(f"the match did not end within {max_actions} actions")
