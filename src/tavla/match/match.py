"""A match being played: the current state, the time and dice sources, the record.

``Match`` is the mutable front of the immutable :class:`MatchState`: each method
builds a :class:`MatchAction` stamped with the injected time, applies it, and keeps
it for the record. Before any action the clock is checked: if the acting player's
time has run out, the flag is recorded and :class:`TimeForfeitError` is raised.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tavla.core.dice import DiceSource, SeededDice, roll
from tavla.core.opening import roll_opening
from tavla.core.protocol import Turn
from tavla.match.actions import ActionKind, MatchAction, action_kind, apply_action, flag_state
from tavla.match.errors import TimeForfeitError
from tavla.match.gnubg_ids import settings_from_ids, state_from_setup
from tavla.match.settings import MatchSettings
from tavla.match.state import MatchState, new_state

TimeSource = Callable[[], int]


def monotonic_ms() -> int:
    """The default time source: the system's monotonic clock in milliseconds."""
    return time.monotonic_ns() // 1_000_000


class Match:
    """A match of ``settings``; ``dice`` rolls when no dice are given, ``now`` tells the time.

    The first game starts at once (``start=False`` leaves that to the caller, to
    start the clocks later); the record's first action is that start."""

    def __init__(
        self,
        settings: MatchSettings,
        *,
        dice: DiceSource | None = None,
        now: TimeSource = monotonic_ms,
        start: bool = True,
    ) -> None:
        self.settings = settings
        self.state: MatchState = new_state(settings)
        self.actions: list[MatchAction] = []
        self.states: list[MatchState] = [self.state]
        self.setup: tuple[str, str] | None = None
        """The gnubg Position ID and Match ID the match was continued from, or None."""
        self._dice = dice if dice is not None else SeededDice()
        self._now = now
        if start:
            self.start_next_game()

    @classmethod
    def from_ids(
        cls,
        position_id: str,
        match_id: str,
        settings: MatchSettings | None = None,
        *,
        dice: DiceSource | None = None,
        now: TimeSource = monotonic_ms,
    ) -> Match:
        """A match continued from gnubg's Position ID and Match ID (RULES.md 9.4).

        ``settings`` (by default tabla, with the length and Jacoby of the Match ID) must
        agree with the IDs; they add the names, clock and options the IDs do not hold.
        The clock starts with the first action. Raises NotationError for bad IDs.
        """
        if settings is None:
            settings = settings_from_ids(match_id)
        state = state_from_setup(settings, position_id, match_id)
        match = cls(settings, dice=dice, now=now, start=False)
        match.state = state
        match.states = [state]
        match.setup = (position_id, match_id)
        return match

    # ------------------------------------------------------------------ core
    def act(
        self, kind: str, seat: int | None = None, value: str = "", *, turn: Turn | None = None
    ) -> MatchAction:
        """Apply one action now; refused actions raise and change nothing."""
        now = self._now()
        flagged = flag_state(self.state, now)
        if flagged is not None:
            state, loser = flagged
            self._push(MatchAction(ActionKind.FLAG, loser, "", now), state)
            raise TimeForfeitError(loser, f"player {loser} ran out of time before {kind}: the flag fell")
        action = MatchAction(action_kind(kind), seat, value, now)
        state, recorded = apply_action(self.state, action, turn=turn)
        self._push(recorded, state)
        return recorded

    def _push(self, action: MatchAction, state: MatchState) -> None:
        self.actions.append(action)
        self.states.append(state)
        self.state = state

    def now(self) -> int:
        """The match's time source now, in milliseconds (for showing the clocks)."""
        return self._now()

    def check_time(self) -> int | None:
        """Record the flag if the acting player's time has run out; the loser's seat or None."""
        now = self._now()
        flagged = flag_state(self.state, now)
        if flagged is None:
            return None
        state, loser = flagged
        self._push(MatchAction(ActionKind.FLAG, loser, "", now), state)
        return loser

    # -------------------------------------------------------------- actions
    def roll(self, dice: tuple[int, int] | None = None) -> tuple[int, int]:
        """Roll for the seat to act (or the opening roll: seat 0's die, seat 1's die)."""
        opening = self.state.phase == "opening"
        seat = None if opening else self.state.actor
        if dice is None:
            self._check_roll(seat)
            dice = roll_opening(self._dice) if opening else roll(self._dice)
        self.act("roll", seat, f"{dice[0]}{dice[1]}")
        return dice

    def _check_roll(self, seat: int | None) -> None:
        """Raise the rules' refusal of a roll now, before any die is drawn.

        Fair dice (tavla.core.fairdice) number every die of a game: a die drawn for a
        roll the rules then refuse would shift every later roll of the game, and the
        record would no longer verify. Any dice serve for the trial (21 is a legal
        opening roll too); its time is the clock's own, so that only the rules speak.
        """
        clock = self.state.clock
        trial = MatchAction(ActionKind.ROLL, seat, "21", 0 if clock is None else clock.since_ms)
        apply_action(self.state, trial)

    def move(self, seat: int, turn: str | Turn) -> str:
        """Play a turn given as text or as a turn object; returns its canonical text."""
        if isinstance(turn, str):
            return self.act("move", seat, turn).value
        return self.act("move", seat, turn.text, turn=turn).value

    def double(self, seat: int) -> None:
        self.act("double", seat)

    def take(self, seat: int) -> None:
        self.act("take", seat)

    def drop(self, seat: int) -> None:
        self.act("drop", seat)

    def beaver(self, seat: int) -> None:
        self.act("beaver", seat)

    def raccoon(self, seat: int) -> None:
        self.act("raccoon", seat)

    def resign(self, seat: int, level: str = "single") -> None:
        self.act("resign", seat, level)

    def accept(self, seat: int) -> None:
        self.act("accept", seat)

    def decline(self, seat: int) -> None:
        self.act("decline", seat)

    def take_break(self, seat: int) -> None:
        self.act("break", seat)

    def warn(self, seat: int, note: str = "") -> None:
        """An arbiter warns ``seat``; the third warning loses the match (RULES.md 8.3, 11.4)."""
        self.act("warn", seat, note)

    def absent(self, seat: int) -> None:
        """``seat`` has still not come: one more point to his opponent, and the match at
        half its length (RULES.md 11.4). Only before the first game (``start=False``)."""
        self.act("absent", seat)

    def forfeit(self, seat: int, note: str = "") -> None:
        """``seat`` loses the match at once (a withdrawal, an arbiter's decision)."""
        self.act("forfeit", seat, note)

    def void(self, note: str = "") -> None:
        """The match ends without a winner (RULES.md 12: its stakes are released)."""
        self.act("void", None, note)

    def start_next_game(self) -> None:
        self.act("start")
