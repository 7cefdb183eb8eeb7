"""Bad input loses nothing: random actions thrown at random moments of random matches.

At every step of a seeded random match of each game, a few arbitrary actions (any
kind, any seat, odd values) are made on the match. Each is refused with a TavlaError
and leaves the match exactly as it was (no action recorded, the same state object), or
is accepted; what was accepted must be legal, which the replay of the record from its
JSON confirms (RULES.md 9.2, 9.4, 10). A fallen flag is the one refusal that records
something: the flag itself.
"""

from __future__ import annotations

import random

import pytest
from tests.match.test_records import NoSmallDoubles, jittery_time

from tavla.core.errors import TavlaError
from tavla.core.registry import find_game, game_names
from tavla.match.actions import KINDS, ActionKind, MatchAction, apply_action
from tavla.match.clock import ClockSettings
from tavla.match.errors import MatchError, TimeForfeitError
from tavla.match.match import Match
from tavla.match.players import RandomPlayer, play
from tavla.match.record import MatchRecord, replay_states
from tavla.match.settings import MatchSettings

TRIED_KINDS = (*(kind for kind in KINDS if kind not in ("warn", "forfeit", "void")), "castle")
"""Warnings are always accepted and three end the match, a forfeit or a void ends it at
once: tested in test_warnings.py and test_officials.py."""
SEATS = (None, 0, 1, 0, 1, 2, -1)
ODD_VALUES = ("", "-", "13/7", "24/1", "66", "70", "a1", "d2/e5", "gammon", "x" * 300, "bar/22*")


def test_time_running_backwards_is_refused() -> None:
    """RULES.md 10: the clock reads monotonic time; an earlier stamp is refused."""
    match = Match(MatchSettings("tabla", 3, clock=ClockSettings()), now=lambda: 10_000)
    match.roll((3, 1))
    state = match.state
    for kind in (ActionKind.MOVE, ActionKind.RESIGN, ActionKind.DOUBLE, ActionKind.WARN):
        with pytest.raises(MatchError, match="time went backwards"):
            apply_action(state, MatchAction(kind, 0, "8/5 6/5", 9_999))


@pytest.mark.parametrize("game", game_names())
def test_refused_actions_change_nothing_and_accepted_ones_replay(game: str) -> None:
    refused = accepted = 0
    for seed in range(5):
        rng = random.Random(seed)
        length = 3 if find_game(game).start().is_chance else 0
        settings = MatchSettings(game, length, clock=ClockSettings(move_ms=2_000, reserve_ms=60_000))
        match = Match(settings, dice=NoSmallDoubles(seed), now=jittery_time(seed, 1_500))
        players = (RandomPlayer(random.Random(seed)), RandomPlayer(random.Random(~seed)))
        for _ in range(5_000):
            if match.state.over:
                break
            for _ in range(3):
                before, count = match.state, len(match.actions)
                kind, seat, value = rng.choice(TRIED_KINDS), rng.choice(SEATS), rng.choice(ODD_VALUES)
                try:
                    match.act(kind, seat, value)
                except TimeForfeitError:
                    assert match.actions[count:] == [match.actions[-1]] and match.actions[-1].kind == "flag"
                except TavlaError:
                    refused += 1
                    assert match.state is before and len(match.actions) == count
                else:
                    accepted += 1
                if match.state.over:
                    break
            if match.state.over:
                break
            try:
                if match.state.phase == "opening":
                    match.roll()
                elif match.state.phase == "between":
                    match.start_next_game()
                else:
                    actor = match.state.actor
                    assert actor is not None
                    play(match, players[actor].choose(match.state))
            except TimeForfeitError:
                continue  # the flag is recorded; play goes on
        assert match.state.over
        record = MatchRecord.from_json(MatchRecord.of(match).to_json())
        assert list(replay_states(record)) == match.states
    assert refused > 300 and accepted > 0
