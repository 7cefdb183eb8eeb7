"""Match actions and the rules that turn one :class:`MatchState` into the next.

:func:`apply_action` is a pure function: it either returns the next state (and the
action as it is recorded, with a move in its canonical text) or raises a
:class:`~tavla.match.errors.MatchError` / :class:`~tavla.core.errors.TavlaError`
without touching anything.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tavla.core.digits import parse_roll_text
from tavla.core.errors import NotationError
from tavla.core.jsonread import member, want_int, want_object, want_str
from tavla.core.opening import after_opening
from tavla.core.protocol import BLACK, WHITE, Turn
from tavla.core.words import Word
from tavla.match import officials
from tavla.match.clock import MAX_CLOCK_MS
from tavla.match.cube import Cube
from tavla.match.ending import finish_game, score_points
from tavla.match.errors import CubeError, MatchError, ResignError, WrongPlayerError
from tavla.match.officials import NOTE_LIMIT
from tavla.match.resign import LEVEL_NAMES, ResignOffer, parse_level
from tavla.match.state import BREAK_MS, EndReason, GameResult, MatchState

WARNING_NOTE_LIMIT = NOTE_LIMIT


class ActionKind(Word):
    """What a :class:`MatchAction` does; the values are the ``k`` of match records."""

    ROLL = "roll"
    MOVE = "move"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"
    RESIGN = "resign"
    ACCEPT = "accept"
    DECLINE = "decline"
    FLAG = "flag"
    BREAK = "break"
    START = "start"
    WARN = "warn"
    ABSENT = "absent"
    FORFEIT = "forfeit"
    VOID = "void"


KINDS: tuple[str, ...] = tuple(ActionKind)


def action_kind(kind: str) -> ActionKind:
    """The kind named ``kind``; MatchError for a word that is none."""
    try:
        return ActionKind(kind)
    except ValueError:
        raise MatchError(f"unknown action {kind!r}; expected one of {', '.join(KINDS)}") from None


@dataclass(frozen=True)
class MatchAction:
    """One thing that happened in a match, at ``t_ms`` on the match's time source.

    ``seat`` is the player who acted (``None`` for the opening roll and the start of
    a game; for a warning, the player the arbiter warned); ``value`` the dice (``52``:
    at the opening seat 0's die then seat 1's), the move text, the resignation level,
    or the arbiter's note on a warning.
    """

    kind: ActionKind
    seat: int | None = None
    value: str = ""
    t_ms: int = 0

    def __post_init__(self) -> None:
        # A kind given as its word ("roll") becomes the enum, so that equal actions
        # compare equal however they were made; a word that is no kind is refused.
        if type(self.kind) is not ActionKind:
            object.__setattr__(self, "kind", action_kind(self.kind))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"k": self.kind, "t": self.t_ms}
        if self.seat is not None:
            data["s"] = self.seat
        if self.value:
            data["v"] = self.value
        return data

    @classmethod
    def from_json(cls, data: object, field: str = "action") -> MatchAction:
        """Read one recorded action; NotationError naming the field of any wrong part."""
        item = want_object(data, field)
        kind = want_str(member(item, "k", field), f"{field}.k")
        if kind not in KINDS:
            raise NotationError(f"{field}.k", kind, f"expected one of {', '.join(KINDS)}")
        seat = item.get("s")
        return cls(
            ActionKind(kind),
            None if seat is None else want_int(seat, f"{field}.s", 0, 1),
            want_str(item.get("v", ""), f"{field}.v"),
            want_int(member(item, "t", field), f"{field}.t", 0, MAX_CLOCK_MS),
        )


_ERRORS: dict[str, type[MatchError]] = {
    **dict.fromkeys(("double", "take", "drop", "beaver", "raccoon"), CubeError),
    **dict.fromkeys(("resign", "accept", "decline"), ResignError),
}


def _require(state: MatchState, action: MatchAction, phases: tuple[str, ...]) -> int:
    """The action must fit the phase and come from the seat that acts now; returns that seat."""
    phase = state.phase
    if phase not in phases:
        error = _ERRORS.get(action.kind, MatchError)
        raise error(f"{action.kind}: not possible now (the match is at {phase!r})")
    seat = action.seat
    if seat is None or seat != state.actor:
        raise WrongPlayerError(f"{action.kind} by player {seat}: player {state.actor} is to act")
    return seat


# ------------------------------------------------------------------ game end
def flag_state(state: MatchState, now_ms: int) -> tuple[MatchState, int] | None:
    """The state after the flag, if the acting player's time has run out at ``now_ms``."""
    if state.clock is None or state.phase in ("over", "between"):
        return None
    seat = state.clock.flagged(now_ms)
    if seat is None:
        return None
    top = 3 * state.cube.value if state.has_dice else 1  # RULES.md 10: the top score
    result = GameResult(1 - seat, top, EndReason.FLAG, state.cube.value)
    loses_match = state.settings.clock is not None and state.settings.clock.flag_loses == "match"
    return finish_game(state, result, now_ms, match_loser=seat if loses_match else None), seat


