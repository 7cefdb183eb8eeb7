"""Gulbara (gul bara, rosespring): same-way movement, progressive doubles (RULES.md 6).

A position is an immutable value in White's numbering: signed point counts (White
positive), checkers borne off, the side to act, the dice, the dice the side to act
must first play to complete the opponent's progressive double (``complete``, the
TPN's ``c=``) and the rolls each player made so far, capped at 3 (``rolls``, the
TPN's ``r=``).

The completion (RULES.md 6.3) is a decision node of its own: a position with
``complete`` set and no dice is not a chance node; its legal turns play those dice
in order, as many as possible, and lead to the same player, who then rolls. It is
not a roll, so ``rolls`` does not change. A player who bears off his last checker
in the middle of a progressive double has won: nothing passes to the opponent.

A progressive double can have millions of turns (a 2-2 met in random play has
about 2.4 million). ``parse_turn`` and ``play`` find the one turn they need
without listing them, the step builder never lists them, ``legal_turns_within``
gives up past a size, and ``best_turns`` is a bounded beam search for bots.

Option (RULES.md 6.2): ``progressive_from_roll``, default 4, from 1 to 4 (the
TPN's roll counter stops at 3, so a later start could not be told from the TPN);
``tavla.find_game("gulbara").with_options(progressive_from_roll=1)`` is that rule set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Self, cast

from tavla.core.definition import BoardKind, Direction, GameFacts, GameOptions, NotationKind
from tavla.core.dice import Roll
from tavla.core.digits import is_digits
from tavla.core.errors import IllegalMoveError, NotationError
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason
from tavla.core.registry import register
from tavla.rules import tpn
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn, MaybeStep
from tavla.rules.gulbara.movegen import CHECKERS, State, gulbara_steps, to_opponent_point
from tavla.rules.tpn_checks import (
    check_total,
    single_colour_points,
    single_colour_stacks,
    split_without_bar,
)
from tavla.rules.turns import StepFunction
from tavla.rules.walks import walks_fit

ROLL_COUNT_CAP = 3
#: Every progressive sequence is a tail of the one 1-1 starts (RULES.md 6.2).
LONGEST_PROGRESSIVE = tuple(value for value in range(1, 7) for _ in range(4))


@dataclass(frozen=True)
class GulbaraOptions(GameOptions):
    progressive_from_roll: int = field(default=4, metadata={"min": 1, "max": ROLL_COUNT_CAP + 1})
    """The roll of each player from which doubles are progressive (RULES.md 6.2)."""


FACTS = GameFacts(
    title="Gul bara",
    board=BoardKind.POINTS,
    notation=NotationKind.TPN,
    direction=Direction.SAME,
    has_dice=True,
    has_bar=False,
    has_pips=True,
    has_cube=True,
    stacks_colours=False,
    checkers=CHECKERS,
    gnubg_compatible=False,
)


def progressive_dice(value: int) -> list[int]:
    """Four of ``value``, then four of each higher number up to four 6's."""
    return [pips for pips in range(value, 7) for _ in range(4)]


def _start_points() -> tuple[int, ...]:
    points = [0] * 24
    points[23] = CHECKERS  # White's 24
    points[to_opponent_point(24) - 1] = -CHECKERS  # Black's 24 is White's 12
    return tuple(points)


def _mine(state: State) -> tuple[int, ...]:
    """The mover's checkers from off (0) to the bar (25), which gulbara does not have."""
    return (*(max(count, 0) for count in state), 0)


def _white_index(side: int, point: int) -> int:
    """Index in ``points`` of the mover's ``point``."""
    return point - 1 if side == WHITE else to_opponent_point(point) - 1


