"""Jellyfish ``.mat`` match files for tabla (RULES.md 9.4), as GNU Backgammon reads
and writes them.

The layout, as gnubg writes it::

     5 point match

     Game 1
     White : 0                      Black : 0
      1)                             21: 13/11 24/23
      2) 52: 13/8 24/22               Doubles => 2
      3)  Takes                      63: 8/5 11/5
          ...
                                      Wins 1 point

Each line holds one action of White (left) and one of Black (right); the players'
actions alternate, so a cell follows the previous one in the next free slot of its
player's column. A roll cell is ``<dice>: <steps>``, each step ``from/to`` in the
mover's numbering with 25 for the bar, 0 for off and ``*`` for a hit. ``Wins N
points`` closes a game in the winner's column; a game that ends with it although
the board is not finished and nobody dropped was resigned. A player who rolls and
then resigns gets his roll written with no move (``51:``); where a move was possible
that reads as the roll followed by the resignation, where none was, as a pass.
"""

from __future__ import annotations

import re
from dataclasses import replace

from tavla.core.digits import is_digits, parse_roll_text
from tavla.core.errors import NotationError
from tavla.match.actions import MatchAction, action_kind, apply_action
from tavla.match.record import MatchRecord
from tavla.match.resign import LEVEL_NAMES
from tavla.match.settings import MatchSettings
from tavla.match.state import MatchState, new_state
from tavla.rules.backgammon.position import BackgammonPosition

LEFT_WIDTH = 28
PREFIX_WIDTH = 5

Cell = tuple[int, str]  # (seat: 0 left, 1 right; text)


# -------------------------------------------------------------------- export
def _step_text(step: tuple[int, int, bool]) -> str:
    return f"{step[0]}/{step[1]}{'*' if step[2] else ''}"


def _wins(points: int) -> str:
    return f" Wins {points} point{'s' if points != 1 else ''}"


