"""Cube decisions from cubeless chances (RULES.md 9.2 the cube, 9.3 Crawford).

Hand-computed cases: each test says where its figure comes from.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.bots.cube import (
    Answer,
    CubeAction,
    CubeContext,
    CubeOwner,
    CubePosition,
    MatchScore,
    Money,
    chances,
    cubeful_equities,
    cubeful_equity,
    cubeless_equity,
    double_decision,
    raccoon_decision,
    swap_sides,
    take_decision,
)
from tavla.bots.cube.janowski import CubefulModel
from tavla.bots.cube.request import cube_context, doubler_of
from tavla.bots.met import MatchEquityTable, kazaross_xg2, match_equity


def race(p: float, win_gammon: float = 0.0, lose_gammon: float = 0.0) -> np.ndarray:
    """Chances with fixed gammon rates: ``win_gammon`` of the wins, ``lose_gammon`` of the losses."""
    return chances([p, win_gammon * p, 0.0, lose_gammon * (1 - p), 0.0])


def take_point(context: CubeContext, win_gammon: float = 0.0, lose_gammon: float = 0.0) -> float:
    """The taker's least winning chance at which he still takes, by bisection."""
    low, high = 0.0, 1.0
    for _ in range(50):
        middle = (low + high) / 2
        answer = take_decision(race(middle, win_gammon, lose_gammon), context).answer
        low, high = (middle, high) if answer == Answer.TAKE else (low, middle)
    return 1 - low


# ---------------------------------------------------------------- the chances
def test_chances_convention_and_cubeless_equity() -> None:
    """[p_win, p_wg, p_wbg, p_lg, p_lbg], gammons including backgammons:
    equity = 2 p_win - 1 + p_wg - p_lg + p_wbg - p_lbg (RULES.md 1.5: 1, 2 or 3 points)."""
    values = chances([0.6, 0.2, 0.05, 0.1, 0.01])
    assert cubeless_equity(values) == pytest.approx(0.2 + 0.1 + 0.04)
    assert cubeless_equity(swap_sides(values)) == pytest.approx(-cubeless_equity(values))
    assert swap_sides(values).tolist() == pytest.approx([0.4, 0.1, 0.01, 0.2, 0.05])


@pytest.mark.parametrize(
    "values",
    [[0.5, 0.6, 0, 0, 0], [0.5, 0.1, 0.2, 0, 0], [0.8, 0, 0, 0.3, 0], [1.2, 0, 0, 0, 0], [0.5, 0, 0, 0]],
)
def test_chances_out_of_order_are_refused(values: list[float]) -> None:
    with pytest.raises(ValueError):
        chances(values)


def test_chances_out_of_order_name_the_order_and_the_values() -> None:
    """The error spells out the order the five chances must keep, then the chances."""
    order = (
        "need 1 >= p_win >= p_win_gammon >= p_win_backgammon >= 0 and "
        "1 - p_win >= p_lose_gammon >= p_lose_backgammon >= 0"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(order)}: {re.escape('[0.5, 0.6, 0.0, 0.0, 0.0]')}$"):
        chances([0.5, 0.6, 0, 0, 0])


# ---------------------------------------------------------------- money play
def test_money_dead_cube_take_point_is_25_percent() -> None:
    """RULES.md 9.2, money without gammons and a dead cube (x = 0): taking risks 2
    points to win 2 instead of losing 1, so the taker needs 25%."""
    context = CubeContext(cube_life=0.0)
    assert take_point(context) == pytest.approx(0.25, abs=1e-9)
    decision = double_decision(race(0.75), context)
    assert decision.double_take == pytest.approx(decision.double_pass)  # indifferent at 75%


def test_money_live_cube_take_point_is_20_percent() -> None:
    """A fully live cube (x = 1) is worth a recube to the taker: he needs 20%, Janowski's
    (L - 1/2) / (W + L + 1/2) with W = L = 1 (less than 1e-4 off: the 64 cap)."""
    assert take_point(CubeContext(cube_life=1.0)) == pytest.approx(0.2, abs=1e-4)


