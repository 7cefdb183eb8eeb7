"""What the officials of a tournament decide, as match actions (RULES.md 8.3, 11.4, 12).

No player sends these: an arbiter warns a player; the server's no-show timer credits
the present player while the other has not come; a withdrawal or an arbiter's
decision forfeits a match; an administrator voids a match nobody can finish. Each is
a pure function of the state and the action, like every other action of the match.
"""

from __future__ import annotations

from dataclasses import replace

from tavla.match.ending import finish_game
from tavla.match.errors import MatchError, WrongPlayerError
from tavla.match.state import WARNINGS_TO_LOSE, EndReason, GameResult, MatchState

NOTE_LIMIT = 200
"""The longest note an official may attach to a warning, a forfeit or a void."""
NO_SHOW_GRACE_MS = 15 * 60 * 1000
"""RULES.md 11.4: the present player waits this long from the scheduled start ..."""
NO_SHOW_STEP_MS = 5 * 60 * 1000
"""... then he is credited a point at the end of every further period this long."""


def forfeit_points(state: MatchState) -> int:
    """The score at which a player whose opponent never came wins by forfeit: half the
    match length rounded up (RULES.md 11.4); half the sets for a game without dice."""
    target = state.settings.length if state.has_dice else state.settings.sets
    return (target + 1) // 2


def credit_due_ms(start_ms: int, arrived_ms: int, credited: int) -> int:
    """When the present player is due his next point of the no-show procedure.

    The points fall at the scheduled start ``start_ms`` plus the grace period plus
    whole steps (RULES.md 11.4). A player counts only the marks from his own arrival
    at ``arrived_ms`` on: who came at minute 22 waited for no one at minute 20. He has
    been ``credited`` points so far; each is due one step after the one before."""
    late = arrived_ms - start_ms - NO_SHOW_GRACE_MS
    first = max(1, -(-late // NO_SHOW_STEP_MS))
    return start_ms + NO_SHOW_GRACE_MS + NO_SHOW_STEP_MS * (first + credited)


def _seat(seat: int | None, refusal: str) -> int:
    if seat not in (0, 1):
        raise WrongPlayerError(refusal)
    return seat


def _note(kind: str, note: str) -> None:
    if len(note) > NOTE_LIMIT:
        raise MatchError(f"{kind}: the note has {len(note)} characters; at most {NOTE_LIMIT}")


def _lose_match(state: MatchState, loser: int | None, reason: EndReason, now_ms: int) -> MatchState:
    """End the match at once: ``loser`` loses it (None: nobody wins, a void match).

    A game in progress ends without points: the match is decided, not the game."""
    if state.phase == "between":
        clock = None if state.clock is None else state.clock.stop(now_ms)
        winner = None if loser is None else 1 - loser
        return replace(state, over=True, winner=winner, forfeit=reason, clock=clock)
    result = GameResult(None if loser is None else 1 - loser, 0, reason, state.cube.value)
    if loser is not None:
        return finish_game(state, result, now_ms, match_loser=loser)
    ended = finish_game(state, result, now_ms)
    return replace(ended, over=True, winner=None, forfeit=reason)


def warn(state: MatchState, seat: int | None, note: str, now_ms: int) -> MatchState:
    """An arbiter's warning to ``seat``; the third loses the match (RULES.md 8.3, 11.4).

    A warning may come at any moment of the match, between games too."""
    warned_seat = _seat(seat, "warn: say which player (0 or 1) the arbiter warns")
    _note("warn", note)
    counts = list(state.warnings)
    counts[warned_seat] += 1
    warned = replace(state, warnings=(counts[0], counts[1]))
    if counts[warned_seat] < WARNINGS_TO_LOSE:
        return warned
    return _lose_match(warned, warned_seat, EndReason.WARNINGS, now_ms)


def absent(state: MatchState, seat: int | None, now_ms: int) -> MatchState:
    """``seat`` has still not come: his opponent is credited one point (one set without
    dice); at half the match length, rounded up, the opponent wins by forfeit
    (RULES.md 11.4). Only before the first game of a match to a length."""
    absent_seat = _seat(seat, "absent: say which player (0 or 1) has not come")
    if state.has_dice and state.settings.money:
        raise MatchError("absent: money play has no no-show procedure (RULES.md 11.4 is for matches)")
    if state.game_number != 0:
        raise MatchError("absent: the first game has begun, so both players came")
    present = 1 - absent_seat
    if state.score[absent_seat] > 0:
        raise MatchError(f"absent: player {absent_seat} was credited points as the present player")
    score = list(state.score)
    score[present] += 1
    credited = replace(state, score=(score[0], score[1]))
    if score[present] < forfeit_points(state):
        return credited
    return _lose_match(credited, absent_seat, EndReason.ABSENT, now_ms)


def forfeit(state: MatchState, seat: int | None, note: str, now_ms: int) -> MatchState:
    """``seat`` loses the match at once: he withdrew, or an arbiter decided so."""
    loser = _seat(seat, "forfeit: say which player (0 or 1) loses the match")
    _note("forfeit", note)
    return _lose_match(state, loser, EndReason.FORFEIT, now_ms)


def void(state: MatchState, seat: int | None, note: str, now_ms: int) -> MatchState:
    """The match ends without a winner (an abandoned match an administrator voids;
    RULES.md 12: its stakes are released). The game in progress scores nothing."""
    if seat is not None:
        raise WrongPlayerError("void: a void match concerns both players; give no player")
    _note("void", note)
    return _lose_match(state, None, EndReason.VOID, now_ms)
