"""The fast turn generator against a slow, plainly written reference (RULES.md 1.3, 2-4).

The reference below reads the rules directly: a step function written from RULES.md 2,
every order of the dice (RULES.md 1.3 and 4), every choice of checker at every die,
as many dice as possible in order, the larger-die rule, and one turn per resulting
position. Its only shortcut is memoising on (position, dice already played), which
cannot change the answer: what can still happen depends on nothing else.
It shares no code with ``movegen``/``turngen``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.rules.backgammon.positions import parse

import tavla
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.backgammon.movegen import board_to_state, state_to_board, tabla_steps
from tavla.rules.backgammon.turngen import turn_boards
from tavla.rules.turns import search_turns

# ------------------------------------------------------------------ the reference


@dataclass(frozen=True)
class View:
    """The mover's side: ``mine[p]`` his checkers (0 off, 1-24, 25 bar), ``theirs[p]``
    the opponent's checkers on the mover's point p, ``their_bar`` hit checkers."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    their_bar: int


def view_of(position: BackgammonPosition) -> View:
    side = position.side
    mine = [0] * 26
    theirs = [0] * 25
    for p in range(1, 25):
        # White's point i is White's own i; Black's own p is White's 25 - p.
        n = position.points[p - 1] if side == WHITE else -position.points[24 - p]
        if n > 0:
            mine[p] = n
        elif n < 0:
            theirs[p] = -n
    mine[0] = position.off[side]
    mine[25] = position.bar[side]
    return View(tuple(mine), tuple(theirs), position.bar[1 - side])


def from_view(
    owner: type[BackgammonPosition], view: View, mover: int, their_off: int, to_act: int
) -> BackgammonPosition:
    """The position, in White's numbering, where ``mover`` has ``view``."""
    points = [0] * 24
    for p in range(1, 25):
        index = p - 1 if mover == WHITE else 24 - p
        signed = view.mine[p] - view.theirs[p]
        points[index] = signed if mover == WHITE else -signed
    bar = [0, 0]
    off = [0, 0]
    bar[mover], bar[1 - mover] = view.mine[25], view.their_bar
    off[mover], off[1 - mover] = view.mine[0], their_off
    return owner(tuple(points), (bar[0], bar[1]), (off[0], off[1]), to_act, None)


def position_of(view: View, before: BackgammonPosition) -> BackgammonPosition:
    """The position after the mover's turn ended in ``view``: the other side to roll."""
    return from_view(type(before), view, before.side, before.off[1 - before.side], 1 - before.side)


def reference_steps(view: View, die: int) -> list[tuple[tuple[int, int, bool], View]]:
    """RULES.md 2, one die: enter first; land on empty, own or a blot (hit it); bear
    off with all 15 home, exactly, or with a higher die from the highest point."""
    mine, theirs = view.mine, view.theirs
    sources = [25] if mine[25] else [p for p in range(1, 25) if mine[p]]
    all_home = not mine[25] and not any(mine[7:25])
    out = []
    for source in sources:
        target = source - die
        if target >= 1:
            if theirs[target] >= 2:
                continue
            hit = theirs[target] == 1
            new_mine = list(mine)
            new_mine[source] -= 1
            new_mine[target] += 1
            new_theirs = list(theirs)
            new_theirs[target] = 0
            after = View(tuple(new_mine), tuple(new_theirs), view.their_bar + hit)
            out.append(((source, target, hit), after))
        elif all_home and (target == 0 or not any(mine[source + 1 : 25])):
            new_mine = list(mine)
            new_mine[source] -= 1
            new_mine[0] += 1
            out.append(((source, 0, False), View(tuple(new_mine), theirs, view.their_bar)))
    return out


def reference_orders(game: str, roll: tuple[int, int]) -> list[tuple[int, ...]]:
    """RULES.md 1.3: both orders of a plain roll, four of a double; RULES.md 4: chelebi's
    doubles n-n are four n's, four (n+1)'s ... four 6's."""
    high, low = max(roll), min(roll)
    if high != low:
        return [(high, low), (low, high)]
    if game == "chelebi":
        return [tuple(value for value in range(high, 7) for _ in range(4))]
    return [(high,) * 4]