@pytest.mark.parametrize("life", [0.0, 0.3, 0.68, 1.0])
@pytest.mark.parametrize(("win_gammon", "lose_gammon"), [(0.0, 0.0), (0.2, 0.1), (0.3, 0.0), (0.0, 0.25)])
def test_money_take_point_moves_with_gammons_as_janowski_says(
    life: float, win_gammon: float, lose_gammon: float
) -> None:
    """Take point = (W - 1/2) / (W + L + x/2), W and L the doubler's average win and loss
    (1 + gammon rate): more gammons for the doubler raise it, for the taker lower it."""
    wins, losses = 1 + win_gammon, 1 + lose_gammon
    expected = (wins - 0.5) / (wins + losses + life / 2)
    found = take_point(CubeContext(cube_life=life), win_gammon, lose_gammon)
    # Janowski's cube can be redoubled for ever; ours stops at 64, which moves the
    # live take point by about 1e-4 when the cube is fully live.
    assert found == pytest.approx(expected, abs=2e-4 * life + 1e-9)


def test_money_doubling_window_without_gammons() -> None:
    """RULES.md 9.2: no double at 60%, double/take at 72%, double/pass past the take
    point at 80%; a passed double is worth +1 per cube."""
    assert double_decision(race(0.60), CubeContext()).action == CubeAction.NO_DOUBLE
    middle = double_decision(race(0.72), CubeContext())
    assert middle.action == CubeAction.DOUBLE_TAKE and middle.answer == Answer.TAKE
    high = double_decision(race(0.80), CubeContext())
    assert high.action == CubeAction.DOUBLE_PASS and high.double_pass == 1.0
    assert high.equity == 1.0


def test_money_too_good_to_double() -> None:
    """Many gammons: playing on is worth more than the point the cash brings."""
    decision = double_decision(race(0.85, win_gammon=0.7), CubeContext())
    assert decision.action == CubeAction.TOO_GOOD and decision.answer == Answer.PASS
    assert decision.no_double > 1.0 == decision.double_pass
    assert decision.equity == decision.no_double


def test_money_jacoby_counts_no_gammons_while_the_cube_is_centred() -> None:
    """RULES.md 9.2 Jacoby: with the cube centred and unturned a gammon counts 1, so
    there is no playing on for it: the position that was too good is a double/pass, and
    with a dead cube no double is worth exactly 2p - 1."""
    values = race(0.85, win_gammon=0.7)
    jacoby = CubeContext(play=Money(jacoby=True))
    assert double_decision(values, jacoby).action == CubeAction.DOUBLE_PASS
    dead = CubeContext(play=Money(jacoby=True), cube_life=0.0)
    assert cubeful_equity(values, dead) == pytest.approx(2 * 0.85 - 1)
    assert cubeful_equity(values, CubeContext(cube_life=0.0)) == pytest.approx(cubeless_equity(values))
    # Once the cube is turned the gammons count again: Jacoby changes nothing.
    turned = CubePosition(2, CubeOwner.ME)
    with_jacoby = double_decision(values, CubeContext(turned, Money(jacoby=True)))
    without = double_decision(values, CubeContext(turned, Money()))
    assert with_jacoby == without


def test_money_centred_equity_is_the_same_for_both_sides() -> None:
    """With the cube in the middle the model does not care who is on roll: my equity is
    minus the opponent's with the chances swapped."""
    for values in (race(0.3, 0.1, 0.2), race(0.64, 0.25, 0.1), race(0.9, 0.5, 0.0)):
        assert cubeful_equity(values, CubeContext()) == pytest.approx(
            -cubeful_equity(swap_sides(values), CubeContext())
        )


