"""Cube decisions from cubeless chances: double, take, pass, beaver, raccoon.

Every function takes the chances and the context from the point of view of the player
on roll, who may double (tavla.bots.cube.convention); the taker answers a position in
which his opponent is on roll, so he passes that view too. Equities are for money per
unit of the cube's present value (a double that is passed is worth +1), for a match
the chance to win it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.bots.cube.context import CUBE_CAP, CubeContext, CubeOwner
from tavla.bots.cube.convention import Chances, chances
from tavla.bots.cube.janowski import CubefulModel
from tavla.core.words import Word


class CubeAction(Word):
    """The right cube action of the player on roll."""

    NO_DOUBLE = "no double"
    DOUBLE_TAKE = "double, take"
    DOUBLE_PASS = "double, pass"
    DOUBLE_BEAVER = "double, beaver"
    TOO_GOOD = "too good to double"
    """Playing on for a gammon is worth more than the cash."""


class Answer(Word):
    """The right answer to a double."""

    TAKE = "take"
    PASS = "pass"
    BEAVER = "beaver"


@dataclass(frozen=True)
class DoubleDecision:
    """The doubler's view. ``double_take`` and ``double_pass`` are None when he may not
    double; ``double_beaver`` is None unless beavers are allowed, and then counts the
    doubler's best reply (``raccoon`` says whether that is a raccoon)."""

    no_double: float
    double_take: float | None
    double_pass: float | None
    double_beaver: float | None
    action: CubeAction
    answer: Answer | None
    raccoon: bool
    money: bool

    @property
    def may_double(self) -> bool:
        return self.double_pass is not None

    @property
    def equity(self) -> float:
        """The position's cubeful equity with both sides deciding right."""
        if self.double_take is None or self.double_pass is None:
            return self.no_double
        doubled = min(self.double_take, self.double_pass)
        if self.double_beaver is not None:
            doubled = min(doubled, self.double_beaver)
        return max(self.no_double, doubled)


@dataclass(frozen=True)
class TakeDecision:
    """The view of the player who is doubled: what each answer leaves him."""

    take: float
    pass_: float
    beaver: float | None
    answer: Answer


@dataclass(frozen=True)
class RaccoonDecision:
    """The doubler's view after a beaver: keep the beavered cube or raccoon it."""

    beaver: float
    raccoon: float | None
    should_raccoon: bool


class _Cube:
    """The equities of one decision, for money still in points (not per cube)."""

    def __init__(self, values: Chances, context: CubeContext) -> None:
        self.context = context
        self.model = CubefulModel(chances(values), context)
        self.value = context.cube.value
        self.scale = float(self.value) if context.money else 1.0

    def may_double(self) -> bool:
        cube = self.context.cube
        mine = cube.owner != CubeOwner.OPPONENT
        return self.context.doubling_allowed and mine and 2 * cube.value <= CUBE_CAP

    def no_double(self) -> float:
        cube = self.context.cube
        return self.model.equity(cube.owner, cube.value) / self.scale

    def take(self) -> float:
        return self.model.equity(CubeOwner.OPPONENT, 2 * self.value) / self.scale

    def pass_(self) -> float:
        return self.context.payoff()(self.value) / self.scale

    def beaver(self) -> float | None:
        """A beaver doubles the taken cube again and leaves it with the taker."""
        if not self.context.beavers or 4 * self.value > CUBE_CAP:
            return None
        return self.model.equity(CubeOwner.OPPONENT, 4 * self.value) / self.scale

    def raccoon(self) -> float | None:
        """A raccoon doubles it once more; the cube stays on the taker's side."""
        if not self.context.raccoons or 8 * self.value > CUBE_CAP:
            return None
        return self.model.equity(CubeOwner.OPPONENT, 8 * self.value) / self.scale

    def after_beaver(self) -> tuple[float, bool] | None:
        """The doubler's equity after a beaver when he answers it right, and whether
        that answer is a raccoon."""
        beaver = self.beaver()
        if beaver is None:
            return None
        raccoon = self.raccoon()
        if raccoon is not None and raccoon > beaver:
            return raccoon, True
        return beaver, False

    def answers(self) -> dict[Answer, float]:
        """What each answer open to the taker leaves the doubler."""
        options = {Answer.TAKE: self.take(), Answer.PASS: self.pass_()}
        beavered = self.after_beaver()
        if beavered is not None:
            options[Answer.BEAVER] = beavered[0]
        return options

    def answer(self) -> Answer:
        """The taker's best answer: the one that leaves the doubler least."""
        options = self.answers()
        return min(options, key=options.__getitem__)  # ties: take, then pass


def double_decision(values: Chances, context: CubeContext) -> DoubleDecision:
    """Should the player on roll double, and what should the answer be."""
    cube = _Cube(values, context)
    no_double = cube.no_double()
    if not cube.may_double():
        return DoubleDecision(no_double, None, None, None, CubeAction.NO_DOUBLE, None, False, context.money)
    options = cube.answers()
    take, pass_ = options[Answer.TAKE], options[Answer.PASS]
    beavered = cube.after_beaver()
    answer = min(options, key=options.__getitem__)  # ties: take, then pass
    doubled = options[answer]
    if doubled > no_double:
        action = {
            Answer.TAKE: CubeAction.DOUBLE_TAKE,
            Answer.PASS: CubeAction.DOUBLE_PASS,
            Answer.BEAVER: CubeAction.DOUBLE_BEAVER,
        }[answer]
    elif no_double > pass_:
        action = CubeAction.TOO_GOOD
    else:
        action = CubeAction.NO_DOUBLE
    return DoubleDecision(
        no_double,
        take,
        pass_,
        None if beavered is None else beavered[0],
        action,
        answer,
        beavered is not None and beavered[1],
        context.money,
    )


def take_decision(values: Chances, context: CubeContext) -> TakeDecision:
    """Should the doubled player take, pass or beaver. ``values`` and ``context`` are the
    doubler's (the player on roll, the cube before his double); the equities returned
    are the taker's."""
    cube = _Cube(values, context)
    if not cube.may_double():
        raise ValueError(f"no double to answer: the player on roll cannot double ({context.cube})")
    beavered = cube.after_beaver()
    return TakeDecision(
        _other(context, cube.take()),
        _other(context, cube.pass_()),
        None if beavered is None else _other(context, beavered[0]),
        cube.answer(),
    )


def raccoon_decision(values: Chances, context: CubeContext) -> RaccoonDecision:
    """After his double was beavered, should the doubler raccoon. ``context`` is the cube
    before the double, as for :func:`take_decision`; equities are the doubler's."""
    cube = _Cube(values, context)
    beaver = cube.beaver()
    if beaver is None or not cube.may_double():
        raise ValueError("no beaver to answer: beavers are off or the cube would pass 64")
    raccoon = cube.raccoon()
    return RaccoonDecision(beaver, raccoon, raccoon is not None and raccoon > beaver)


def cubeful_equity(values: Chances, context: CubeContext) -> float:
    """The cubeful equity of the player on roll if nobody touches the cube now (the
    equity a bot compares its candidate plays by)."""
    return _Cube(values, context).no_double()


def _other(context: CubeContext, equity: float) -> float:
    """The same outcome for the opponent: minus the points, or the other's match chance."""
    return -equity if context.money else 1.0 - equity