def _layout(cells: list[Cell]) -> list[str]:
    """Place cells in alternating slots: slot 2k is line k's left, 2k+1 its right."""
    slots: dict[int, str] = {}
    slot = -1
    for seat, text in cells:
        slot += 1
        if slot % 2 != seat:
            slot += 1
        slots[slot] = text
    lines: list[str] = []
    for line in range((slot + 2) // 2):
        left, right = slots.get(2 * line, ""), slots.get(2 * line + 1, "")
        only_wins = all(text == "" or text.startswith(" Wins") for text in (left, right))
        prefix = " " * PREFIX_WIDTH if only_wins else f"{line + 1:3d}) "
        body = (left.ljust(LEFT_WIDTH - 1) + " " + right) if right else left
        lines.append((prefix + body).rstrip())
    return lines


def _seat(action: MatchAction) -> int:
    """The player who made ``action``; every cube action and move names one."""
    if action.seat is None:
        raise NotationError("mat", action.kind, "the action names no player")
    return action.seat


def _game_cells(states: list[MatchState], actions: list[MatchAction]) -> list[Cell]:
    """The cells of one game; ``states[i]`` is the state before ``actions[i]``."""
    cells: list[Cell] = []
    dice = ""
    roller: int | None = None  # who rolled ``dice`` and has not moved yet
    for before, action, after in zip(states, actions, states[1:], strict=False):
        kind = action.kind
        if kind == "roll":
            roll = parse_roll_text(action.value)
            dice = f"{max(roll)}{min(roll)}"
            roller = after.actor
        elif kind == "move":
            seat = _seat(action)
            roller = None
            position = before.position
            if not isinstance(position, BackgammonPosition):
                raise NotationError("game", position.game, ".mat files hold the tabla family only")
            turn = position.parse_turn(action.value)
            steps = " ".join(_step_text(step) for step in position.playing_steps(turn))
            cells.append((seat, f"{dice}: {steps}".rstrip() if steps else f"{dice}:"))
        elif kind == "double":
            cells.append((_seat(action), f" Doubles => {before.cube.value * 2}"))
        elif kind in ("take", "drop", "beaver"):
            cells.append((_seat(action), f" {kind.capitalize()}s"))
        elif kind == "raccoon":
            raise NotationError("mat", "raccoon", "the .mat format has no raccoons")
        # A game stopped by a forfeit without points (three warnings) has no .mat line.
        ended = after.result is not None and before.result is None
        if ended and roller is not None and kind == "accept":
            cells.append((roller, f"{dice}:"))  # rolled, then resigned: gnubg's form
        if ended and after.result is not None and after.result.winner is not None and after.result.points:
            cells.append((after.result.winner, _wins(after.result.points)))
    return cells


def export_mat(record: MatchRecord) -> str:
    """The record as a Jellyfish ``.mat`` text (tabla matches only)."""
    settings = record.settings
    if record.setup is not None:
        raise NotationError("mat", "setup", "a .mat match starts at its first game, not from a position")
    if not settings.definition.facts.gnubg_rules or settings.money:
        raise NotationError("mat", settings.game, "only tabla matches to N points export to .mat")
    if settings.next_game_start != "opening_roll":
        # .mat readers take each game's first roll for an opening roll.
        raise NotationError("mat", settings.next_game_start, "only matches with opening rolls export to .mat")
    names = [
        name.replace(" ", "_").replace(":", "_") or f"Player{seat}"
        for seat, name in enumerate(settings.names)
    ]
    state = new_state(settings)
    games: list[tuple[tuple[int, int], list[MatchState], list[MatchAction]]] = []
    for action in record.actions:
        state, _ = apply_action(state, action)
        if action.kind == "start":
            games.append((state.score, [state], []))
        elif games:
            games[-1][1].append(state)
            games[-1][2].append(action)
    lines = [f" {settings.length} point match", ""]
    for number, (game_score, game_states, game_actions) in enumerate(games, start=1):
        lines.append(f" Game {number}")
        lines.append(f" {names[0]} : {game_score[0]}".ljust(32) + f"{names[1]} : {game_score[1]}")
        lines.extend(_layout(_game_cells(game_states, game_actions)))
        lines.append("")
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------- import
_NUMBERED = re.compile(r"^\s*[0-9]+\)")
_CELL_START = re.compile(r"([0-9][0-9]:|Doubles|Takes|Drops|Beavers|Raccoons|Wins)")
_MATCH_LENGTH = re.compile(r"^\s*([0-9]+)\s+point\s+match", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+([0-9]+)", re.IGNORECASE)
_HEADER = re.compile(r"^\s*(\S+)\s*:\s*([0-9]+)\s+(\S+)\s*:\s*([0-9]+)\s*$")
_RIGHT_COLUMN = 30  # cells that start this far right belong to the second player


def _cells_of_line(line: str) -> list[Cell]:
    body_start = 0
    numbered = _NUMBERED.match(line)
    if numbered:
        body_start = numbered.end()
    starts = [m.start() for m in _CELL_START.finditer(line, body_start)]
    starts = [s for s in starts if s == body_start or line[s - 1] == " "]
    unread = line[body_start : starts[0] if starts else len(line)].strip()
    if unread:
        raise NotationError("mat", unread, "expected a roll, Doubles, Takes, Drops or Wins")
    cells: list[Cell] = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(line)
        seat = 1 if (index > 0 or start >= _RIGHT_COLUMN) else 0
        cells.append((seat, line[start:end].strip()))
    return cells


def _move_text(steps: str) -> str:
    tokens = []
    for token in steps.split():
        parts = token.split("/")
        if parts[0] == "25":
            parts[0] = "bar"
        if parts[-1] in ("0", "0*"):
            parts[-1] = "off"
        tokens.append("/".join(parts))
    return " ".join(tokens) or "-"


class _Importer:
    def __init__(self, settings: MatchSettings) -> None:
        self.state = new_state(settings)
        self.actions: list[MatchAction] = []

    def act(self, kind: str, seat: int | None, value: str = "") -> None:
        try:
            self.state, recorded = apply_action(self.state, MatchAction(action_kind(kind), seat, value, 0))
        except NotationError:
            raise
        except ValueError as error:
            raise NotationError(
                "mat", f"{kind} {value}".strip(), f"game {self.state.game_number}: {error}"
            ) from None
        self.actions.append(recorded)

    def cell(self, seat: int, text: str) -> None:
        if is_digits(text[:2]) and text[2:3] == ":":
            dice, steps = text[:2], text[3:]
            if self.state.phase == "opening":
                high, low = max(dice), min(dice)
                self.act("roll", None, high + low if seat == 0 else low + high)
            else:
                self.act("roll", seat, dice)
            if steps.strip() or not self._can_move():
                self.act("move", seat, _move_text(steps))
            # else: a roll with no move although one is possible, as gnubg writes a roll
            # followed by a resignation; the opponent's ``Wins`` cell comes next.
        elif text.startswith("Doubles"):
            self.act("double", seat)
        elif text.startswith(("Takes", "Drops", "Beavers", "Raccoons")):
            self.act(text.split()[0].lower()[:-1], seat)
        else:  # "Wins": a cell starts with nothing else (_CELL_START)
            self.wins(seat, text)

    def _can_move(self) -> bool:
        """Whether the player on roll has a move other than passing."""
        return any(turn.text != "-" for turn in self.state.position.legal_turns())

    def wins(self, seat: int, text: str) -> None:
        found = re.match(r"Wins\s+([0-9]+)\s+points?", text)
        if found is None:
            raise NotationError("mat", text, "expected 'Wins N points'")
        points = int(found.group(1))
        if self.state.result is None:  # the board is not finished: a resignation
            value = self.state.cube.value
            if points % value or not 1 <= points // value <= 3:
                raise NotationError("mat", text, f"not 1, 2 or 3 times the cube ({value})")
            self.act("resign", 1 - seat, LEVEL_NAMES[points // value])
            self.act("accept", seat)
        result = self.state.result
        if result is None:  # resigned above when the board was not finished
            raise NotationError("mat", text, "the game has not ended")
        if (result.winner, result.points) != (seat, points):
            raise NotationError(
                "mat", text, f"the game ended with player {result.winner} winning {result.points} points"
            )


class _Reader:
    """The lines of a ``.mat`` file, one by one: the match length, game headers, actions."""

    def __init__(self) -> None:
        self.importer: _Importer | None = None
        self.names = ("White", "Black")
        self.pending_header = False

    def line(self, line: str) -> None:
        if not line.strip() or line.lstrip().startswith(";"):
            return
        importer = self.importer
        if importer is None:
            found = _MATCH_LENGTH.match(line)
            if found is None:
                raise NotationError("mat", line.strip(), "expected 'N point match' first")
            length = int(found.group(1))
            if length < 1:
                raise NotationError("mat", line.strip(), "only matches to N points are read")
            self.importer = _Importer(MatchSettings("tabla", length))
            return
        if _GAME.match(line):
            if importer.state.phase != "between":
                raise NotationError("mat", line.strip(), "the previous game has no result")
            importer.act("start", None)
            self.pending_header = True
            return
        header = _HEADER.match(line)
        if self.pending_header and header:
            self.pending_header = False
            self.names = (header.group(1), header.group(3))
            expected = (int(header.group(2)), int(header.group(4)))
            if expected != importer.state.score:
                raise NotationError("mat", line.strip(), f"the score so far is {importer.state.score}")
            return
        for seat, cell in _cells_of_line(line):
            importer.cell(seat, cell)


def import_mat(text: str) -> MatchRecord:
    """Read a Jellyfish ``.mat`` tabla match into a record; raises NotationError, whose
    field names the line (``mat line 12``) of anything it cannot read."""
    reader = _Reader()
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            reader.line(raw.rstrip())
        except NotationError as error:
            if error.field != "mat":
                raise
            raise NotationError(f"mat line {number}", error.value, error.reason) from None
    importer = reader.importer
    if importer is None:
        raise NotationError("mat", text[:40], "empty match file")
    settings = replace(importer.state.settings, names=reader.names)
    return MatchRecord(settings, importer.actions)