def test_money_owning_the_cube_is_worth_something() -> None:
    """Cube ownership: mine >= centred >= the opponent's, per unit of cube."""
    values = race(0.55, 0.15, 0.1)
    mine = cubeful_equity(values, CubeContext(CubePosition(2, CubeOwner.ME)))
    centred = cubeful_equity(values, CubeContext())
    theirs = cubeful_equity(values, CubeContext(CubePosition(2, CubeOwner.OPPONENT)))
    assert mine > centred > theirs


def test_money_beaver_when_the_double_is_a_mistake() -> None:
    """RULES.md 9.2 beavers: the doubled player keeps the cube at x4 when taking gives
    him the better of the game; without beavers the same answer is a take."""
    values = race(0.40)
    beavers = CubeContext(play=Money(beavers=True))
    answer = take_decision(values, beavers)
    assert answer.answer == Answer.BEAVER
    assert answer.take > 0 and answer.beaver is not None
    # Twice the stake, less a little: at 4 the 64 cap is nearer and the recube worth less.
    assert answer.beaver == pytest.approx(2 * answer.take, rel=0.01)
    assert take_decision(values, CubeContext()).answer == Answer.TAKE
    decision = double_decision(values, beavers)
    assert decision.action == CubeAction.NO_DOUBLE and decision.answer == Answer.BEAVER


def test_money_raccoon_when_the_beaver_is_a_mistake() -> None:
    """RULES.md 9.2 raccoons: after a beaver the doubler doubles once more (x8) when
    the game is his; he does not when the beaver was right."""
    context = CubeContext(play=Money(beavers=True, raccoons=True))
    good = raccoon_decision(race(0.70), context)
    assert good.should_raccoon and good.raccoon is not None
    assert good.raccoon == pytest.approx(2 * good.beaver, rel=0.01)
    assert not raccoon_decision(race(0.40), context).should_raccoon
    # The taker knows: beavering a good double would be answered by a raccoon.
    assert take_decision(race(0.70), context).answer == Answer.TAKE


def test_double_decision_flags_a_raccoon_only_when_it_is_the_reply_to_a_beaver() -> None:
    """DoubleDecision.raccoon: the doubler's best answer to the beaver is a raccoon.
    Not without raccoons, not when keeping the beavered cube is better (a doubtful
    double at 40%), yes when the beaver is a mistake (70%)."""
    beavers, raccoons = (
        CubeContext(play=Money(beavers=True)),
        CubeContext(play=Money(beavers=True, raccoons=True)),
    )
    beavered = double_decision(race(0.40), beavers)
    assert beavered.answer == Answer.BEAVER and not beavered.raccoon
    assert not double_decision(race(0.40), raccoons).raccoon
    assert double_decision(race(0.70), raccoons).raccoon


def test_raccoon_decision_needs_a_beaver_to_answer() -> None:
    """With beavers off, or a cube at 32 whose beaver would pass 64, there is nothing
    to raccoon: the question is refused, and the error says why."""
    message = "^no beaver to answer: beavers are off or the cube would pass 64$"
    with pytest.raises(ValueError, match=message):
        raccoon_decision(race(0.7), CubeContext())
    with pytest.raises(ValueError, match=message):
        raccoon_decision(
            race(0.7), CubeContext(CubePosition(32, CubeOwner.ME), Money(beavers=True, raccoons=True))
        )


def test_raccoon_from_a_cube_of_8_reaches_64_and_is_allowed() -> None:
    """RULES.md 9.2: the cube may show 64. From 8 the double (16), the beaver (32) and
    the raccoon (64) all stay within it, so the raccoon is there to choose."""
    at_8 = CubeContext(CubePosition(8, CubeOwner.ME), Money(beavers=True, raccoons=True))
    decision = raccoon_decision(race(0.7), at_8)
    assert decision.raccoon is not None and decision.should_raccoon


