"""The cut of the search for a turn's first playing order (RULES.md 1.1, 4, 6.2).

A turn's text is that of its first playing order. On progressive doubles too many to
list, :meth:`DiceGame.find_turn` searches for it die by die and cuts every state from
which the turn can no longer end where it must (``could_reach``, for the tabla
family and gulbara through :func:`tavla.rules.walks.walks_fit`). A cut that refused
a state the turn can finish from would give a turn another text, or none; one that
refused too little leaves the search to wander (a chelebi 1-1 took 90 s before).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.bots.test_fast import playout_positions
from tests.rules.backgammon.positions import parse, tpn

from tavla.core.dice import ROLLS
from tavla.rules.backgammon.movegen import State
from tavla.rules.walks import _first_bear_off, walks_fit

pytestmark = pytest.mark.timeout(120)


class ExactOrders:
    """The first playing order of every legal turn, found with an exact oracle (the set
    of end states below each state, worked out in full), and the cut checked on the way:
    it must let every state through to each of its ends."""

    def __init__(self, position: Any, dice: tuple[int, ...]) -> None:
        self.position = position
        self.step_function = position.step_function()
        self.dice = dice
        self.checked: set[tuple[State, int]] = set()
        self.known: dict[tuple[State, int], frozenset[State]] = {}

    def ends(self, state: State, index: int) -> frozenset[State]:
        if (state, index) not in self.known:
            if index == len(self.dice):
                found = frozenset([state])
            else:
                following = self.step_function(state, self.dice[index])
                found = frozenset().union(*(self.ends(after, index + 1) for _, after in following))
            self.known[state, index] = found
        return self.known[state, index]

    def first_order(self, state: State, index: int, end: State) -> tuple[Any, ...]:
        if index == len(self.dice):
            return ()
        for step, after in self.step_function(state, self.dice[index]):
            if end in self.ends(after, index + 1):
                return (step, *self.first_order(after, index + 1, end))
        raise AssertionError(f"{end} is not below {state}")

    def check_cut(self, state: State, index: int) -> None:
        if (state, index) in self.checked:
            return
        self.checked.add((state, index))
        for end in self.ends(state, index):
            assert self.position.could_reach(state, end, self.dice[index:]), (state, end, self.dice[index:])
        if index < len(self.dice):
            for _, after in self.step_function(state, self.dice[index]):
                self.check_cut(after, index + 1)


def exact_first_orders(position: Any) -> dict[State, tuple[Any, ...]]:
    """Every end state of a legal turn with the steps of its first playing order."""
    planner = position.plan()
    start = position.mover_state()
    first: dict[State, tuple[Any, ...]] = {}
    for sequence in planner.remaining_dice():
        exact = ExactOrders(position, tuple(sequence[: planner.target]))
        exact.check_cut(start, 0)
        for end in exact.ends(start, 0):
            if end not in first:
                steps = exact.first_order(start, 0, end)
                first[end] = tuple(step for step in steps if step is not None)
    return first


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["tabla", "antitabla", "chelebi", "gulbara"]),
    st.integers(0, 10_000),
    st.integers(0, 1_000),
    st.sampled_from([roll for roll, _ in ROLLS]),
)
def test_the_cut_keeps_every_end_and_the_search_finds_the_first_order(
    game: str, seed: int, pick: int, roll: Any
) -> None:
    met = playout_positions(game, seed)
    check_every_first_order(met[pick % len(met)], roll)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["chelebi", "gulbara"]),
    st.integers(0, 10_000),
    st.integers(0, 1_000),
    st.sampled_from([roll for roll, _ in ROLLS]),
)
def test_the_same_late_in_the_progressive_games(game: str, seed: int, pick: int, roll: Any) -> None:
    """The last fifth of a game's positions, where its doubles bear off (RULES.md 4, 6.2)."""
    met = playout_positions(game, seed)
    late = met[len(met) * 4 // 5 :]
    check_every_first_order(late[pick % len(late)], roll)


def check_every_first_order(position: Any, roll: Any) -> None:
    # A gulbara completion has no roll: it plays the dice the opponent left.
    rolled = position if position.dice is None else position._replace(dice=roll)
    if rolled.outcome() is not None or rolled.legal_turns_within(3_000) is None:
        return
    for end, steps in exact_first_orders(rolled).items():
        found = rolled.find_turn(end)
        assert found is not None and found.steps == steps


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["tabla", "antitabla", "chelebi"]),
    st.lists(st.integers(1, 6), min_size=6, max_size=12),
    st.lists(st.sampled_from([*range(7, 19), 25]), min_size=1, max_size=3),
    st.lists(st.integers(1, 18), max_size=6),
    st.sampled_from([roll for roll, _ in ROLLS]),
)
def test_the_cut_keeps_every_end_of_a_turn_that_may_bear_off(
    game: str, home: list[int], outside: list[int], opponent: list[int], roll: Any
) -> None:
    """Near the bear-off, where the order of the dice holds the cut (RULES.md 2, 4): the
    mover has a few checkers outside home (25 is the bar) and the opponent, besides
    three checkers in his home, a few on the mover's points 1-18, blots or points."""
    # Chelebi's doubles below 4-4 play 12 dice or more: too many states for the oracle.
    assume(game != "chelebi" or roll[0] != roll[1] or roll[0] >= 4)
    white = Counter(point for point in home + outside if point < 25)
    black = Counter({3: 3}) + Counter(25 - point for point in opponent if point not in white)
    text = tpn(dict(white), dict(black), game=game, bar=(outside.count(25), 0), dice=f"{roll[0]}{roll[1]}")
    check_every_first_order(parse(text), roll)


