"""Match equity tables: the chance of winning a match from a score (RULES.md 9.1, 9.3).

A table gives, for the points each player still needs ("away"), the probability that
the first player wins the match, both players playing well with the cube. Two tables
make one: before the Crawford game (the pre-Crawford table; where one side is 1-away
it holds the Crawford game's values, since that game is the next one) and after it
(post-Crawford: the leader 1-away, the trailer doubling at once). The package ships
Kazaross-XG2, the table of the Debian ``gnubg`` package, converted by
``scripts/convert_met.py`` into ``data/met-kazaross-xg2.json``.

Beyond the table's 25 points the values are extended (docs/cube.md):

- with a 1-away side, the trailer's chance shrinks by the same factor every two points
  (he must win one more doubled game), the factor of the table's last entries;
- otherwise through the normal approximation of a long match, where the leader's
  chance is ``Phi(k (b - a) / sqrt(a + b))``: the probit of the table's edge value is
  carried on by that formula's growth, so the values stay continuous at the edge,
  symmetric and monotone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from statistics import NormalDist

import numpy as np
from numpy.typing import NDArray

_NORMAL = NormalDist()
SPREAD = 0.555
"""``k`` of the normal approximation: it fits Kazaross-XG2 within 0.003 wherever both
players are 12 to 25 away (tests/bots/test_met.py)."""


def _spread_term(away: float, opp_away: float) -> float:
    return SPREAD * (opp_away - away) / float(np.sqrt(away + opp_away))


@dataclass(frozen=True)
class MatchEquityTable:
    """A match equity table; ``pre[i][j]`` is the chance of the player ``i + 1`` away
    against ``j + 1`` away, ``post[i]`` the trailer's ``i + 1`` away post-Crawford."""

    name: str
    source: str
    pre: NDArray[np.float64]
    post: NDArray[np.float64]

    @property
    def length(self) -> int:
        return len(self.post)

    def equity(self, away: int, opp_away: int, *, post_crawford: bool = False) -> float:
        """The chance that the player ``away`` points from winning wins the match
        against an opponent ``opp_away`` away. ``post_crawford`` says the Crawford game
        has been played (one side must then be 1-away); otherwise a 1-away side means
        the next game is the Crawford game. A side at 0 or below has won."""
        if away <= 0 and opp_away <= 0:
            raise ValueError(f"both players cannot have won: {away}-away, {opp_away}-away")
        if away <= 0:
            return 1.0
        if opp_away <= 0:
            return 0.0
        if post_crawford:
            if away == 1 and opp_away == 1:
                return 0.5
            if away == 1:
                return 1.0 - self._post(opp_away)
            if opp_away == 1:
                return self._post(away)
            raise ValueError(f"post-Crawford one side is 1-away, not {away}-away and {opp_away}-away")
        return self._pre(away, opp_away)

    def _post(self, trailer: int) -> float:
        return _geometric(self.post, trailer)

    def _pre(self, away: int, opp_away: int) -> float:
        size = self.length
        if away <= size and opp_away <= size:
            return float(self.pre[away - 1, opp_away - 1])
        if away == 1:
            return 1.0 - _geometric(self.pre[:, 0], opp_away)
        if opp_away == 1:
            return _geometric(self.pre[:, 0], away)
        # The normal approximation, anchored at the nearest entry of the table.
        near = (min(away, size), min(opp_away, size))
        anchor = _NORMAL.inv_cdf(float(self.pre[near[0] - 1, near[1] - 1]))
        z = anchor + _spread_term(away, opp_away) - _spread_term(*near)
        return _NORMAL.cdf(z)


def _geometric(column: NDArray[np.float64], away: int) -> float:
    """``column[away - 1]``, or past its end the last entry of the same parity times
    the ratio of the last two such entries per two points (RULES.md 9.3: post-Crawford
    the trailer doubles every game, so each two points cost about one game's chance)."""
    size = len(column)
    if away <= size:
        return float(column[away - 1])
    last = size if (size - away) % 2 == 0 else size - 1
    ratio = float(column[last - 1] / column[last - 3])
    return float(column[last - 1]) * ratio ** ((away - last) // 2)


def read_table(text: str) -> MatchEquityTable:
    """A table in the JSON form of ``scripts/convert_met.py``."""
    data = json.loads(text)
    pre = np.array(data["pre_crawford"], dtype=np.float64)
    post = np.array(data["post_crawford"], dtype=np.float64)
    length = int(data["length"])
    if pre.shape != (length, length) or post.shape != (length,):
        raise ValueError(f"a match equity table of {length} points needs {length} x {length} and {length}")
    return MatchEquityTable(str(data["name"]), str(data["source"]), pre, post)


@cache
def kazaross_xg2() -> MatchEquityTable:
    """The shipped table, read once."""
    text = resources.files("tavla.bots").joinpath("data/met-kazaross-xg2.json").read_text("utf-8")
    return read_table(text)


def match_equity(away: int, opp_away: int, *, post_crawford: bool = False) -> float:
    """Kazaross-XG2's chance for the player ``away`` against ``opp_away`` (see
    :meth:`MatchEquityTable.equity`)."""
    return kazaross_xg2().equity(away, opp_away, post_crawford=post_crawford)