# ------------------------------------------------------------------- actions
def _roll(state: MatchState, action: MatchAction) -> MatchState:
    dice = parse_roll_text(action.value)
    if state.phase == "opening":
        if action.seat is not None:
            raise WrongPlayerError("the opening roll belongs to nobody: give no player")
        # The dice are written seat 0's first; the opening roll reads them White's first.
        by_colour = (dice[state.seat_of(WHITE)], dice[state.seat_of(BLACK)])
        position = after_opening(state.position, by_colour)
        starter = state.seat_of(position.to_act)
        rolls = (1, 0) if starter == 0 else (0, 1)
        return replace(state, position=position, awaiting_opening=False, starter=starter, rolls=rolls)
    seat = _require(state, action, ("roll", "raccoon"))
    counts = list(state.rolls)
    counts[seat] += 1
    return replace(
        state, position=state.position.with_roll(dice), cube=state.cube.settle(), rolls=(counts[0], counts[1])
    )


def _move(state: MatchState, action: MatchAction, turn: Turn | None) -> tuple[MatchState, MatchAction]:
    _require(state, action, ("move",))
    if turn is None:
        turn = state.position.parse_turn(action.value)
    # A turn object is checked by play() (and trusted at once when this position made it,
    # so a long progressive double built step by step is not searched again).
    after = state.position.play(turn)
    recorded = replace(action, value=turn.text)
    moved = replace(state, position=after)
    outcome = after.outcome()
    if outcome is None:
        return moved, recorded
    if outcome.winner is None:
        return finish_game(
            moved, GameResult(None, 0, outcome.reason, state.cube.value), action.t_ms
        ), recorded
    raw = outcome.points if state.has_dice else 1
    points = score_points(state, raw)
    result = GameResult(state.seat_of(outcome.winner), points, outcome.reason, state.cube.value)
    return finish_game(moved, result, action.t_ms), recorded


def double_error(state: MatchState, seat: int | None) -> str | None:
    """Why ``seat`` may not double now (RULES.md 9.2, 9.3), or None when he may."""
    if state.phase != "roll":
        return f"only before rolling (the match is at {state.phase!r})"
    if seat is None or seat != state.actor:
        return f"player {state.actor} is to act"
    if not state.settings.cube or not state.has_dice:
        return "this match is played without the cube"
    if state.crawford:
        return "nobody may double in the Crawford game (RULES.md 9.3)"
    if (
        not state.settings.money
        and state.game_number >= 2
        and seat == state.starter
        and state.rolls[seat] == 0
    ):
        return "the starter may not double before his first roll from game 2 on (RULES.md 9.2)"
    return state.cube.double_error(seat)


def _double(state: MatchState, action: MatchAction) -> MatchState:
    if state.phase == "roll" and action.seat != state.actor:
        raise WrongPlayerError(f"double by player {action.seat}: player {state.actor} is to act")
    seat = action.seat
    reason = double_error(state, seat)
    if reason is not None or seat is None:  # double_error refuses a missing seat
        raise CubeError(f"player {seat} cannot double: {reason}")
    return replace(state, cube=state.cube.double(seat))


def _answer(state: MatchState, action: MatchAction) -> MatchState:
    seat = _require(state, action, ("double",))
    cube: Cube = state.cube
    if action.kind == "take":
        return replace(state, cube=cube.take(seat))
    if action.kind == "beaver":
        if not state.settings.beavers:
            raise CubeError("beavers are not played in this match (an option of money play)")
        return replace(state, cube=cube.beaver(seat, raccoons=state.settings.raccoons))
    points = cube.drop_points(seat)
    return finish_game(state, GameResult(1 - seat, points, EndReason.DROP, cube.value), action.t_ms)


def _raccoon(state: MatchState, action: MatchAction) -> MatchState:
    seat = _require(state, action, ("raccoon",))
    return replace(state, cube=state.cube.raccoon(seat))


def _resign(state: MatchState, action: MatchAction) -> MatchState:
    if action.kind == "resign":
        # Either player may offer, as on FIBS: a player may give up while waiting.
        if state.phase not in ("roll", "move"):
            raise ResignError(f"resign: not possible now (the match is at {state.phase!r})")
        if action.seat is None:
            raise WrongPlayerError("resign: say which player resigns")
        points = parse_level(action.value)
        if not state.has_dice and points != 1:
            raise ResignError("a game without dice is resigned as a single")
        return replace(state, resign=ResignOffer(action.seat, points))
    _require(state, action, ("resign",))
    offer = state.resign
    if offer is None:  # the "resign" phase is the one with an offer standing
        raise ResignError(f"{action.kind}: no resignation is offered")
    if action.kind == "decline":
        return replace(state, resign=None)
    raw = offer.points if state.has_dice else 1
    result = GameResult(1 - offer.by, score_points(state, raw), EndReason.RESIGN, state.cube.value)
    return finish_game(state, result, action.t_ms)