ONE_ONE_TURNS = [
    # Its first order took the search 11 million checks of its cut before the walks (92 s).
    (
        "chelebi 2b/4w/-/1b/-/3w/1w/-/-/-/1w/4b/3w/-/-/-/1b/-/1b/3b/1w/-/2b/1w 1,1 0,0 b 11",
        "chelebi 1b/4w/-/-/-/3w/-/-/-/-/-/-/3w/-/1b/1b/-/2b/3b/1b/-/4b/1b/1b 5,0 0,0 w -",
        "bar/10 24/14*/6 21/18*/6 13/9 13/7(2) 13/3 8/3 5/3 5/4*/3 2/1*",
    ),
    # A bot's turn that bears off: 24 s with the walks before they read the dice's order.
    (
        "chelebi -/4w/1b/-/-/2w/1w/1b/-/-/-/1w/4w/1b/-/-/2b/1w/1w/4b/-/1b/4b/1w 0,1 0,0 b 11",
        "chelebi -/4w/-/-/-/2w/-/-/-/-/-/-/4w/-/-/-/-/-/-/3b/2b/3b/3b/2b 5,0 0,2 w -",
        "bar/7*/3 22/18*/13*/4 17/off 11/6*/1 8/4 8/3 5/off 2/1*",
    ),
]


@pytest.mark.parametrize(("before", "after", "text"), ONE_ONE_TURNS)
def test_a_chelebi_one_one_turn_has_its_first_order(before: str, after: str, text: str) -> None:
    """RULES.md 4: 1-1 plays 24 dice; each text here is the one the weaker cuts found."""
    position = parse(before)
    end = parse(after)
    found = position.find_turn(end.mover_state_of(position.side))
    assert found is not None and found.after == end
    assert found.text == text


def test_states_the_walks_refuse() -> None:
    """Each state here passes the older tests (checkers only move down, the pips fit the
    dice) and cannot end as wanted."""
    # Three checkers must move and two dice are left.
    start = parse(tpn({10: 1, 9: 1, 8: 1, 6: 12}, {1: 2}, dice="54"))
    end = parse(tpn({7: 1, 6: 13, 5: 1}, {1: 2})).mover_state()
    assert not start.could_reach(start.mover_state(), end, (5, 4))
    end = parse(tpn({10: 1, 6: 12, 4: 2}, {1: 2})).mover_state()
    assert start.could_reach(start.mover_state(), end, (5, 4))
    # 13/7 with two 3s lands on 10, which the opponent holds (his 15); open, it passes.
    for black, reachable in (({15: 2}, False), ({16: 2}, True)):
        start = parse(tpn({13: 1, 6: 14}, black, dice="33"))
        end = parse(tpn({7: 1, 6: 14}, black)).mover_state()
        assert start.could_reach(start.mover_state(), end, (3, 3)) is reachable
    # 13/8 with a 3 and a 2 lands on 10 or 11 on the way, never on 9: the blot there
    # (Black's 16) cannot be the one on the bar at the end; on 10 (his 15) it can.
    for blot, reachable in ((16, False), (15, True)):
        start = parse(tpn({13: 1, 6: 14}, {blot: 1, 1: 2}, dice="32"))
        end = parse(tpn({8: 1, 6: 14}, {1: 2}, bar=(0, 1))).mover_state()
        assert start.could_reach(start.mover_state(), end, (3, 2)) is reachable