def test_cube_stops_at_64() -> None:
    """RULES.md 9.2: nobody doubles a cube showing 64; a beaver or raccoon that would
    pass 64 is not offered."""
    context = CubeContext(CubePosition(64, CubeOwner.ME), Money(beavers=True, raccoons=True))
    decision = double_decision(race(0.9), context)
    assert not decision.may_double and decision.action == CubeAction.NO_DOUBLE
    with pytest.raises(ValueError, match="cannot double"):
        take_decision(race(0.9), context)
    at_32 = double_decision(race(0.4), CubeContext(CubePosition(32, CubeOwner.ME), Money(beavers=True)))
    assert at_32.may_double and at_32.double_beaver is None and at_32.answer == Answer.TAKE
    at_16 = CubeContext(CubePosition(16, CubeOwner.ME), Money(beavers=True, raccoons=True))
    assert take_decision(race(0.4), at_16).beaver is not None
    assert raccoon_decision(race(0.7), at_16).raccoon is None


def test_only_the_cube_owner_doubles() -> None:
    """RULES.md 9.2: a player may double when the cube is in the middle or his."""
    context = CubeContext(CubePosition(2, CubeOwner.OPPONENT))
    decision = double_decision(race(0.95), context)
    assert not decision.may_double and decision.action == CubeAction.NO_DOUBLE


def test_contexts_refuse_what_the_rules_do_not_allow() -> None:
    """RULES.md 9.2 and 9.3: powers of 2 to 64, raccoons need beavers, no cube in the
    Crawford game, the Crawford rule needs a 1-away side."""
    with pytest.raises(ValueError):
        CubePosition(3, CubeOwner.ME)
    with pytest.raises(ValueError):
        CubePosition(128, CubeOwner.ME)
    with pytest.raises(ValueError):
        CubePosition(2)  # a turned cube has an owner
    with pytest.raises(ValueError):
        Money(raccoons=True)
    with pytest.raises(ValueError):
        MatchScore(3, 4, crawford_game=True)
    with pytest.raises(ValueError):
        CubeContext(CubePosition(2, CubeOwner.ME), MatchScore(1, 4, crawford_game=True))
    with pytest.raises(ValueError):
        CubeContext(cube_life=1.5)


def test_context_errors_say_what_is_wrong() -> None:
    """The refusals name the offending values and the rule they break."""
    with pytest.raises(ValueError, match=r"^cube value 3: expected a power of 2 from 1 to 64$"):
        CubePosition(3, CubeOwner.ME)
    with pytest.raises(ValueError, match=r"^a match in play needs points on both sides: 0, 3$"):
        MatchScore(0, 3)


# ---------------------------------------------------------------- engine requests
def test_protocol_money_game_keeps_its_options() -> None:
    """docs/engine-protocol.md: a money game (length 0) names the cube, its owner by
    colour, and Jacoby and beavers; the context is the doubler's."""
    match = {"length": 0, "cube": 2, "owner": "b", "jacoby": True, "beavers": True}
    expected = CubeContext(CubePosition(2, CubeOwner.OPPONENT), Money(jacoby=True, beavers=True))
    assert cube_context(match, doubler=0) == expected
    assert cube_context({"length": 0, "jacoby": True}, doubler=1) == CubeContext(play=Money(jacoby=True))
    assert cube_context({"length": 0}, doubler=1) == CubeContext()


@pytest.mark.parametrize("seat", [0, 1])
def test_the_doubler_of_a_take_request(seat: int) -> None:
    """docs/json.md: the server's match state shows the doubler to act while his offer
    is pending, and the offer names him; the protocol shows the taker to act."""
    state = {
        "settings": {"length": 0, "jacoby": False, "beavers": False, "raccoons": False},
        "cube": {"value": 1, "owner": None, "offer": {"kind": "double", "by": seat}},
    }
    assert doubler_of(SimpleNamespace(side=seat), state, answering=True) == seat
    assert doubler_of(SimpleNamespace(side=1 - seat), {"length": 0}, answering=True) == seat
    assert doubler_of(SimpleNamespace(side=seat), state, answering=False) == seat


