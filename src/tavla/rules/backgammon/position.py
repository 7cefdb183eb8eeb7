"""Tabla (backgammon), the base of the tabla family (RULES.md 1-2).

A position is an immutable value in White's numbering: 24 signed point counts
(White positive), the bar and off counts per player, the side to act and the dice.
Variants (antitabla, chelebi) subclass it and override the few hooks they change:
``dice_sequences`` and ``outcome``.

The family is a game of the dice-game framework (:mod:`tavla.rules.dicegame`): the
same turn class, step builder, bounded listing and ``best_turns`` as the other dice
games. Two accelerators stand behind that interface: the whole-turn generator of
:mod:`tavla.rules.backgammon.turngen` lists turns (a test checks that it lists what
the framework's search lists), and :mod:`tavla.rules.backgammon.textsearch` reads a
turn's text on a double too large to list.

A turn's text is that of its first playing order: the dice orders in turn, then the
step function's order of steps (highest point first), as the framework's search
finds it; however a turn is found or entered, it gets that one text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import neg
from typing import ClassVar, Self, cast

from tavla.core.definition import BoardKind, Direction, GameFacts, NotationKind
from tavla.core.dice import Roll
from tavla.core.errors import IllegalMoveError, NotationError
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason
from tavla.core.registry import register
from tavla.rules import tpn
from tavla.rules.backgammon.movegen import Board, State, tabla_steps
from tavla.rules.backgammon.textsearch import TextSearch
from tavla.rules.backgammon.turngen import turn_boards, turn_boards_within
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn, MaybeStep
from tavla.rules.movetext import Step, format_turn, parse_move
from tavla.rules.tpn_checks import split_for_game
from tavla.rules.turns import StepFunction
from tavla.rules.walks import walks_fit

CHECKERS = 15
PARSE_LIST_LIMIT = 20_000
"""Up to this many legal turns, reading a move text compares it with the listed turns;
beyond (progressive doubles), a search finds the turn the text describes."""
_new_object = object.__new__
_set_attribute = object.__setattr__  # bypasses the frozen dataclass's guard


def _start_points() -> tuple[int, ...]:
    points = [0] * 24
    for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        points[point - 1] += count  # White, his numbering = White's
        points[24 - point] -= count  # Black's point p is White's 25 - p
    return tuple(points)


def tabla_family_facts(title: str, gnubg_rules: bool = False) -> GameFacts:
    """The facts of tabla, antitabla and chelebi: one board and movement, a bar, the cube."""
    return GameFacts(
        title=title,
        board=BoardKind.POINTS,
        notation=NotationKind.TPN,
        direction=Direction.OPPOSITE,
        has_dice=True,
        has_bar=True,
        has_pips=True,
        has_cube=True,
        stacks_colours=False,
        checkers=CHECKERS,
        gnubg_compatible=True,
        gnubg_rules=gnubg_rules,
    )


@register(tabla_family_facts("Tabla", gnubg_rules=True), "backgammon", "tavla", "portes")
@dataclass(frozen=True)
class BackgammonPosition(DiceGame[State]):
    """A tabla position. ``points[i]`` is White's point ``i + 1``; Black negative."""

    game: ClassVar[str] = "tabla"
    start_points: ClassVar[tuple[int, ...]] = _start_points()

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    side: int = WHITE
    dice: Roll | None = None

    # ----------------------------------------------------------------- construction
    @classmethod
    def start(cls) -> Self:
        return cls(points=cls.start_points)

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise NotationError("points", str(len(self.points)), "a position has 24 points")

    def _replace(self, **changes: object) -> Self:
        values = {
            "points": self.points,
            "bar": self.bar,
            "off": self.off,
            "side": self.side,
            "dice": self.dice,
        }
        values.update(changes)
        return type(self)(**values)  # type: ignore[arg-type]

    # ------------------------------------------------------------- mover's view
    def mover_state(self) -> State:
        """The search state (see ``movegen``) with the side to act as the mover."""
        pts = self.points
        if self.side == WHITE:
            mine = [self.off[0], *(n if n > 0 else 0 for n in pts), self.bar[0]]
            theirs = [self.off[1], *(-n if n < 0 else 0 for n in reversed(pts)), self.bar[1]]
        else:
            mine = [self.off[1], *(-n if n < 0 else 0 for n in reversed(pts)), self.bar[1]]
            theirs = [self.off[0], *(n if n > 0 else 0 for n in pts), self.bar[0]]
        return (*mine, *theirs)

    def from_mover_state(self, state: State) -> Self:
        """The position after the mover's turn produced ``state``: opponent to roll."""
        mine = state[1:25]
        theirs = state[27:51]
        if self.side == WHITE:
            points = tuple(m - t for m, t in zip(mine, reversed(theirs), strict=True))
            bar = (state[25], state[51])
            off = (state[0], state[26])
        else:
            points = tuple(t - m for t, m in zip(theirs, reversed(mine), strict=True))
            bar = (state[51], state[25])
            off = (state[26], state[0])
        return type(self)(points, bar, off, 1 - self.side, None)

    def mover_board(self) -> Board:
        """The whole-turn generator's Board (see ``movegen``), the side to act moving."""
        pts = self.points
        if self.side == WHITE:
            return (self.off[0], *pts, self.bar[0], self.bar[1])
        return (self.off[1], *map(neg, reversed(pts)), self.bar[1], self.bar[0])

    def from_mover_board(self, board: Board) -> Self:
        """The position after the mover's turn produced ``board``: opponent to roll.

        Built without the dataclass ``__init__`` (a frozen dataclass sets each field
        through ``object.__setattr__``): the board comes from a legal turn, so there
        is nothing to check, and a turn list may build thousands of these.
        """
        if self.side == WHITE:
            fields = {
                "points": board[1:25],
                "bar": (board[25], board[26]),
                "off": (board[0], self.off[1]),
                "side": BLACK,
                "dice": None,
            }
        else:
            fields = {
                "points": tuple(map(neg, board[24:0:-1])),
                "bar": (board[26], board[25]),
                "off": (self.off[0], board[0]),
                "side": WHITE,
                "dice": None,
            }
        after = _new_object(type(self))
        _set_attribute(after, "__dict__", fields)
        return after

    # A listed turn's pending value is its Board: building the position is
    # from_mover_board itself, with no call in between (a turn list may build
    # thousands of positions).
    build_after = from_mover_board  # type: ignore[assignment]

    # ------------------------------------------------------------ framework hooks
    def step_function(self) -> StepFunction[State, MaybeStep]:
        return tabla_steps

    def dice_sequences(self, roll: Roll) -> list[list[int]]:
        """The orders in which the dice of ``roll`` may be played (RULES.md 1.3)."""
        high, low = max(roll), min(roll)
        if high == low:
            return [[high] * 4]
        return [[high, low], [low, high]]

    def turn_sequences(self) -> tuple[list[list[int]], bool]:
        return self.dice_sequences(self._require_dice()), True

    def after_turn(self, state: State, dice_played: int) -> Self:
        return self.from_mover_state(state)

    def _require_dice(self) -> Roll:
        self._require_decision()
        return cast(Roll, self.dice)

    # -------------------------------------------------------- the fast generator
    def _generate_turns(self) -> tuple[DiceTurn[Self], ...]:
        start = self.mover_board()
        found = turn_boards(start, self.dice_sequences(self._require_dice()), prefer_first=True)
        return self._board_turns(start, found)

    def _board_turns(
        self, start: Board, found: tuple[int, dict[Board, tuple[Step, ...]]]
    ) -> tuple[DiceTurn[Self], ...]:
        played, boards = found
        if played == 0:
            return (DiceTurn((), None, self, start),)
        return tuple([DiceTurn(steps, None, self, board) for board, steps in boards.items()])

    def legal_turns_within(self, limit: int) -> Sequence[DiceTurn[Self]] | None:
        """The legal turns, or None as soon as the distinct positions after a group of
        dice exceed ``limit`` (chelebi's 1-1 has over 100,000 turns; a mid-game 3-3 can
        have millions): bounded work for callers that must not stall."""
        if "_turns" in self.__dict__ or self.outcome() is not None:
            return self.legal_turns()
        start = self.mover_board()
        sequences = self.dice_sequences(self._require_dice())
        found = turn_boards_within(start, sequences, limit, prefer_first=True)
        if found is None:
            return None
        turns = self._board_turns(start, found)
        self.__dict__["_turns"] = turns  # the cached_property's slot
        return turns

    # ---------------------------------------------------------------- turn text
    def turn_text(self, turn: DiceTurn[Self]) -> str:
        """The text of the turn's first playing order (see the module docstring)."""
        return format_turn(self.playing_steps(turn))

    def playing_steps(self, turn: DiceTurn[Self]) -> tuple[Step, ...]:
        """The steps of the turn's first playing order, die by die."""
        first = self.find_turn(turn.after.mover_state_of(self.side))
        return first.steps if first is not None else turn.steps

    def could_reach(self, state: State, target: State, dice: Sequence[int]) -> bool:
        # The mover's checkers only move down: on and above any point they can only
        # become fewer. The opponent's only leave their points, for the bar.
        above_now = above_target = pips_now = pips_target = 0
        for point in range(25, 0, -1):
            now, then = state[point], target[point]
            above_now += now
            above_target += then
            if above_now < above_target:
                return False
            pips_now += point * now
            pips_target += point * then
        for index in range(27, 51):
            if state[index] < target[index]:
                return False
        # Every die moves its full number of pips, except one bearing off from below.
        needed, left = pips_now - pips_target, sum(dice)
        if not (needed == left or (needed < left and target[0] > state[0])):
            return False
        # Only blots are hit: the opponent's points of two or more stay closed.
        closed = sum(1 << point for point in range(1, 25) if state[51 - point] >= 2)
        hits = sum(1 << point for point in range(1, 25) if state[51 - point] > target[51 - point])
        return walks_fit(state[:26], target[:26], dice, closed, hits)

    # ------------------------------------------------------------ reading text
    def parse_turn(self, text: str) -> DiceTurn[Self]:
        if self.outcome() is not None:
            raise IllegalMoveError(text, self.notation(), "the game is over")
        self._require_dice()
        try:
            parsed = parse_move(text)
        except NotationError as error:
            raise IllegalMoveError(text, self.notation(), f"unreadable move ({error})") from None
        board = list(self.mover_state()[:26])
        for path in parsed.paths:
            board[path[0]] -= 1
            board[path[-1]] += 1
        if min(board) < 0:
            raise IllegalMoveError(text, self.notation(), "moves a checker that is not there")
        target = tuple(board)
        turns = self.legal_turns_within(PARSE_LIST_LIMIT)
        if turns is None:  # a huge progressive double: search for this turn alone
            candidates = self._huge_double_candidates(parsed.paths, target)
        else:
            candidates = [t for t in turns if t.after.mover_state_of(self.side)[:26] == target]
        if not parsed.paths and not candidates:
            raise IllegalMoveError(text, self.notation(), "a move is possible, '-' is not legal")
        if len(candidates) > 1:
            exact = [t for t in candidates if {s[1] for s in t.steps if s[2]} == parsed.starred]
            if len(exact) == 1:
                return exact[0]
            raise IllegalMoveError(text, self.notation(), "ambiguous: mark the hits with '*'")
        if not candidates:
            raise IllegalMoveError(text, self.notation())
        return candidates[0]

    def _huge_double_candidates(
        self, paths: Sequence[tuple[int, ...]], target: tuple[int, ...]
    ) -> list[DiceTurn[Self]]:
        """The turns a move text can mean on a roll whose turns are too many to list."""
        planner = self._search_plan
        sequences = [dice[: planner.target] for dice in planner.remaining_dice()]
        search = TextSearch(self.mover_state(), sequences, tabla_steps, paths, target)
        return [DiceTurn(steps, self.from_mover_state(state), self) for steps, state in search.turns()]

    def mover_state_of(self, player: int) -> State:
        """The search state with ``player`` as the mover."""
        return self.with_side(player).mover_state() if player != self.side else self.mover_state()

    # ------------------------------------------------------------------ result
    def _home_count(self, player: int, home_owner: int) -> int:
        """Checkers of ``player`` in ``home_owner``'s home board."""
        indices = range(0, 6) if home_owner == WHITE else range(18, 24)
        sign = 1 if player == WHITE else -1
        return sum(self.points[i] * sign for i in indices if self.points[i] * sign > 0)

    def _loss_points(self, loser: int, winner: int) -> Outcome:
        if self.off[loser] > 0:
            return Outcome(winner, 1, OutcomeReason.SINGLE)
        if self.bar[loser] or self._home_count(loser, winner):
            return Outcome(winner, 3, OutcomeReason.BACKGAMMON)
        return Outcome(winner, 2, OutcomeReason.GAMMON)

    def outcome(self) -> Outcome | None:
        for player in (WHITE, BLACK):
            if self.off[player] == CHECKERS:
                return self._loss_points(1 - player, player)
        return None

    # ----------------------------------------------------------------- notation
    def notation(self) -> str:
        stacks = tuple(((n, WHITE),) if n > 0 else ((-n, BLACK),) if n < 0 else () for n in self.points)
        fields = tpn.TpnFields(self.definition.head, stacks, self.bar, self.off, self.side, self.dice, {})
        return tpn.join_tpn(fields)

    def __str__(self) -> str:
        return self.notation()

    @classmethod
    def from_notation(cls, text: str) -> Self:
        fields = split_for_game(text, cls.game)
        cls.DEFINITION.read_head(fields.game)  # the tabla family has no options to read
        return cls.from_fields(fields)

    @classmethod
    def from_fields(cls, fields: tpn.TpnFields) -> Self:
        if fields.extras:
            key = next(iter(fields.extras))
            raise NotationError(
                "extra field", f"{key}={fields.extras[key]}", f"{cls.game} has no extra fields"
            )
        points: list[int] = []
        for index, stack in enumerate(fields.points):
            if len(stack) > 1:
                raise NotationError(
                    f"point {index + 1}", tpn.format_stack(stack), f"{cls.game} has no stacked colours (pins)"
                )
            count, colour = stack[0] if stack else (0, WHITE)
            points.append(count if colour == WHITE else -count)
        for player, letter in ((WHITE, "White"), (BLACK, "Black")):
            on_board = sum(abs(n) for n in points if (n > 0) == (player == WHITE) and n)
            total = on_board + fields.bar[player] + fields.off[player]
            if total != CHECKERS:
                raise NotationError(
                    "checkers",
                    f"{letter} {total}",
                    f"{letter} has {on_board} on points, {fields.bar[player]} on the bar and "
                    f"{fields.off[player]} off: {total}, expected {CHECKERS}",
                )
        position = cls(tuple(points), fields.bar, fields.off, fields.side, fields.dice)
        if position.dice is not None and position.outcome() is not None:
            raise NotationError("dice", tpn.format_dice(position.dice), "the game is over: no dice to play")
        return position
