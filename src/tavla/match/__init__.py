"""Match play (RULES.md 1.4, 8.3, 9, 10, 11.4): the cube, Crawford, resignations,
clocks, Abluka sets, and match records in JSON and Jellyfish ``.mat``.

No I/O and no clock of its own: time comes from an injected source in integer
milliseconds, dice from a dice source.

    >>> from tavla.match import Match, MatchSettings
    >>> match = Match(MatchSettings("tabla", length=5), now=lambda: 0)
    >>> match.roll((5, 2))
    (5, 2)
    >>> match.move(0, "13/8 13/11")
    '13/11 13/8'
    >>> match.double(1); match.take(0); match.state.cube.value
    2
"""

from tavla.match.actions import MatchAction, apply_action
from tavla.match.clock import Clock, ClockSettings, parse_clock_spec
from tavla.match.cube import Cube
from tavla.match.errors import (
    ClockError,
    CubeError,
    MatchError,
    MatchSettingsError,
    ResignError,
    TimeForfeitError,
    WrongPlayerError,
)
from tavla.match.fairdice import MatchFairDice, verify_match_dice
from tavla.match.gnubg_ids import match_ids, settings_from_ids, state_from_ids
from tavla.match.mat import export_mat, import_mat
from tavla.match.match import Match
from tavla.match.record import MatchRecord, replay, replay_states
from tavla.match.settings import MatchSettings
from tavla.match.state import GameResult, MatchState

__all__ = [
    "Clock",
    "ClockError",
    "ClockSettings",
    "Cube",
    "CubeError",
    "GameResult",
    "Match",
    "MatchAction",
    "MatchError",
    "MatchFairDice",
    "MatchRecord",
    "MatchSettings",
    "MatchSettingsError",
    "MatchState",
    "ResignError",
    "TimeForfeitError",
    "WrongPlayerError",
    "apply_action",
    "export_mat",
    "import_mat",
    "match_ids",
    "parse_clock_spec",
    "replay",
    "replay_states",
    "settings_from_ids",
    "state_from_ids",
    "verify_match_dice",
]