# ---------------------------------------------------------------- match play
def test_match_two_away_two_away() -> None:
    """RULES.md 9.1: at 2-away/2-away the cube at 2 wins or loses the match, so the
    taker needs 1 - MET(1-away, 2-away Crawford) = 32.264% (Kazaross-XG2), and without
    gammons the favourite doubles: at 55% the double gains, at 45% it loses."""
    context = CubeContext(play=MatchScore(2, 2))
    assert take_point(context) == pytest.approx(1 - match_equity(1, 2), abs=1e-9)
    assert double_decision(race(0.55), context).action == CubeAction.DOUBLE_TAKE
    assert double_decision(race(0.45), context).action == CubeAction.NO_DOUBLE
    passed = double_decision(race(0.70), context)
    assert passed.action == CubeAction.DOUBLE_PASS and passed.double_pass == match_equity(1, 2)
    assert passed.double_take == pytest.approx(0.70)  # any game at 2 ends the match


def test_match_gammons_count_at_the_score() -> None:
    """With a dead cube, no double is the chances weighted by the match equity of each
    result: at 5-away/3-away a gammon is worth 2 points on the table."""
    values = chances([0.6, 0.2, 0.02, 0.1, 0.01])
    context = CubeContext(play=MatchScore(5, 3), cube_life=0.0)
    by_hand = (
        0.40 * match_equity(4, 3)
        + 0.18 * match_equity(3, 3)
        + 0.02 * match_equity(2, 3)
        + 0.30 * match_equity(5, 2)
        + 0.09 * match_equity(5, 1)
        + 0.01 * match_equity(5, 0)
    )
    assert cubeful_equity(values, context) == pytest.approx(by_hand)


def test_match_crawford_game_has_no_doubling() -> None:
    """RULES.md 9.3: nobody doubles in the Crawford game; its equity is the chances
    weighted by the post-Crawford table at the resulting scores."""
    values = chances([0.5, 0.1, 0.0, 0.1, 0.0])
    for away, opp in ((1, 4), (4, 1)):
        context = CubeContext(play=MatchScore(away, opp, crawford_game=True))
        decision = double_decision(values, context)
        assert not decision.may_double and decision.action == CubeAction.NO_DOUBLE
    leader = double_decision(values, CubeContext(play=MatchScore(1, 4, crawford_game=True)))
    by_hand = (
        0.5 * 1.0
        + 0.4 * match_equity(1, 3, post_crawford=True)
        + 0.1 * match_equity(1, 2, post_crawford=True)
    )
    assert leader.no_double == pytest.approx(by_hand)


@pytest.mark.parametrize("trailer", [2, 3, 4, 7])
@pytest.mark.parametrize("p", [0.2, 0.4, 0.5])
def test_match_post_crawford_trailer_doubles_at_once(trailer: int, p: float) -> None:
    """RULES.md 9.3 post-Crawford: the leader's cube is dead (one win ends the match),
    so the trailer loses nothing by doubling at once, and gains his gammons and the
    leader's missed market."""
    context = CubeContext(play=MatchScore(trailer, 1, post_crawford=True))
    decision = double_decision(race(p, 0.1, 0.1), context)
    assert decision.action == CubeAction.DOUBLE_TAKE


def test_match_post_crawford_leader_never_doubles_and_free_drop() -> None:
    """RULES.md 9.3: the leader at 1-away gains nothing by doubling; at 2-away/1-away
    the trailer's double is a free drop for the leader once the trailer is the
    favourite (dropping leaves 1-away/1-away, 50%)."""
    leader = CubeContext(play=MatchScore(1, 3, post_crawford=True))
    assert double_decision(race(0.9), leader).action == CubeAction.NO_DOUBLE
    trailer = CubeContext(play=MatchScore(2, 1, post_crawford=True))
    assert take_decision(race(0.49), trailer).answer == Answer.TAKE
    assert take_decision(race(0.51), trailer).answer == Answer.PASS
    assert take_decision(race(0.51), trailer).pass_ == pytest.approx(0.5)