def reference_turns(position: BackgammonPosition, roll: tuple[int, int]) -> tuple[int, set[str]]:
    """(dice played, TPN of every resulting position) for ``roll``."""

    def best_from(view: View, dice: tuple[int, ...]) -> tuple[int, frozenset[View]]:
        @cache
        def explore(view: View, index: int) -> tuple[int, frozenset[View]]:
            if index == len(dice):
                return 0, frozenset([view])
            best, ends = 0, frozenset([view])
            for _, after in reference_steps(view, dice[index]):
                depth, found = explore(after, index + 1)
                if depth + 1 > best:
                    best, ends = depth + 1, found
                elif depth + 1 == best:
                    ends = ends | found
            return best, ends

        return explore(view, 0)

    start = view_of(position)
    per_order = [best_from(start, dice) for dice in reference_orders(position.game, roll)]
    most = max(depth for depth, _ in per_order)
    if most == 1 and per_order[0][0] == 1 and roll[0] != roll[1]:
        ends = set(per_order[0][1])  # the larger die, which can be played (RULES.md 1.3)
    else:
        ends = {view for depth, found in per_order if depth == most for view in found}
    return most, {position_of(view, position).notation() for view in ends}


def replays(
    position: BackgammonPosition, roll: tuple[int, int], steps: tuple[tuple[int, int, bool], ...]
) -> set[str]:
    """Where ``steps`` lead when each is a legal reference step of some order's dice."""
    reached = set()
    for dice in reference_orders(position.game, roll):
        view = view_of(position)
        for die, step in zip(dice, steps, strict=False):
            options = dict(reference_steps(view, die))
            if step not in options:
                break
            view = options[step]
        else:
            reached.add(position_of(view, position).notation())
    return reached


# ------------------------------------------------------------------ random positions


@st.composite
def positions(draw: st.DrawFn, game: str) -> BackgammonPosition:
    """Any position with the mover's checkers up to a drawn highest point (bear-off
    races to full boards), sometimes on the bar, and the opponent's in a few stacks
    (blocks, blots) on the free points, on the bar or off."""
    zone = draw(st.sampled_from([3, 6, 6, 8, 12, 18, 24]))
    bar = draw(st.sampled_from([0, 0, 0, 1, 2]))
    mine = [0] * 26
    mine[25] = bar
    for place in draw(st.lists(st.integers(0, zone), min_size=15 - bar, max_size=15 - bar)):
        mine[place] += 1
    if mine[0] == 15:
        mine[0], mine[1] = 14, 1
    free = [p for p in range(1, 25) if not mine[p]]
    stacks = draw(st.lists(st.sampled_from(free), min_size=1, max_size=8, unique=True))
    places = [*stacks, 0, 25]
    theirs = [0] * 26
    for place in draw(st.lists(st.sampled_from(places), min_size=15, max_size=15)):
        theirs[place] += 1
    if theirs[0] == 15:
        theirs[0], theirs[stacks[0]] = 14, 1
    side = draw(st.sampled_from([WHITE, BLACK]))
    view = View(tuple(mine), tuple(theirs[:25]), theirs[25])
    position_class = tavla.find_game(game).position_class
    assert issubclass(position_class, BackgammonPosition)
    return from_view(position_class, view, side, theirs[0], side)


ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]


def ours(
    position: BackgammonPosition, roll: tuple[int, int]
) -> tuple[int, set[str], list[tuple[object, ...]]]:
    rolled = position.with_roll(roll)
    turns = rolled.legal_turns()
    played = max(len(turn.steps) for turn in turns)
    return played, {turn.after.notation() for turn in turns}, [turn.steps for turn in turns]


def check_against_reference(position: BackgammonPosition, roll: tuple[int, int]) -> None:
    played, afters, paths = ours(position, roll)
    expected_played, expected = reference_turns(position, roll)
    assert played == expected_played, position.notation()
    assert afters == expected, position.notation()
    assert len(paths) == len(afters)  # one turn per resulting position (RULES.md 1.3)
    turns = position.with_roll(roll).legal_turns()
    assert all(len(turn.steps) == played for turn in turns)
    # Each turn's steps replay to its position: every turn where they are few, a spread
    # of some 400 where a progressive double has tens of thousands (replaying them all
    # took half of chelebi's test).
    for turn in turns[:: max(1, len(turns) // 400)] if played else ():
        assert turn.after.notation() in replays(position, roll, turn.steps), turn.text


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(positions("tabla"), st.sampled_from(ROLLS))
def test_tabla_turns_match_the_reference(position: BackgammonPosition, roll: tuple[int, int]) -> None:
    """RULES.md 1.3 and 2 on random positions: bar, hits, blocks, bear-off."""
    check_against_reference(position, roll)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("antitabla"), st.sampled_from(ROLLS))
def test_antitabla_turns_match_the_reference(position: BackgammonPosition, roll: tuple[int, int]) -> None:
    """RULES.md 3: antitabla moves exactly as tabla."""
    check_against_reference(position, roll)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("chelebi"), st.data())