def _break(state: MatchState, action: MatchAction) -> MatchState:
    if state.phase != "between" or state.game_number == 0:
        # Before the first game the match has not begun: a player awaited is late, not resting.
        raise MatchError("a break may only be taken between games (RULES.md 11.4)")
    if action.seat not in (0, 1):
        raise WrongPlayerError("a break is taken by player 0 or 1")
    if state.breaks_used[action.seat] >= state.breaks_allowed:
        raise MatchError(f"player {action.seat} has no break left ({state.breaks_allowed} per match)")
    used = list(state.breaks_used)
    used[action.seat] += 1
    return replace(state, breaks_used=(used[0], used[1]), break_ends_ms=action.t_ms + BREAK_MS)


def _start(state: MatchState, action: MatchAction) -> MatchState:
    if state.phase != "between":
        raise MatchError(f"start: the next game starts only between games (the match is at {state.phase!r})")
    if action.t_ms < state.break_ends_ms:
        raise MatchError(f"start: a break runs for {state.break_ends_ms - action.t_ms} ms more")
    settings = state.settings
    last = state.result
    crawford = (
        state.game_number > 0
        and state.has_dice
        and not settings.money
        and not state.crawford_done
        and settings.length - 1 in state.score
    )
    base = replace(
        state,
        game_number=state.game_number + 1,
        crawford=crawford,
        crawford_done=state.crawford_done or crawford,
        rolls=(0, 0),
        cube=Cube(),
        resign=None,
        result=None,
        clock=None if state.clock is None else state.clock.new_game(),
    )
    start = state.definition.start()
    if not state.has_dice:
        return replace(base, position=start, starter=base.seat_of(start.to_act), awaiting_opening=False)
    if settings.next_game_start == "winner_starts" and last is not None and last.winner is not None:
        position = start.with_side(base.colour_of(last.winner))
        return replace(base, position=position, starter=last.winner, awaiting_opening=False)
    return replace(base, position=start, starter=None, awaiting_opening=True)


def _reclock(state: MatchState, now_ms: int) -> MatchState:
    """Give the clock to the seat that acts now (a fresh allowance when it changes)."""
    clock = state.clock
    if clock is None:
        return state
    actor = state.actor
    if actor is None:
        clock = clock.stop(now_ms)
    elif clock.running != actor:
        clock = clock.start(actor, now_ms)
    return state if clock is state.clock else replace(state, clock=clock)


def apply_action(
    state: MatchState, action: MatchAction, *, turn: Turn | None = None
) -> tuple[MatchState, MatchAction]:
    """The state after ``action`` and the action as recorded; raises if it is refused.

    ``turn``, for a move, is the turn as an object (from the position's turn list or
    step builder) instead of the text in ``action.value``.
    """
    if state.over:
        raise MatchError(f"{action.kind}: the match is over")
    if action.seat is not None and action.seat not in (0, 1):
        raise WrongPlayerError(f"{action.kind}: player {action.seat} is not 0 or 1")
    if state.clock is not None and action.t_ms < state.clock.since_ms:
        raise MatchError(f"{action.kind} at {action.t_ms} ms: time went backwards")
    kind = action.kind
    recorded = action
    if kind == "roll":
        after = _roll(state, action)
    elif kind == "move":
        after, recorded = _move(state, action, turn)
    elif kind == "double":
        after = _double(state, action)
    elif kind in ("take", "drop", "beaver"):
        after = _answer(state, action)
    elif kind == "raccoon":
        after = _raccoon(state, action)
    elif kind in ("resign", "accept", "decline"):
        after = _resign(state, action)
        if kind == "resign":
            recorded = replace(action, value=LEVEL_NAMES[parse_level(action.value)])
    elif kind == "break":
        after = _break(state, action)
    elif kind == "start":
        after = _start(state, action)
    elif kind == "warn":
        after = officials.warn(state, action.seat, action.value, action.t_ms)
    elif kind == "absent":
        after = officials.absent(state, action.seat, action.t_ms)
    elif kind == "forfeit":
        after = officials.forfeit(state, action.seat, action.value, action.t_ms)
    elif kind == "void":
        after = officials.void(state, action.seat, action.value, action.t_ms)
    elif kind == "flag":
        flagged = flag_state(state, action.t_ms)
        if flagged is None or flagged[1] != action.seat:
            raise MatchError(f"flag of player {action.seat}: his time has not run out")
        after = flagged[0]
    else:
        raise MatchError(f"unknown action {kind!r}; expected one of {', '.join(KINDS)}")
    return _reclock(after, action.t_ms), recorded
