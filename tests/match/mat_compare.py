"""Compare a match record of ours with GNU Backgammon's reading of the same match.

gnubg's reading (written by ``gnubg_oracle.py``) lists every action with its player
(``X`` the first-named player, our seat 0; ``O`` seat 1), the dice and the checker
steps in the mover's numbering (25 the bar, 0 off), each game's result and final
board. The steps are applied here with an independent little mover, so a move
counts as the same when it leads to the same position.
"""

from __future__ import annotations

from typing import Any

from tavla.match.record import MatchRecord, replay_states
from tavla.match.state import MatchState
from tavla.rules.backgammon.position import BackgammonPosition

SEAT = {"X": 0, "O": 1}


def apply_steps(state: tuple[int, ...], steps: list[list[int]]) -> tuple[int, ...]:
    """Play gnubg's steps on a mover state (see ``rules/backgammon/movegen.py``)."""
    board = list(state)
    for start, end in steps:
        board[start] -= 1
        board[end] += 1
        if 1 <= end <= 24 and board[51 - end] == 1:
            board[51 - end] = 0
            board[51] += 1
        assert min(board) >= 0, f"step {start}/{end} moves a checker that is not there"
    return tuple(board)


def _games(record: MatchRecord) -> list[list[tuple[str, MatchState, MatchState, Any]]]:
    """Per game: (kind, state before, state after, action) of every action."""
    states = list(replay_states(record))
    games: list[list[tuple[str, MatchState, MatchState, Any]]] = []
    for action, before, after in zip(record.actions, states, states[1:], strict=False):
        if action.kind == "start":
            games.append([])
        elif games:
            games[-1].append((action.kind, before, after, action))
    return games


def final_boards(state: MatchState) -> list[list[int]]:
    """Both players' checkers in their own numbering, index 24 the bar (gnubg's board)."""
    position = state.position
    assert isinstance(position, BackgammonPosition)
    white = [max(n, 0) for n in position.points] + [position.bar[0]]
    black = [max(-n, 0) for n in reversed(position.points)] + [position.bar[1]]
    return [white, black]


def differences(record: MatchRecord, gnubg: dict[str, Any]) -> list[str]:
    """Every way gnubg's reading differs from ours (empty: the same match)."""
    found: list[str] = []
    final = list(replay_states(record))[-1]
    if list(final.score) != gnubg["final_score"]:
        found.append(f"final score: ours {final.score}, gnubg {gnubg['final_score']}")
    if gnubg["length"] != record.settings.length:
        found.append(f"length: ours {record.settings.length}, gnubg {gnubg['length']}")
    ours = _games(record)
    if len(ours) != len(gnubg["games"]):
        return [*found, f"games: ours {len(ours)}, gnubg {len(gnubg['games'])}"]
    for number, (our_game, their_game) in enumerate(zip(ours, gnubg["games"], strict=True), start=1):
        found.extend(f"game {number}: {text}" for text in _game_differences(our_game, their_game))
    return found


def _game_differences(
    ours: list[tuple[str, MatchState, MatchState, Any]], theirs: dict[str, Any]
) -> list[str]:
    found: list[str] = []
    moves = [(before, after, action) for kind, before, after, action in ours if kind == "move"]
    cube = [(kind, action.seat) for kind, _, _, action in ours if kind in ("double", "take", "drop")]
    their_moves = [a for a in theirs["actions"] if a["action"] == "move"]
    their_cube = [
        (a["action"], SEAT[a["player"]])
        for a in theirs["actions"]
        if a["action"] in ("double", "take", "drop")
    ]
    if cube != their_cube:
        found.append(f"cube actions: ours {cube}, gnubg {their_cube}")
    if len(moves) != len(their_moves):
        found.append(f"moves: ours {len(moves)}, gnubg {len(their_moves)}")
    for index, ((before, after, action), theirs_move) in enumerate(
        zip(moves, their_moves, strict=False), start=1
    ):
        seat = SEAT[theirs_move["player"]]
        assert isinstance(before.position, BackgammonPosition) and before.position.dice is not None
        assert isinstance(after.position, BackgammonPosition)
        dice = sorted(before.position.dice)
        if seat != action.seat or sorted(theirs_move["dice"]) != dice:
            found.append(f"move {index}: ours {action.seat} {dice}, gnubg {seat} {theirs_move['dice']}")
            continue
        expected = apply_steps(before.position.mover_state(), theirs_move["move"])
        if expected != after.position.mover_state_of(before.position.side):
            found.append(f"move {index}: ours {action.value!r}, gnubg {theirs_move['move']}")
    last = ours[-1][2] if ours else None
    info = theirs["info"]
    if last is not None and last.result is not None and "winner" in info:
        result = last.result
        if (result.winner, result.points) != (SEAT[info["winner"]], info["points-won"]):
            found.append(f"result: ours {result}, gnubg {info}")
        boards = final_boards(last)
        if sorted(boards) != sorted(theirs["final_board"]):
            found.append(f"final board: ours {boards}, gnubg {theirs['final_board']}")
    return found