def test_chelebi_turns_match_the_reference(position: BackgammonPosition, data: st.DataObject) -> None:
    """RULES.md 4: progressive doubles, in order, the first unplayable die ends the turn.

    Low doubles from spread positions have up to hundreds of thousands of turns, too
    many for the reference; they are drawn only for positions within the last 8 points."""
    spread = max((p for p in range(1, 26) if view_of(position).mine[p]), default=0) > 8
    rolls = [roll for roll in ROLLS if not spread or roll[0] != roll[1] or roll[0] >= 5]
    check_against_reference(position, data.draw(st.sampled_from(rolls)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("chelebi"), st.sampled_from(ROLLS))
def test_fast_generator_matches_the_generic_search(
    position: BackgammonPosition, roll: tuple[int, int]
) -> None:
    """``turn_boards`` and the generic breadth-first ``search_turns`` agree exactly."""
    sequences = position.dice_sequences(roll)
    if roll[0] == roll[1] and max(p for p in range(26) if view_of(position).mine[p]) > 8:
        sequences = [[roll[0]] * 4]  # keep the generic search small: one group of four
    generic = search_turns(position.mover_state(), sequences, tabla_steps, prefer_first=True)
    played, found = turn_boards(position.mover_board(), sequences, prefer_first=True)
    assert played == generic.dice_played
    assert set(found) == {state_to_board(state) for state in generic.turns}


def test_board_and_state_layouts_convert_both_ways() -> None:
    position = parse("tabla 2b/1w/-/-/-/5w/-/2w/-/-/-/5b/5w/-/-/-/3b/-/4b/-/-/-/-/1w 1,1 0,0 b -")
    state = position.mover_state()
    board = position.mover_board()
    assert state_to_board(state) == board
    assert board_to_state(board, position.off[1 - position.side]) == state
    assert position.from_mover_board(board).points == position.points


def test_chelebi_low_double_from_the_start_counts_groups() -> None:
    """RULES.md 4 from the start: 4-4 is four 4s, four 5s, four 6s; the reference agrees."""
    start = tavla.find_game("chelebi").start()
    assert isinstance(start, BackgammonPosition)
    check_against_reference(start, (4, 4))


def test_lazy_after_matches_a_position_built_from_the_steps() -> None:
    """``turn.after`` is built on first use; it must be what the steps produce."""
    position = parse("tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 31")
    turns = position.legal_turns()
    assert position.play(turns[3]) == turns[3].after
    for turn in turns:
        assert position.parse_turn(turn.text).after == turn.after
        assert turn.after.notation() in replays(position, (3, 1), turn.steps)


def test_legal_turns_within_gives_up_early_on_huge_progressive_doubles() -> None:
    """Chelebi's 1-1 from the start has 116,241 turns; a limit of 3000 positions per
    group of dice stops the search after the third group (85,076 positions)."""
    start = tavla.find_game("chelebi").start()
    assert start.with_roll((1, 1)).legal_turns_within(3000) is None
    four_four = start.with_roll((4, 4))
    within = four_four.legal_turns_within(100_000)
    assert within is not None
    assert {turn.after for turn in within} == {turn.after for turn in four_four.legal_turns()}
    # Tabla's 2-2 from the start has 75 turns: a limit below that gives up, one of
    # exactly 75 lists them all (the limit is the most that may be listed).
    tabla_start = tavla.find_game("tabla").start()
    assert tabla_start.with_roll((2, 2)).legal_turns_within(74) is None
    exact = tabla_start.with_roll((2, 2)).legal_turns_within(75)
    assert exact is not None and len(exact) == 75
    tabla = tabla_start.with_roll((2, 2))
    assert tabla.legal_turns_within(1000) == tabla.legal_turns()
