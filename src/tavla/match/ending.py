"""How a game ends: its points with the cube, and the match decided by it."""

from __future__ import annotations

from dataclasses import replace

from tavla.match.state import EndReason, GameResult, MatchState


def score_points(state: MatchState, raw: int) -> int:
    """Points before the cube times the cube; Jacoby in money play (RULES.md 9.2)."""
    if state.settings.money and state.settings.jacoby and not state.cube.turned:
        raw = 1
    return raw * state.cube.value


def finish_game(
    state: MatchState, result: GameResult, now_ms: int, *, match_loser: int | None = None
) -> MatchState:
    """Close the game in progress with ``result``; score it, stop the clock, and end
    the match when it is decided (``match_loser`` forfeits the whole match)."""
    score = list(state.score)
    if result.winner is not None:
        score[result.winner] += result.points
    results = (*state.results, result)
    decided = [r for r in results if r.winner is not None]
    over, winner = False, None
    forfeit = None
    if match_loser is not None:
        over, winner, forfeit = True, 1 - match_loser, EndReason(result.reason)
    elif not state.has_dice:
        sets = state.settings.sets
        leader = 0 if score[0] > score[1] else 1
        if score[leader] * 2 > sets or len(decided) >= sets:
            over = True
            winner = None if score[0] == score[1] else leader
    elif state.settings.money:
        over, winner = result.winner is not None, result.winner
    else:
        for seat in (0, 1):
            if score[seat] >= state.settings.length:
                over, winner = True, seat
    clock = None if state.clock is None else state.clock.stop(now_ms)
    return replace(
        state,
        score=(score[0], score[1]),
        result=result,
        results=results,
        over=over,
        winner=winner,
        resign=None,
        cube=replace(state.cube, offer=None),
        clock=clock,
        forfeit=forfeit,
    )
