"""Round robin by the Berger tables (RULES 11.3): everyone meets everyone, once in a
single round robin and twice, colours reversed, in a double one.

Players are known by their start number, 1..N. The tables are the ones FIDE publishes
(Handbook C.05, annex 1), computed here rather than stored. With an even field of n
players there are m = n - 1 rounds and, in round r:

- player n meets player p, where p = (r + 1) / 2 for odd r and (r + n) / 2 for even r
  (so that 2p = r + 1 modulo m); player n has Black in odd rounds and White in even ones;
- on the other boards, board k + 1 (k = 1 .. n/2 - 1) seats p + k with White against
  p - k with Black, counted round the circle 1..m.

This gives, for 8 players, round 1: 1-8 2-7 3-6 4-5 and round 2: 8-5 6-4 7-3 1-2, the
published rows. An odd field adds a phantom player N + 1: whoever would meet it rests
that round (the bye, which in a round robin scores nothing).

In a double round robin the second cycle repeats the first with colours reversed. As
FIDE recommends, the last two rounds of the first cycle are played in swapped order:
otherwise the first round of the second cycle would give many players the colour of
the last round of the first cycle again, and some a third game in a row with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.tournament.history import TournamentError
from tavla.tournament.lengths import check_match_lengths, match_length


@dataclass(frozen=True)
class Pairing:
    """One game of a round: the player with White, the player with Black."""

    white: int
    black: int

    @property
    def players(self) -> tuple[int, int]:
        return (self.white, self.black)

    def reversed(self) -> Pairing:
        return Pairing(white=self.black, black=self.white)


@dataclass(frozen=True)
class RoundPairings:
    """A round's games in board order, and the player who rests (odd fields only)."""

    round: int
    pairings: tuple[Pairing, ...]
    bye: int | None = None

    def colours_reversed(self, round_number: int) -> RoundPairings:
        return RoundPairings(round_number, tuple(p.reversed() for p in self.pairings), self.bye)


def table_size(players: int) -> int:
    """The Berger table used for a field: the field itself, or one more when it is odd."""
    return players + players % 2


def rounds_per_cycle(players: int) -> int:
    return table_size(players) - 1


def berger_round(players: int, round_number: int) -> RoundPairings:
    """Round ``round_number`` (1-based) of a single round robin of ``players`` players."""
    if players < 2:
        raise TournamentError(f"round robin of {players} players: needs at least 2")
    n = table_size(players)
    m = n - 1
    if not 1 <= round_number <= m:
        raise TournamentError(f"round {round_number}: a round robin of {players} has rounds 1 to {m}")

    def around(number: int) -> int:
        # The players 1..m sit on a circle; n stays fixed at board 1.
        return (number - 1) % m + 1

    r = round_number
    partner_of_last = (r + 1) // 2 if r % 2 == 1 else (r + n) // 2
    first_board = Pairing(partner_of_last, n) if r % 2 == 1 else Pairing(n, partner_of_last)
    boards = [first_board]
    boards += [Pairing(around(partner_of_last + k), around(partner_of_last - k)) for k in range(1, n // 2)]
    if players == n:
        return RoundPairings(r, tuple(boards))
    # Odd field: the phantom player n is the bye; whoever meets it rests.
    return RoundPairings(r, tuple(boards[1:]), bye=partner_of_last)


@dataclass(frozen=True)
class RoundRobin:
    """A round robin: the field size, one match length for every round or one per round
    (points, RULES 9.1, or Abluka sets, RULES 8.3), and the number of cycles (1 single,
    2 double)."""

    players: int
    match_lengths: tuple[int, ...]
    cycles: int = 1

    def __post_init__(self) -> None:
        if self.players < 2:
            raise TournamentError(f"round robin of {self.players} players: needs at least 2")
        if self.cycles not in (1, 2):
            raise TournamentError(f"round robin of {self.cycles} cycles: single (1) or double (2) only")
        check_match_lengths(self.match_lengths, self.rounds)

    @property
    def rounds(self) -> int:
        return rounds_per_cycle(self.players) * self.cycles

    def match_length(self, round_number: int) -> int:
        return match_length(self.match_lengths, round_number, self.rounds)

    def round(self, round_number: int) -> RoundPairings:
        """The pairings of round ``round_number`` (1-based, counted over both cycles)."""
        if not 1 <= round_number <= self.rounds:
            raise TournamentError(f"round {round_number}: this round robin has rounds 1 to {self.rounds}")
        m = rounds_per_cycle(self.players)
        if self.cycles == 1:
            return berger_round(self.players, round_number)
        if round_number > m:
            return berger_round(self.players, round_number - m).colours_reversed(round_number)
        # First cycle of a double round robin: its last two rounds are swapped (FIDE).
        table_round = round_number
        if m >= 3 and round_number >= m - 1:
            table_round = 2 * m - 1 - round_number
        table = berger_round(self.players, table_round)
        return RoundPairings(round_number, table.pairings, table.bye)

    def schedule(self) -> tuple[RoundPairings, ...]:
        return tuple(self.round(r) for r in range(1, self.rounds + 1))