def test_match_games_after_the_crawford_game_score_post_crawford() -> None:
    """RULES.md 9.3: in the Crawford game and after it, a game that does not end the
    match leaves a post-Crawford score, whoever wins it."""
    assert MatchScore(3, 1, post_crawford=True).equity(1) == match_equity(2, 1, post_crawford=True)
    assert MatchScore(4, 1, crawford_game=True).equity(2) == match_equity(2, 1, post_crawford=True)
    assert MatchScore(1, 4, crawford_game=True).equity(-1) == match_equity(1, 3, post_crawford=True)
    # The pre-Crawford table would be wrong here: its 2-away/1-away is the Crawford game.
    assert match_equity(2, 1, post_crawford=True) != match_equity(2, 1)


def test_match_cube_at_64_and_redoubles() -> None:
    """RULES.md 9.2: the cube at 2^k up to 64 in a match too; an owned cube at 64 cannot
    be redoubled; at 3-away/3-away a redouble to 4 puts the match on one game."""
    long_match = MatchScore(25, 25)
    decision = double_decision(race(0.8), CubeContext(CubePosition(64, CubeOwner.ME), long_match))
    assert not decision.may_double
    # The cube at 4 decides the match: take while the taker has MET(1, 3)'s complement.
    owned = CubeContext(CubePosition(2, CubeOwner.ME), MatchScore(3, 3))
    assert double_decision(race(0.65), owned).action == CubeAction.DOUBLE_TAKE
    assert double_decision(race(0.80), owned).action == CubeAction.DOUBLE_PASS


def test_the_figures_of_docs_cube_md() -> None:
    """docs/cube.md quotes these; they must stay true."""
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "cube.md").read_text(encoding="utf-8")
    assert "21.4% at `x = 0.68`" in page
    assert take_point(CubeContext()) == pytest.approx(0.214, abs=5e-4)
    assert "match_equity(1, 2)                         # 0.67736" in page
    assert match_equity(1, 2) == 0.67736 and match_equity(4, 1, post_crawford=True) == 0.31002
    assert "CubeContext()).action            # 'double, take'" in page
    assert double_decision(race(0.72), CubeContext()).action == CubeAction.DOUBLE_TAKE
    assert "MatchScore(2, 2))).action  # 'double, take'" in page
    assert double_decision(race(0.55), CubeContext(play=MatchScore(2, 2))).action == CubeAction.DOUBLE_TAKE


# ---------------------------------------------------------------- properties
RATE = st.floats(min_value=0.0, max_value=1.0)


@st.composite
def contexts(draw: st.DrawFn) -> CubeContext:
    """Any legal cube context: money with its options or a match score (RULES.md 9)."""
    life = draw(st.floats(min_value=0.0, max_value=1.0))
    if draw(st.booleans()):
        beavers = draw(st.booleans())
        play: Money | MatchScore = Money(draw(st.booleans()), beavers, beavers and draw(st.booleans()))
    else:
        away, opp_away = draw(st.integers(1, 30)), draw(st.integers(1, 30))
        crawford = 1 in (away, opp_away) and draw(st.booleans())
        play = MatchScore(away, opp_away, crawford, 1 in (away, opp_away) and not crawford)
    if isinstance(play, MatchScore) and play.crawford_game:
        return CubeContext(CubePosition(), play, life)
    value = draw(st.sampled_from([1, 2, 4, 8, 16, 32, 64]))
    owner = CubeOwner.CENTRED if value == 1 else draw(st.sampled_from([CubeOwner.ME, CubeOwner.OPPONENT]))
    return CubeContext(CubePosition(value, owner), play, life)


