"""Single elimination (knockout, RULES 11.3) with seeding, byes and a match length per
round.

Seeds are the start numbers: seed 1 is the strongest (the organiser numbers the field
by rating). The bracket has 2^k slots, k = ceil(log2 N). Its slots are filled in the
standard order, built by doubling: [1] -> [1, 2] -> [1, 4, 2, 3] -> [1, 8, 4, 5, 2, 7,
3, 6]; each step puts next to every seed s its mirror 2^j + 1 - s. Hence the seeds of
any first-round match add up to 2^k + 1, seeds 1 and 2 sit in opposite halves (they can
meet only in the final), 1 to 4 in different quarters (not before the semi-finals), and
so on: the two better seeds of any match are always the best of their sub-brackets.

When N is not a power of two the missing seeds N + 1 .. 2^k are byes. A bye's mirror is
a seed 2^k + 1 - s <= 2^k - N, so the byes go to the top seeds, and only in round 1:
two byes never meet because 2^k - N < 2^(k-1) < N + 1.

The bracket is an immutable value: ``record`` returns a new bracket with one more
result. The server stores the results and asks the bracket what comes next.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.tournament.history import TournamentError
from tavla.tournament.lengths import check_match_lengths, match_length


def bracket_size(players: int) -> int:
    """The smallest power of two that holds the field."""
    size = 1
    while size < players:
        size *= 2
    return size


def seeding_order(size: int) -> tuple[int, ...]:
    """The seeds in bracket slot order for a bracket of ``size`` (a power of two) slots."""
    if size < 1 or size & (size - 1):
        raise TournamentError(f"bracket of {size} slots: must be a power of two")
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, mirror - s)]
    return tuple(order)


@dataclass(frozen=True)
class BracketMatch:
    """A match of the bracket. ``top`` and ``bottom`` are the players, None while the
    match that feeds the slot is undecided; in round 1 ``bottom`` is None for a bye
    (``is_bye``), and the top player goes through without playing."""

    round: int
    index: int
    length: int
    top: int | None
    bottom: int | None
    is_bye: bool
    winner: int | None

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for p in (self.top, self.bottom) if p is not None)

    @property
    def ready(self) -> bool:
        """Both players are known and no winner yet: the match can be played."""
        return self.top is not None and self.bottom is not None and self.winner is None


@dataclass(frozen=True)
class Knockout:
    """A knockout bracket of ``players`` seeds with its results so far.

    ``match_lengths`` is one length for every round or one per round (points, RULES
    9.1; Abluka sets, RULES 8.3). ``winners`` holds, for each round, the winner of each
    match by index (None while undecided); leave it out for a new bracket."""

    players: int
    match_lengths: tuple[int, ...]
    winners: tuple[tuple[int | None, ...], ...] = ()

    def __post_init__(self) -> None:
        if self.players < 2:
            raise TournamentError(f"knockout of {self.players} players: needs at least 2")
        check_match_lengths(self.match_lengths, self.rounds)
        if not self.winners:
            # A new bracket: fill in the byes (a frozen dataclass sets fields this way).
            object.__setattr__(self, "winners", self._new_winners())
        elif [len(w) for w in self.winners] != [self._match_count(r) for r in range(1, self.rounds + 1)]:
            raise TournamentError(f"knockout of {self.players}: the winners do not fit the bracket")
        else:
            self._check_winners()

    def _check_winners(self) -> None:
        """A stored bracket: every winner played in his match, every bye went through."""
        for round_number in range(1, self.rounds + 1):
            for match in self.round(round_number):
                bye_withheld = match.is_bye and match.winner != match.top
                if bye_withheld or (match.winner is not None and match.winner not in match.players):
                    raise TournamentError(
                        f"match {match.index} of round {round_number}: winner {match.winner} "
                        f"is not one of {match.players}"
                    )

    @property
    def size(self) -> int:
        return bracket_size(self.players)

    @property
    def rounds(self) -> int:
        return self.size.bit_length() - 1

    def match_length(self, round_number: int) -> int:
        return match_length(self.match_lengths, round_number, self.rounds)

    def _match_count(self, round_number: int) -> int:
        return self.size >> round_number

    def _new_winners(self) -> tuple[tuple[int | None, ...], ...]:
        # A bye is decided before play starts: the seed facing it goes through.
        first = tuple(top if bottom > self.players else None for top, bottom in self._first_round_seeds())
        later = tuple((None,) * self._match_count(r) for r in range(2, self.rounds + 1))
        return (first, *later)

    def _first_round_seeds(self) -> list[tuple[int, int]]:
        order = seeding_order(self.size)
        return [(order[i], order[i + 1]) for i in range(0, self.size, 2)]

    def match(self, round_number: int, index: int) -> BracketMatch:
        """Match ``index`` (0-based, top to bottom) of round ``round_number`` (1-based)."""
        length = self.match_length(round_number)
        if not 0 <= index < self._match_count(round_number):
            raise TournamentError(
                f"match {index} of round {round_number}: the round has {self._match_count(round_number)}"
            )
        winner = self.winners[round_number - 1][index]
        if round_number == 1:
            top, bottom = self._first_round_seeds()[index]
            if bottom > self.players:
                return BracketMatch(1, index, length, top, None, True, winner)
            return BracketMatch(1, index, length, top, bottom, False, winner)
        feeders = self.winners[round_number - 2]
        return BracketMatch(
            round_number, index, length, feeders[2 * index], feeders[2 * index + 1], False, winner
        )

    def round(self, round_number: int) -> tuple[BracketMatch, ...]:
        if not 1 <= round_number <= self.rounds:
            raise TournamentError(f"round {round_number}: this knockout has rounds 1 to {self.rounds}")
        return tuple(self.match(round_number, i) for i in range(self._match_count(round_number)))

    def ready_matches(self) -> tuple[BracketMatch, ...]:
        """The matches that can be played now, in every round."""
        return tuple(m for r in range(1, self.rounds + 1) for m in self.round(r) if m.ready)

    @property
    def current_round(self) -> int | None:
        """The first round with an undecided match; None once there is a champion."""
        for number, winners in enumerate(self.winners, start=1):
            if None in winners:
                return number
        return None

    @property
    def champion(self) -> int | None:
        return self.winners[-1][0]

    def record(self, round_number: int, index: int, winner: int) -> Knockout:
        """The bracket after ``winner`` has won match ``index`` of ``round_number``."""
        match = self.match(round_number, index)
        if not match.ready:
            state = "is decided" if match.winner is not None else "waits for its players"
            raise TournamentError(f"match {index} of round {round_number} {state}")
        if winner not in match.players:
            raise TournamentError(
                f"match {index} of round {round_number}: {winner} is not one of {match.players}"
            )
        changed = list(self.winners[round_number - 1])
        changed[index] = winner
        winners = (*self.winners[: round_number - 1], tuple(changed), *self.winners[round_number:])
        return Knockout(self.players, self.match_lengths, winners)

    def eliminated_in(self, player: int) -> int | None:
        """The round a player lost in (a bye is not a loss); None while still in, or for
        the champion."""
        for round_number in range(1, self.rounds + 1):
            for match in self.round(round_number):
                if player in match.players and match.winner is not None and match.winner != player:
                    return round_number
        return None
