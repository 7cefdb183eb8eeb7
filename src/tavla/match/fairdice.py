"""Fair dice over a whole match: one seed pair per game, and checking a record's dice.

The games of a record are counted the way :func:`record_games` says: each ``start``
action begins one, and a record continued from gnubg IDs (``setup``) in the middle of
a game has that game first. A record's ``dice`` has one entry per game, in order.

A server plays a match with a :class:`MatchFairDice` as the match's dice source,
calling :meth:`MatchFairDice.begin_game` as each game starts (before its first roll),
and saves :meth:`MatchFairDice.record` (docs/fair-dice.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavla.core.diceverify import DiceProblem, DiceVerdict, verify_dice
from tavla.core.fairdice import FairDice, new_server_seed
from tavla.core.gamedice import GameDice
from tavla.match.actions import ActionKind, MatchAction
from tavla.match.match import Match
from tavla.match.record import MatchRecord, initial_state
from tavla.match.state import MatchState, Phase

_NO_GAME = (Phase.BETWEEN, Phase.OVER)


def record_games(actions: list[MatchAction], setup_game: bool) -> list[list[int]]:
    """The indices of each game's actions in ``actions``, a game from each ``start``;
    ``setup_game``: the actions before the first start are a game (continued from IDs)."""
    games: list[list[int]] = [[]] if setup_game else []
    for index, action in enumerate(actions):
        if action.kind == ActionKind.START:
            games.append([])
        if games:
            games[-1].append(index)
    return games


def _starts_in_a_game(setup: tuple[str, str] | None, first: MatchState) -> bool:
    return setup is not None and first.phase not in _NO_GAME


def games_of(record: MatchRecord) -> list[list[int]]:
    """:func:`record_games` of a record."""
    return record_games(record.actions, _starts_in_a_game(record.setup, initial_state(record)))


class MatchFairDice:
    """A match's dice source that draws each game's dice from that game's :class:`FairDice`."""

    def __init__(self) -> None:
        self._games: list[FairDice] = []

    @property
    def games(self) -> tuple[FairDice, ...]:
        return tuple(self._games)

    def begin_game(self, client_seed: str, server_seed: str | None = None) -> FairDice:
        """Start the next game's dice (a fresh secret seed unless one is given); publish
        the returned dice's ``commitment`` and ``client_seed`` before its first roll."""
        dice = FairDice(new_server_seed() if server_seed is None else server_seed, client_seed)
        self._games.append(dice)
        return dice

    def die(self) -> int:
        if not self._games:
            raise RuntimeError("no game's fair dice begun: call begin_game when a game starts")
        return self._games[-1].die()

    def record_dice(self, match: Match) -> tuple[GameDice, ...]:
        """The ``dice`` of ``match``'s record: one entry per game of its actions, the
        server seed revealed for every game that is over and hidden for one in play."""
        count = len(record_games(match.actions, _starts_in_a_game(match.setup, match.states[0])))
        if count > len(self._games):
            raise RuntimeError(f"{count} games played, fair dice begun for {len(self._games)}")
        in_play = match.state.phase not in _NO_GAME
        return tuple(
            GameDice.of(dice, reveal=not (in_play and number == count - 1))
            for number, dice in enumerate(self._games[:count])
        )

    def record(self, match: Match) -> MatchRecord:
        """``MatchRecord.of(match)`` with the fair dice."""
        return MatchRecord.of(match, dice=self.record_dice(match))


@dataclass(frozen=True)
class GameCheck:
    """The verdict on game ``game`` (from 1); ``action`` is the number (from 1, as
    ``tavla replay`` counts) of the first mismatching roll action in the record."""

    game: int
    verdict: DiceVerdict
    action: int | None = None


def verify_match_dice(record: MatchRecord) -> tuple[GameCheck, ...]:
    """Every game's dice checked against its entry; empty for a game without dice."""
    if not record.settings.definition.facts.has_dice:
        return ()
    games = games_of(record)
    checks: list[GameCheck] = []
    for number, indices in enumerate(games, start=1):
        if number > len(record.dice):
            verdict = DiceVerdict(DiceProblem.NO_DICE, "the record has no fair-dice entry for this game")
            checks.append(GameCheck(number, verdict))
            continue
        rolls = [index for index in indices if record.actions[index].kind == ActionKind.ROLL]
        verdict = verify_dice(record.dice[number - 1], [record.actions[index] for index in rolls])
        action = None if verdict.roll_index is None else rolls[verdict.roll_index] + 1
        checks.append(GameCheck(number, verdict, action))
    for number in range(len(games) + 1, len(record.dice) + 1):
        verdict = DiceVerdict(DiceProblem.NO_GAME, "a fair-dice entry for a game the record does not hold")
        checks.append(GameCheck(number, verdict))
    return tuple(checks)


def chain_breaks(dice: Sequence[GameDice]) -> list[int]:
    """The games whose commitment is not the previous game's revealed seed.

    A server that drew the seeds of the whole match as a chain (docs/fair-dice.md)
    fixed them all before the first game; then every game after the first is
    committed to by the seed revealed before it, and this list is empty. Games whose
    previous seed is still hidden are not judged.
    """
    breaks = []
    for number in range(2, len(dice) + 1):
        previous = dice[number - 2].server_seed
        if previous is not None and dice[number - 1].commitment != previous:
            breaks.append(number)
    return breaks
