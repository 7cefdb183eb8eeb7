"""What the Dutch system needs to know about each player before pairing a round: score,
colour history and preference (C.04.3 A.6), floats of the last two rounds (A.4), whether
the pairing-allocated bye is still allowed (C.2), and whether the player is a topscorer
(A.7). Scores are counted in half points so that they stay integers."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tavla.tournament.history import Colour, Entrant, Outcome, RoundEntry

ABSENT = RoundEntry(None, None, Outcome.ZERO_BYE)


class Float(Enum):
    DOWN = "down"
    UP = "up"
    NONE = "none"


@dataclass(frozen=True)
class SwissPlayer:
    """One player present in the round being paired.

    ``rank`` is the effective pairing number (0-based: the order of start numbers among
    the players taking part), used for ties and for colours when nothing else decides.
    ``score`` is in half points. ``colours`` lists the colours of games really played,
    oldest first. ``floats`` holds the float of the last round and of the one before.
    """

    number: int
    rank: int
    score: int
    opponents: frozenset[int]
    colours: tuple[Colour, ...]
    bye_allowed: bool
    floats: tuple[Float, Float]
    topscorer: bool

    @property
    def imbalance(self) -> int:
        """Colour difference, whites minus blacks, as an absolute value."""
        whites = self.colours.count(Colour.WHITE)
        return abs(2 * whites - len(self.colours))

    @property
    def repeated(self) -> Colour | None:
        """The colour of the last two games played when they were the same (A.6.a)."""
        if len(self.colours) >= 2 and self.colours[-1] == self.colours[-2]:
            return self.colours[-1]
        return None

    @property
    def preference(self) -> Colour | None:
        """The colour wanted next (A.6): the rarer colour when the difference is not
        zero or the last two games repeat a colour; else the other colour than last."""
        if not self.colours:
            return None
        whites = self.colours.count(Colour.WHITE)
        rarer = Colour.BLACK if 2 * whites > len(self.colours) else Colour.WHITE
        repeated = self.repeated
        if self.imbalance > 1:
            return rarer
        if repeated is not None:
            return repeated.other
        if self.imbalance > 0:
            return rarer
        return self.colours[-1].other

    @property
    def absolute(self) -> bool:
        """A.6.a: colour difference beyond ±1, or the same colour twice in a row."""
        return self.imbalance > 1 or self.repeated is not None

    @property
    def strong(self) -> bool:
        """A.6.b: a colour difference of ±1 that is not already absolute."""
        return not self.absolute and self.imbalance == 1


def half_points(entry: RoundEntry) -> int:
    return round(entry.outcome.points * 2)


def _rounds(entrant: Entrant, played: int) -> tuple[RoundEntry, ...]:
    """The entrant's first ``played`` rounds, a missing round counted as an absence."""
    rounds = entrant.rounds[:played]
    return rounds + (ABSENT,) * (played - len(rounds))


def _score_before(rounds: tuple[RoundEntry, ...], round_index: int) -> int:
    return sum(half_points(entry) for entry in rounds[:round_index])


def _float(number: int, round_index: int, history: dict[int, tuple[RoundEntry, ...]]) -> Float:
    """A.4: an unplayed round that scored points is a downfloat; otherwise compare the
    two players' scores before that round (a player without opponent meets himself)."""
    entry = history[number][round_index]
    if not entry.outcome.played and half_points(entry) > 0:
        return Float.DOWN
    opponent = number if entry.opponent is None else entry.opponent
    mine = _score_before(history[number], round_index)
    theirs = _score_before(history[opponent], round_index)
    if mine > theirs:
        return Float.DOWN
    if mine < theirs:
        return Float.UP
    return Float.NONE


def swiss_players(
    entrants: tuple[Entrant, ...], played: int, total_rounds: int, absent: frozenset[int]
) -> list[SwissPlayer]:
    """The players to pair in round ``played + 1``, in start-number order.

    A player absent from this round who was never paired before does not count for the
    effective pairing numbers, as in bbpPairings.
    """
    history = {entrant.number: _rounds(entrant, played) for entrant in entrants}
    last_round = played >= total_rounds - 1
    players = []
    rank = 0
    for entrant in entrants:
        rounds = history[entrant.number]
        ever_paired = any(e.opponent is not None or e.outcome is Outcome.PAIRING_BYE for e in rounds)
        if entrant.number in absent:
            rank += ever_paired
            continue
        score = _score_before(rounds, played)
        floats = tuple(
            _float(entrant.number, played - back, history) if played >= back else Float.NONE
            for back in (1, 2)
        )
        players.append(
            SwissPlayer(
                number=entrant.number,
                rank=rank,
                score=score,
                opponents=frozenset(
                    e.opponent for e in rounds if e.opponent is not None and e.outcome.played
                ),
                colours=tuple(e.colour for e in rounds if e.outcome.played and e.colour is not None),
                # C.2 as TRF.md reads it: a pairing bye or a forfeit win already received
                # (an unplayed round worth a win) rules the pairing bye out.
                bye_allowed=not any(not e.outcome.played and e.outcome.points >= 1 for e in rounds),
                floats=(floats[0], floats[1]),
                topscorer=last_round and score > played,
            )
        )
        rank += 1
    return players