def board(**points: int) -> list[int]:
    """The mover's checkers from off (``p0``) to the bar (``p25``)."""
    counts = [0] * 26
    for name, count in points.items():
        counts[int(name[1:])] = count
    return counts


def test_walks_fit_reads_each_checkers_walks() -> None:
    closed_10 = 1 << 10
    # One checker, 13 to 7: two 3s land on 10; a 2 and a 4 can go round it.
    assert not walks_fit(board(p13=1), board(p7=1), (3, 3), closed_10)
    assert walks_fit(board(p13=1), board(p7=1), (2, 4), closed_10)
    assert walks_fit(board(p13=1), board(p7=1), (3, 3), 0)
    # A checker that cannot walk to any point to be reached.
    assert not walks_fit(board(p13=1, p12=1), board(p11=1, p6=1), (4, 4), 0)
    # A point to be reached that no leaving checker can walk to: both reach only 8.
    assert not walks_fit(board(p13=1, p12=1), board(p8=1, p1=1), (5, 4), 0)
    assert walks_fit(board(p13=1, p12=1), board(p8=1, p4=1), (5, 4), 0)
    # The fewest dice: 10 to 8 takes both 1s, and 9 must still move.
    assert not walks_fit(board(p10=1, p9=1), board(p8=1, p7=1), (1, 1), 0)
    assert walks_fit(board(p10=1, p9=1), board(p8=1, p7=1), (1, 1, 1), 0)
    # Bearing off from below with the last die only: 3 with a 2 lands on 1, then off.
    assert walks_fit(board(p3=1), board(p0=1), (2, 6), 0)
    assert not walks_fit(board(p3=2), board(p0=1, p3=1), (2, 2), 1 << 1)
    # A blot to hit on the way: 13 to 8 with a 3 and a 2 lands on 10 or 11.
    assert walks_fit(board(p13=1), board(p8=1), (3, 2), 0, hits=1 << 10)
    assert not walks_fit(board(p13=1), board(p8=1), (3, 2), 0, hits=1 << 9)
    # Pairing off with a blot to hit: 24 and 23 can reach the two slots on 18, and 13 the
    # one on 3. A blot on 20 can only be hit by 24's 4, after which it cannot stop on 18:
    # it would have to go on to 3, which 13 can reach alone.
    now, then, dice = board(p24=1, p23=1, p13=1), board(p18=2, p3=1), (4, 5, 6, 6)
    assert walks_fit(now, then, dice, 0)
    assert not walks_fit(now, then, dice, 0, hits=1 << 20)
    assert walks_fit(now, then, dice, 0, hits=1 << 9)  # 13/9*/3
    assert walks_fit(board(p13=1), board(p10=1), (3,), 0, hits=1 << 10)  # 13/10*, staying
    # One checker cannot hit for two slots: 20 alone reaches 19, and 2 by way of 14;
    # 8 reaches only 2. The blot on 14 is hit on 20's way to 2, and then nobody
    # reaches 19.
    now, then, dice = board(p20=1, p8=1), board(p19=1, p2=1), (1, 6, 6, 6)
    assert walks_fit(now, then, dice, 0, hits=1 << 19)  # 20/19*, 8/2
    assert not walks_fit(now, then, dice, 0, hits=(1 << 19) | (1 << 14))
    # Nothing moves, nothing left to play.
    assert walks_fit(board(p6=2), board(p6=2), (), 0)
    assert not walks_fit(board(p6=2), board(p6=2), (1,), 0)
    assert not walks_fit(board(p3=1), board(p0=1), (), 0)


