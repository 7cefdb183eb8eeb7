"""Stake, fee and prize arithmetic in integer cents: pure functions, no ledger.

A single game is played for an initial stake S and a maximum stake M: the final
stake is ``min(S x points won, M)``. A match is played for a stake fixed when the
match is made. Either way the loser pays the final stake, the pot is both final
stakes together, and the house fee (5% of the pot) comes out of the winner's payout.

Rounding: the fee is the pot's 5% rounded to the nearest cent, a half cent up.
Only a pot whose 5% ends in exactly half a cent needs a rule (a final stake ending
in 5 cents: 1.05 each, pot 2.10, fee 10.5 cents -> 11). Half up is the rounding
players know from shop receipts and tax forms, it does not depend on whether the
cent before it is odd (banker's rounding would make 10.5 -> 10 but 11.5 -> 12),
and it keeps the fee within half a cent of the published 5%.

Prizes: a pool is split by shares (weights such as 50/30/20). Every place gets the
whole cents of its exact share; the cents left over (fewer than the places) go one
each to the places with the largest fractional remainders, a tie going to the
better place. The prizes always sum to the pool exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavla.ledger.errors import AmountError

FEE_BASIS_POINTS = 500
"""The house fee, 5% of the pot, in hundredths of a percent."""

_BASIS = 10_000


def _require_cents(name: str, value: int, *, minimum: int = 1) -> None:
    # bool is an int subclass: True cents is a bug, not one cent.
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise AmountError(f"{name} must be a whole number of cents >= {minimum}, not {value!r}")


@dataclass(frozen=True)
class GameStake:
    """A single game's stake: ``initial_cents`` per point won, at most ``maximum_cents``."""

    initial_cents: int
    maximum_cents: int

    def __post_init__(self) -> None:
        _require_cents("initial stake", self.initial_cents)
        _require_cents("maximum stake", self.maximum_cents)
        if self.maximum_cents < self.initial_cents:
            raise AmountError(
                f"maximum stake {self.maximum_cents} cents is below the initial stake "
                f"{self.initial_cents} cents"
            )

    @property
    def reserve_cents(self) -> int:
        """What each player must hold back when play starts: the most he can lose."""
        return self.maximum_cents

    def final_cents(self, points: int) -> int:
        """The stake the loser pays for a game won with ``points`` (cube included)."""
        _require_cents("points won", points)
        return min(self.initial_cents * points, self.maximum_cents)

    def to_json(self) -> dict[str, int | str]:
        return {"kind": "game", "initial_cents": self.initial_cents, "maximum_cents": self.maximum_cents}


@dataclass(frozen=True)
class MatchStake:
    """A match's stake, fixed when the match is made: the loser pays it whatever the score."""

    stake_cents: int

    def __post_init__(self) -> None:
        _require_cents("match stake", self.stake_cents)

    @property
    def reserve_cents(self) -> int:
        return self.stake_cents

    def final_cents(self, points: int) -> int:
        _require_cents("points won", points)
        return self.stake_cents

    def to_json(self) -> dict[str, int | str]:
        return {"kind": "match", "stake_cents": self.stake_cents}


StakeTerms = GameStake | MatchStake


def stake_terms_from_json(data: dict[str, int | str]) -> StakeTerms:
    """The terms :meth:`GameStake.to_json` or :meth:`MatchStake.to_json` wrote."""
    if data.get("kind") == "game":
        return GameStake(int(data["initial_cents"]), int(data["maximum_cents"]))
    if data.get("kind") == "match":
        return MatchStake(int(data["stake_cents"]))
    raise AmountError(f"stake terms of unknown kind: {data!r}")


def fee_cents(pot_cents: int, basis_points: int = FEE_BASIS_POINTS) -> int:
    """The house fee on a pot: ``basis_points`` of it, to the nearest cent, half up.

    >>> fee_cents(1000), fee_cents(210), fee_cents(209)
    (50, 11, 10)
    """
    _require_cents("pot", pot_cents, minimum=0)
    _require_cents("fee rate", basis_points, minimum=0)
    # Adding half the divisor before the floor division rounds half up (all >= 0).
    return (pot_cents * basis_points + _BASIS // 2) // _BASIS


@dataclass(frozen=True)
class Payout:
    """Where both reservations go when a game is settled.

    ``winner_cents`` is what the winner receives back in all (his own reservation,
    the loser's final stake, less the fee); ``loser_cents`` is the unused part of the
    loser's reservation. The three amounts add up to both reservations exactly.
    """

    reserved_cents: int
    final_stake_cents: int
    fee_cents: int

    @property
    def pot_cents(self) -> int:
        return 2 * self.final_stake_cents

    @property
    def winner_cents(self) -> int:
        return self.reserved_cents + self.final_stake_cents - self.fee_cents

    @property
    def loser_cents(self) -> int:
        return self.reserved_cents - self.final_stake_cents

    @property
    def winner_gain_cents(self) -> int:
        """The winner's balance after the game less before it."""
        return self.final_stake_cents - self.fee_cents


def payout(terms: StakeTerms, points: int, basis_points: int = FEE_BASIS_POINTS) -> Payout:
    """The settlement of a game or match played for ``terms`` and won with ``points``.

    The federation's example: S 2.00, M 5.00, won with 3 points.

    >>> p = payout(GameStake(200, 500), 3)
    >>> p.final_stake_cents, p.pot_cents, p.fee_cents, p.winner_cents, p.loser_cents
    (500, 1000, 50, 950, 0)
    """
    final = terms.final_cents(points)
    return Payout(terms.reserve_cents, final, fee_cents(2 * final, basis_points))


def prize_pool_cents(entry_fee_cents: int, entrants: int, sponsor_cents: int = 0) -> int:
    """The pool of a tournament: every entry fee plus what sponsors added."""
    _require_cents("entry fee", entry_fee_cents, minimum=0)
    _require_cents("entrants", entrants, minimum=0)
    _require_cents("sponsorship", sponsor_cents, minimum=0)
    return entry_fee_cents * entrants + sponsor_cents


def check_shares(shares: Sequence[int]) -> tuple[int, ...]:
    """``shares`` as a tuple, refused unless they are whole numbers >= 0, not all 0."""
    for share in shares:
        _require_cents("prize share", share, minimum=0)
    if not shares or sum(shares) == 0:
        raise AmountError(f"prize shares must include one above 0, not {list(shares)!r}")
    return tuple(shares)


def distribute(pool_cents: int, shares: Sequence[int]) -> tuple[int, ...]:
    """The pool split by ``shares``, place by place; the parts sum to the pool exactly.

    >>> distribute(1000, [50, 30, 20])
    (500, 300, 200)
    >>> distribute(100, [1, 1, 1])  # the cent left over goes to the better place
    (34, 33, 33)
    >>> distribute(1001, [60, 40])  # 600.6 and 400.4: the larger remainder gets the cent
    (601, 400)
    """
    _require_cents("prize pool", pool_cents, minimum=0)
    weights = check_shares(shares)
    total = sum(weights)
    whole = [pool_cents * weight // total for weight in weights]
    remainders = [pool_cents * weight % total for weight in weights]
    left = pool_cents - sum(whole)
    # Largest remainder first; for equal remainders the better (earlier) place first.
    order = sorted(range(len(weights)), key=lambda place: (-remainders[place], place))
    for place in order[:left]:
        whole[place] += 1
    return tuple(whole)
