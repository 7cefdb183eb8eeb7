"""A random match player: for tests, demonstrations and the ``random`` CLI opponent.

It picks uniformly among legal turns and makes cube and resignation decisions with
small fixed probabilities, so random matches exercise every kind of action. Where the
legal turns are too many to list quickly (long progressive doubles in chelebi and
gulbara) it plays random legal steps instead, one die at a time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tavla.core.protocol import AnyPosition, Turn
from tavla.match.actions import double_error
from tavla.match.errors import MatchError, TimeForfeitError
from tavla.match.match import Match
from tavla.match.state import MatchState
from tavla.rules.turns import bounded_turns


@dataclass(frozen=True)
class Choice:
    """What to do: an action kind and its value (move text, resignation level).

    A move may carry its ``turn`` object too, so that the match plays it without
    reading the text again (cheap for turns built step by step)."""

    kind: str
    value: str = ""
    turn: Turn | None = None


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
        turn = self.random_turn(state.position)
        return Choice("move", turn.text, turn)

    def random_turn(self, position: AnyPosition) -> Turn:
        """A legal turn: uniform over the turns where they can be listed quickly, else
        random legal steps (each keeps a whole legal turn reachable)."""
        turns = bounded_turns(position)
        if turns is not None:
            return self.rng.choice(turns)
        builder = position.steps()
        while not builder.complete:
            builder.step(self.rng.choice(list(builder.legal_steps())))
        return builder.commit()


def play(match: Match, choice: Choice) -> None:
    """Carry out ``choice`` for the seat that acts in ``match``."""
    if choice.kind == "roll":
        match.roll()
    elif choice.kind == "move" and choice.turn is not None and match.state.actor is not None:
        match.move(match.state.actor, choice.turn)
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
                if actor is None:  # every phase but the three above has an actor
                    raise MatchError(f"nobody is to act at {state.phase!r}")
                play(match, players[actor].choose(state))
        except TimeForfeitError:
            continue
    raise RuntimeError(f"the match did not end within {max_actions} actions")