BEARING_OFF = [
    # (the mover's checkers now, at the end, dice in an order that cannot end there,
    #  the same dice in one that can)
    # The 1 cannot bear a checker off 2, and the 6 bears off one only.
    ({2: 2}, {0: 2}, (1, 6), (2, 6)),
    # 9/3 must come before 1/off: a 1 first, then a 6, leaves too few dice.
    ({9: 1, 1: 1}, {3: 1, 0: 1}, (1, 6), (6, 1)),
    # 15/4 takes a 5 and the 6: played 5, 5, 6, the checker from 15 is home only after
    # both 5s, and the 6 would bear the checker on 5 off wasting a pip the dice lack.
    ({15: 1, 5: 1}, {4: 1, 0: 1}, (5, 5, 6), (5, 6, 5)),
    # The dice have 1 pip to spare, so the walk off wastes 1; played 6, 3, 4, the 6
    # comes while 9 and 7 are outside, and the 4 bears off from 3 only the highest
    # checker, where one is to end on 4.
    ({9: 1, 7: 1}, {4: 1, 0: 1}, (6, 3, 4), (3, 4, 6)),
    # Both 7s need the 5 and the 2 to be home by then, so the walks off end with 6s:
    # the checker on 4 wastes 2 pips with one, another walk off at least 1, where the
    # dice have 2 to spare.
    ({7: 2, 4: 1}, {1: 1, 0: 2}, (5, 2, 6, 6), (6, 6, 5, 2)),
    # 7 is outside home: the 2 comes before it is home, and 2/off with the 6 or the 1
    # would waste pips the dice lack.
    ({7: 1, 2: 1}, {0: 2}, (2, 6, 1), (6, 1, 2)),
    # 10 and 9 need 7 pips to get home, more than 1 and 5 have, so the walk off ends
    # with the 6, exactly (no pip to spare), and no checker can stand on 6 for it.
    ({10: 1, 9: 1, 2: 1}, {2: 2, 0: 1}, (1, 5, 5, 6), (6, 5, 5, 1)),
    # Each its own dice home: 10 takes both 3s, 8 one die more, so the walk off ends
    # with the 1, exactly, and no checker can stand on 1 for it.
    ({10: 1, 8: 1, 3: 1}, {6: 1, 3: 1, 0: 1}, (3, 3, 5, 1), (5, 3, 1, 3)),
    # No pip to spare: a walk off wasting one is dropped, and without them the three
    # checkers cannot pair off with the three places.
    ({12: 1, 9: 1, 8: 1}, {5: 1, 3: 1, 0: 1}, (6, 6, 5, 4), (5, 6, 4, 6)),
]


def play_out(now: tuple[int, ...], dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every position the mover's checkers (alone on the board) can end in playing
    ``dice`` in their order, each die played: an exact account of RULES.md 2."""
    if not dice:
        return {now}
    highest = max((point for point in range(1, 26) if now[point]), default=0)
    ends: set[tuple[int, ...]] = set()
    for point in range(1, 26):
        landing = point - dice[0]
        bearing_off = highest <= 6 and (landing == 0 or (landing < 0 and point == highest))
        if now[point] and (landing > 0 or bearing_off):
            after = list(now)
            after[point] -= 1
            after[max(landing, 0)] += 1
            ends |= play_out(tuple(after), dice[1:])
    return ends


@pytest.mark.parametrize(("now", "then", "dead", "alive"), BEARING_OFF)
def test_walks_fit_reads_the_order_of_the_dice_in_a_turn_that_bears_off(
    now: dict[int, int], then: dict[int, int], dead: tuple[int, ...], alive: tuple[int, ...]
) -> None:
    """RULES.md 2 (bearing off once every checker is home; a die higher than any point
    bears off from the highest) and 4 (the dice in their order)."""
    start, end = board(**{f"p{point}": count for point, count in now.items()}), [0] * 26
    for point, count in then.items():
        end[point] = count
    assert end not in [list(state) for state in play_out(tuple(start), dead)]
    assert not walks_fit(start, end, dead, 0)
    assert end in [list(state) for state in play_out(tuple(start), alive)]
    assert walks_fit(start, end, alive, 0)


def test_a_checker_that_cannot_get_home_leaves_no_dice_for_bearing_off() -> None:
    """RULES.md 1.1: nothing is borne off before every checker is home. A checker on 9
    with 2s reaches 7, its first stop, but with 5 closed never a home point: no turn
    of these dice bears off. With 5 open (or only 3 closed) two dice take it home."""
    assert _first_bear_off((9,), (2, 2, 2, 2), 1 << 5, 1) is None
    assert _first_bear_off((9,), (2, 2, 2, 2), 0, 1) == 2
    assert _first_bear_off((9,), (2, 2, 2, 2), 1 << 3, 1) == 2