@register(FACTS, "gul bara", "gul-bara", "rosespring", options=GulbaraOptions())
@dataclass(frozen=True)
class GulbaraPosition(DiceGame[State]):
    """A gulbara position; ``points[i]`` is White's point ``i + 1``, Black negative."""

    game: ClassVar[str] = "gulbara"

    points: tuple[int, ...]
    off: tuple[int, int] = (0, 0)
    side: int = WHITE
    dice: Roll | None = None
    complete: tuple[int, ...] = ()
    rolls: tuple[int, int] = (0, 0)
    options: GulbaraOptions = GulbaraOptions()

    @classmethod
    def start(cls) -> Self:
        return cls(points=_start_points())

    @property
    def awaiting_decision(self) -> bool:
        return self.dice is not None or bool(self.complete)

    def progressive(self) -> bool:
        """Are the side to act's doubles progressive on this roll (RULES.md 6.2)?"""
        return self.rolls[self.side] + 1 >= self.options.progressive_from_roll

    # ------------------------------------------------------------- mover's view
    def mover_state(self) -> State:
        if self.side == WHITE:
            return (self.off[0], *self.points)
        # Black's point k is White's ((k + 11) mod 24) + 1: his 1-12 are White's 13-24.
        return (self.off[1], *(-n for n in self.points[12:]), *(-n for n in self.points[:12]))

    def step_function(self) -> StepFunction[State, MaybeStep]:
        return gulbara_steps

    def turn_sequences(self) -> tuple[list[list[int]], bool]:
        if self.complete:
            return [list(self.complete)], False
        dice = self.rolled_dice()
        high, low = max(dice), min(dice)
        if high != low:
            return [[high, low], [low, high]], True
        if self.progressive():
            return [progressive_dice(high)], False
        return [[high] * 4], False

    def after_turn(self, state: State, dice_played: int) -> Self:
        if self.side == WHITE:
            points, off = state[1:], (state[0], self.off[1])
        else:
            points = (*(-n for n in state[13:]), *(-n for n in state[1:13]))
            off = (self.off[0], state[0])
        if self.complete:
            # RULES.md 6.3: the completion is not a roll; the same player rolls next.
            return type(self)(points, off, self.side, None, (), self.rolls, self.options)
        rolls = list(self.rolls)
        rolls[self.side] = min(ROLL_COUNT_CAP, rolls[self.side] + 1)
        passed: tuple[int, ...] = ()
        if self.dice is not None and self.dice[0] == self.dice[1] and self.progressive():
            sequence = progressive_dice(self.dice[0])
            # RULES.md 6.3: a started double that was not finished passes to the opponent.
            if 4 <= dice_played < len(sequence) and state[0] < CHECKERS:
                passed = tuple(sequence[dice_played:])
        return type(self)(points, off, 1 - self.side, None, passed, (rolls[0], rolls[1]), self.options)

    # ------------------------------------------------------------ reading turns
    def parse_turn(self, text: str) -> DiceTurn[Self]:
        """The legal turn ``text`` denotes, found without listing every turn.

        A progressive double can have millions of turns (RULES.md 6.2), so the
        position the text describes is computed first and then searched for.
        """
        if self.outcome() is not None:
            raise IllegalMoveError(text, self.notation(), "the game is over")
        self._require_decision()
        try:
            paths = self.read_paths(text)
        except NotationError as error:
            raise IllegalMoveError(text, self.notation(), f"unreadable move ({error})") from None
        board = list(self.mover_state())
        for path in paths:
            if path[0] > 24 or board[path[0]] <= 0:
                raise IllegalMoveError(text, self.notation(), f"no checker of the mover on {path[0]}")
            board[path[0]] -= 1
            board[path[-1]] += 1
        found = self.find_turn(tuple(board))
        if found is None:
            reason = "a move is possible, '-' is not legal" if not paths else "illegal move"
            raise IllegalMoveError(text, self.notation(), reason)
        return found

    def could_reach(self, state: State, target: State, dice: Sequence[int]) -> bool:
        if state[0] == CHECKERS:
            return state == target  # the game is over: the dice left are passes
        # Checkers only move down: from any point, the mover's checkers on it and
        # above can only become fewer, never more.
        above_now = above_target = pips_now = pips_target = 0
        for point in range(24, 0, -1):
            now, then = state[point], target[point]
            if now > 0:
                above_now += now
                pips_now += point * now
            if then > 0:
                above_target += then
                pips_target += point * then
                if above_now < above_target:
                    return False
        # Every die moves its full number of pips, except one bearing off from below.
        needed, left = pips_now - pips_target, sum(dice)
        if not (needed == left or (needed < left and target[0] > state[0])):
            return False
        # Nothing is hit: the opponent's points stay closed all turn.
        closed = sum(1 << point for point in range(1, 25) if state[point] < 0)
        return walks_fit(_mine(state), _mine(target), dice, closed)

    # ------------------------------------------------------------------ result
    def outcome(self) -> Outcome | None:
        for winner in (WHITE, BLACK):
            if self.off[winner] != CHECKERS:
                continue
            loser = 1 - winner
            if self.off[loser] > 0:
                return Outcome(winner, 1, OutcomeReason.SINGLE)
            # The loser's points 13-24: his starting quarter and the winner's home board.
            sign = 1 if loser == WHITE else -1
            far = (self.points[_white_index(loser, point)] * sign > 0 for point in range(13, 25))
            if any(far):
                return Outcome(winner, 3, OutcomeReason.BACKGAMMON)
            return Outcome(winner, 2, OutcomeReason.GAMMON)
        return None

    # ----------------------------------------------------------------- notation
    def notation(self) -> str:
        extras = {"r": f"{self.rolls[0]},{self.rolls[1]}"}
        if self.complete:
            extras["c"] = "".join(str(die) for die in self.complete)
        fields = tpn.TpnFields(
            self.definition.head,
            single_colour_stacks(self.points),
            (0, 0),
            self.off,
            self.side,
            self.dice,
            extras,
        )
        return tpn.join_tpn(fields, ("c", "r"))

    @classmethod
    def from_notation(cls, text: str) -> Self:
        fields = split_without_bar(text, cls.game, ("c", "r"))
        options = cast(GulbaraOptions, cls.DEFINITION.read_head(fields.game).options)
        _check_extra_order(text, fields)
        points = single_colour_points(fields)
        for player in (WHITE, BLACK):
            sign = 1 if player == WHITE else -1
            check_total(fields, player, sum(n * sign for n in points if n * sign > 0), CHECKERS, exact=True)
        rolls = _read_rolls(fields.extras.get("r"))
        complete = _read_completion(fields.extras.get("c"), fields.dice)
        position = cls(points, fields.off, fields.side, fields.dice, complete, rolls, options)
        if complete:
            roller = 1 - position.side
            if rolls[roller] < min(ROLL_COUNT_CAP, options.progressive_from_roll):
                raise NotationError(
                    "r", fields.extras["r"], "the opponent's double cannot have been progressive yet"
                )
        if position.awaiting_decision and position.outcome() is not None:
            raise NotationError("dice", tpn.format_dice(position.dice), "the game is over: no dice to play")
        return position