@settings(max_examples=200)
@given(p=RATE, gammons=st.tuples(RATE, RATE, RATE, RATE), context=contexts())
def test_equities_lie_between_the_worst_and_best_results(
    p: float, gammons: tuple[float, float, float, float], context: CubeContext
) -> None:
    """Whatever the cube does, the equity lies between losing and winning a backgammon
    at the largest cube, a passed double is worth the cube, and the verdict follows the
    equities it reports."""
    win_gammon, win_backgammon, lose_gammon, lose_backgammon = gammons
    wins, losses = win_gammon * p, lose_gammon * (1 - p)
    values = chances([p, wins, win_backgammon * wins, losses, lose_backgammon * losses])
    decision = double_decision(values, context)
    low, high = (-3 * 64, 3 * 64) if context.money else (0.0, 1.0)
    assert low - 1e-9 <= decision.no_double <= high + 1e-9
    if decision.double_take is not None and decision.double_pass is not None:
        assert low - 1e-9 <= decision.double_take <= high + 1e-9
        if context.money:
            assert decision.double_pass == 1.0
        best = decision.equity
        assert best >= decision.no_double
        if decision.action in (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS, CubeAction.DOUBLE_BEAVER):
            assert best > decision.no_double
        else:
            assert best == decision.no_double


@settings(max_examples=100)
@given(low=RATE, high=RATE, gammons=st.tuples(RATE, RATE), context=contexts())
def test_more_winning_chances_are_never_worth_less(
    low: float, high: float, gammons: tuple[float, float], context: CubeContext
) -> None:
    """With the same gammon rates, a larger p_win never lowers the cubeful equity."""
    low, high = sorted((low, high))
    win_gammon, lose_gammon = gammons
    assert (
        cubeful_equity(race(high, win_gammon, lose_gammon), context)
        >= cubeful_equity(race(low, win_gammon, lose_gammon), context) - 1e-9
    )


@settings(max_examples=100)
@given(p=RATE, gammons=st.tuples(RATE, RATE), life=RATE, jacoby=st.booleans())
def test_centred_money_equity_is_antisymmetric(
    p: float, gammons: tuple[float, float], life: float, jacoby: bool
) -> None:
    """The centred cube in money play favours nobody: my equity is minus the
    opponent's with the chances swapped."""
    values = race(p, *gammons)
    context = CubeContext(play=Money(jacoby=jacoby), cube_life=life)
    mirrored = cubeful_equity(swap_sides(values), context)
    assert cubeful_equity(values, context) == pytest.approx(-mirrored, abs=1e-9)


@settings(max_examples=150)
@given(
    rows=st.lists(st.tuples(RATE, RATE, RATE, RATE, RATE), min_size=1, max_size=12),
    context=contexts(),
)
def test_many_positions_at_once_are_each_on_its_own(
    rows: list[tuple[float, float, float, float, float]], context: CubeContext
) -> None:
    """cubeful_equities over an array is cubeful_equity row by row."""
    values = np.array(
        [[p, a * p, b * a * p, c * (1 - p), d * c * (1 - p)] for p, a, b, c, d in rows], dtype=np.float64
    )
    together = cubeful_equities(values, context)
    alone = [cubeful_equity(chances(row), context) for row in values]
    assert together.tolist() == pytest.approx(alone, abs=1e-12)


def test_many_positions_at_once_without_warnings() -> None:
    """A bot ranks every candidate of a roll at once: the segments of no width (a cash
    point that does not exist), the sides that cannot win or lose, cubes owned and dead,
    must not divide by zero nor leave numpy anything to warn about."""
    rows = np.array([race(p, 0.3, 0.2) for p in (0.0, 0.3, 0.7, 1.0)])
    for context in (
        CubeContext(),
        CubeContext(play=Money(jacoby=True)),  # gammons count once while the cube is centred
        CubeContext(CubePosition(2, CubeOwner.ME)),
        CubeContext(CubePosition(4, CubeOwner.OPPONENT), Money(beavers=True)),
        CubeContext(CubePosition(64, CubeOwner.ME)),
        CubeContext(CubePosition(2, CubeOwner.ME), MatchScore(5, 3)),
        CubeContext(play=MatchScore(1, 4, crawford_game=True)),
    ):
        with warnings.catch_warnings(), np.errstate(all="raise"):
            warnings.simplefilter("error")
            found = cubeful_equities(rows, context)
        assert found.tolist() == pytest.approx([cubeful_equity(row, context) for row in rows], abs=1e-12)


