"""Small valid records to corrupt one field at a time."""

from __future__ import annotations

import json
import random
from typing import Any

import tavla
from tavla.match.match import Match
from tavla.match.players import RandomPlayer, play_random_match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings

SETTINGS: dict[str, Any] = MatchSettings(game="tabla", length=1).to_json()


def match_record(actions: object = None, **fields: Any) -> str:
    """A match record's JSON; ``actions`` (a list, or any value to corrupt them) and
    ``fields`` replace the defaults."""
    data: dict[str, Any] = {"format": "tavla-match", "version": 1, "settings": SETTINGS, "actions": []}
    if actions is not None:
        data["actions"] = actions
    data.update(fields)
    return json.dumps(data)


def played_match_record(seed: int = 3) -> str:
    """A whole one-point tabla match, played by random players."""
    match = Match(MatchSettings(game="tabla", length=1))
    players = (RandomPlayer(random.Random(seed)), RandomPlayer(random.Random(~seed)))
    return MatchRecord.of(play_random_match(match, players)).to_json()


def played_game_record(seed: int = 5, turns: int = 6) -> str:
    """A tabla game record: the opening roll and a few turns."""
    rng = random.Random(seed)
    game = tavla.new_game("tabla")
    for _ in range(turns):
        if game.is_over:
            break
        if game.is_chance:
            game.roll(source=tavla.SeededDice(rng.random()))
        else:
            game.play(rng.choice(list(game.legal_turns())))
    return game.record().to_json()