def _check_extra_order(text: str, fields: tpn.TpnFields) -> None:
    keys = [item.partition("=")[0] for item in text.split(" ")[6:]]
    if keys != [key for key in ("c", "r") if key in fields.extras]:
        raise NotationError("extra field", " ".join(text.split(" ")[6:]), "expected c= (if any) before r=")


def _read_rolls(value: str | None) -> tuple[int, int]:
    if value is None:
        raise NotationError("r", "", "gulbara needs r=<White>,<Black>, the rolls made so far")
    parts = value.split(",")
    if len(parts) != 2 or not all(part in ("0", "1", "2", "3") for part in parts):
        raise NotationError("r", value, "expected two roll counts 0-3 such as r=0,0")
    return int(parts[0]), int(parts[1])


def _read_completion(value: str | None, dice: Roll | None) -> tuple[int, ...]:
    if value is None:
        return ()
    if dice is not None:
        raise NotationError(
            "c", value, "the side to act completes the opponent's dice before rolling: dice must be '-'"
        )
    if not is_digits(value) or not 1 <= len(value) <= len(LONGEST_PROGRESSIVE) - 4:
        raise NotationError("c", value, "expected 1 to 20 dice such as c=556666")
    complete = tuple(int(ch) for ch in value)
    if complete != LONGEST_PROGRESSIVE[-len(complete) :]:
        raise NotationError("c", value, "not the rest of a progressive double (four of each number up to 6)")
    return complete