def upside_down() -> MatchEquityTable:
    """Kazaross-XG2 with every chance given to the other player: needing more points is
    better. No sensible table, but it reaches the model's guards: each side's cash point
    lies past the other's, and cash points fall on 0 or 1."""
    table = kazaross_xg2()
    return MatchEquityTable("upside down", "tests", 1.0 - table.pre, 1.0 - table.post)


def flat() -> MatchEquityTable:
    """Every unfinished score 50%: only winning the match counts, so a point more or less
    can leave a player's chance unchanged."""
    return MatchEquityTable("flat", "tests", np.full((3, 3), 0.5), np.full(3, 0.5))


@pytest.mark.parametrize(
    ("table", "away", "opp_away", "gammons"),
    [
        (upside_down, 2, 2, 0.0),  # each would cash before the other's point: meet half way
        (upside_down, 3, 2, 0.0),  # my cash point falls on 1: none
        (upside_down, 2, 3, 0.0),  # the opponent's falls on 0: none
        (flat, 1, 3, 0.5),  # a lost point changes nothing: the opponent's double is always taken
    ],
)
@pytest.mark.parametrize("life", [0.5, 1.0])
def test_many_positions_at_once_follow_the_model_on_odd_tables(
    table: Callable[[], MatchEquityTable], away: int, opp_away: int, gammons: float, life: float
) -> None:
    """cubeful_equities keeps the guards of janowski.py for what no sensible table
    brings about, and gives row by row what cubeful_equity gives."""
    context = CubeContext(play=MatchScore(away, opp_away, table=table()), cube_life=life)
    rows = np.array([race(p, gammons, gammons) for p in (0.2, 0.4, 0.6, 0.8)])
    alone = [cubeful_equity(row, context) for row in rows]
    assert cubeful_equities(rows, context).tolist() == pytest.approx(alone, abs=1e-12)
    if table is upside_down and away == opp_away == 2:
        # Meeting half way, between losing (0, L) and winning (1, W), is the straight line.
        losing, winning = context.payoff()(-1), context.payoff()(1)
        assert alone == pytest.approx([losing + (winning - losing) * row[0] for row in rows], abs=1e-12)


def test_the_worth_of_a_win_and_of_a_loss_averages_their_kinds() -> None:
    """RULES.md 2 and 9: a win is worth 1, 2 or 3 times the cube as single, gammon or
    backgammon; its average worth weighs each by its share of the wins (and so for the
    losses). Jacoby counts every result single while the cube is centred."""
    values = chances([0.6, 0.2, 0.05, 0.1, 0.0])
    model = CubefulModel(values, CubeContext())
    win = (0.4 * 1 + 0.15 * 2 + 0.05 * 3) / 0.6
    loss = -(0.3 * 1 + 0.1 * 2) / 0.4
    assert (model.win_value(1), model.loss_value(1)) == pytest.approx((win, loss))
    assert (model.win_value(4), model.loss_value(4)) == pytest.approx((4 * win, 4 * loss))
    jacoby = CubefulModel(values, CubeContext(play=Money(jacoby=True)))
    assert (jacoby.win_value(1, centred=True), jacoby.loss_value(1, centred=True)) == pytest.approx((1, -1))
    assert (jacoby.win_value(2), jacoby.loss_value(2)) == pytest.approx((2 * win, 2 * loss))
