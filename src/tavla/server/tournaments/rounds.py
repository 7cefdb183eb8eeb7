"""The stored tournament seen by the pure package :mod:`tavla.tournament`: which round
comes next and how it is paired, the players' histories, the standings.

Only official results count (RULES.md 11.4): a round is paired from the rounds before
it once all their results are official. Players are known here by start number, as
the pairing systems know them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavla.tournament import dutch
from tavla.tournament.history import Colour, Entrant, Outcome, RoundEntry, TournamentError
from tavla.tournament.knockout import Knockout
from tavla.tournament.roundrobin import RoundRobin, rounds_per_cycle
from tavla.tournament.standings import standings

SWISS = "swiss"
KNOCKOUT = "knockout"
ROUND_ROBIN = "round_robin"
FORMATS = (SWISS, KNOCKOUT, ROUND_ROBIN)


@dataclass(frozen=True)
class Player:
    """An entrant who started: start number, name, and whether he has withdrawn."""

    number: int
    name: str
    withdrawn: bool = False


@dataclass(frozen=True)
class Played:
    """An official board of a round, by start numbers; ``black`` None for a bye (or a
    rest in a round robin). ``result`` is "white", "black", "draw" or "bye"; a forfeit
    (a withdrawal, or an imported report's + and -) "white_ff", "black_ff" or "both_ff";
    an imported report's half-point bye "half_bye"."""

    round: int
    board: int
    white: int
    black: int | None
    result: str
    white_score: int = 0
    black_score: int = 0


@dataclass(frozen=True)
class Board:
    """A board of the round to play: ``black`` None is a bye (or a rest)."""

    board: int
    white: int
    black: int | None


@dataclass(frozen=True)
class Line:
    """A line of the standings (knockout: by the round a player went out in)."""

    rank: int
    number: int
    name: str
    points: float
    buchholz: float = 0.0
    buchholz_cut1: float = 0.0
    sonneborn_berger: float = 0.0
    direct_encounter: float = 0.0
    sets_won: int = 0
    withdrawn: bool = False


def total_rounds(format: str, swiss_rounds: int | None, field: int) -> int:
    """How many rounds a tournament of ``field`` starters plays."""
    if format == SWISS:
        return swiss_rounds or 1
    if format == ROUND_ROBIN:
        return rounds_per_cycle(field)
    return Knockout(field, (1,)).rounds


def check_field(format: str, swiss_rounds: int | None, lengths: tuple[int, ...], field: int) -> None:
    """Refuse a field the format cannot play (TournamentError says why)."""
    if field < 2:
        raise TournamentError(f"{field} players checked in: a tournament needs at least 2")
    if format == SWISS and (swiss_rounds or 1) >= field:
        raise TournamentError(
            f"{swiss_rounds} Swiss rounds need more than {swiss_rounds} players, not {field}"
        )
    if format == ROUND_ROBIN:
        RoundRobin(field, lengths)
    elif format == KNOCKOUT:
        Knockout(field, lengths)


def _bracket(
    field: int, lengths: tuple[int, ...], played: Sequence[Played], *, refuse_draws: bool = True
) -> Knockout:
    """The bracket after the results; a drawn match (which odd set counts prevent, see
    service.create) cannot be carried on: pairing refuses it, the table leaves it open."""
    bracket = Knockout(field, lengths)
    for board in sorted(played, key=lambda b: (b.round, b.board)):
        if board.black is None:
            continue  # a bye: the bracket gave it at the start
        if board.result == "draw":
            if not refuse_draws:
                continue
            raise TournamentError(
                f"board {board.board} of round {board.round}: a knockout match needs a winner"
            )
        bracket = bracket.record(board.round, board.board - 1, _winner(board))
    return bracket


def _winner(board: Played) -> int:
    """Who goes on from a decided knockout board. When both forfeited (both withdrew),
    the top one is carried on: withdrawn, he forfeits his next match too, so the
    opponent waiting there goes on without playing."""
    if board.result in BLACK_WINS and board.black is not None:
        return board.black
    return board.white


BLACK_WINS = ("black", "black_ff")
WHITE_WINS = ("white", "white_ff")


def pair(
    format: str,
    swiss_rounds: int | None,
    lengths: tuple[int, ...],
    players: Sequence[Player],
    played: Sequence[Played],
    round_number: int,
) -> list[Board]:
    """The boards of round ``round_number``, every earlier round being official."""
    field = len(players)
    if format == ROUND_ROBIN:
        table = RoundRobin(field, lengths).round(round_number)
        boards = [Board(i, p.white, p.black) for i, p in enumerate(table.pairings, start=1)]
        return boards + ([Board(len(boards) + 1, table.bye, None)] if table.bye is not None else [])
    if format == KNOCKOUT:
        matches = _bracket(field, lengths, played).round(round_number)
        return [Board(m.index + 1, m.top, m.bottom) for m in matches if m.top is not None]
    history = histories(players, played, round_number - 1, format)
    absent = frozenset(p.number for p in players if p.withdrawn)
    paired = dutch.pair_round(history, round_number - 1, total_rounds(format, swiss_rounds, field), absent)
    boards = [Board(i, white, black) for i, (white, black) in enumerate(paired.games, start=1)]
    return boards + ([Board(len(boards) + 1, paired.bye, None)] if paired.bye is not None else [])


_OUTCOMES = {
    "white": (Outcome.WIN, Outcome.LOSS),
    "black": (Outcome.LOSS, Outcome.WIN),
    "draw": (Outcome.DRAW,) * 2,
    # Forfeits (an imported report's + and -): no game was played, so no colour counts.
    "white_ff": (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    "black_ff": (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    "both_ff": (Outcome.FORFEIT_LOSS,) * 2,
}
HALF_BYE = "half_bye"
"""A board without an opponent worth half a point (an imported report's H)."""


def histories(
    players: Sequence[Player], played: Sequence[Played], rounds: int, format: str
) -> tuple[Entrant, ...]:
    """Each player's rounds 1..``rounds``; a round he was not paired in is an absence."""
    absent = RoundEntry(None, None, Outcome.ZERO_BYE)
    # A Swiss bye scores a win (RULES 11.3); a round robin's rest scores nothing.
    bye = Outcome.PAIRING_BYE if format == SWISS else Outcome.ZERO_BYE
    entries: dict[int, list[RoundEntry]] = {p.number: [absent] * rounds for p in players}
    for board in played:
        if board.round > rounds:
            continue
        index = board.round - 1
        if board.black is None:
            outcome = Outcome.HALF_BYE if board.result == HALF_BYE else bye
            entries[board.white][index] = RoundEntry(None, None, outcome)
            continue
        white, black = _OUTCOMES[board.result]
        white_colour, black_colour = (Colour.WHITE, Colour.BLACK) if white.played else (None, None)
        entries[board.white][index] = RoundEntry(board.black, white_colour, white, board.white_score)
        entries[board.black][index] = RoundEntry(board.white, black_colour, black, board.black_score)
    return tuple(Entrant(p.number, p.name, 0, tuple(entries[p.number])) for p in players)


def table(
    format: str, lengths: tuple[int, ...], players: Sequence[Player], played: Sequence[Played], rounds: int
) -> list[Line]:
    """The standings after round ``rounds`` (every result counted being official)."""
    withdrawn = {p.number for p in players if p.withdrawn}
    if format != KNOCKOUT:
        lines = standings(histories(players, played, rounds, format), rounds)
        return [
            Line(s.rank, s.number, s.name, s.points, s.buchholz, s.buchholz_cut1, s.sonneborn_berger,
                 s.direct_encounter, s.sets_won, s.number in withdrawn)
            for s in lines
        ]  # fmt: skip
    return _knockout_table(lengths, players, played)


def _knockout_table(
    lengths: tuple[int, ...], players: Sequence[Player], played: Sequence[Played]
) -> list[Line]:
    """Knockout places: the champion, then by the round a player went out in (later is
    better: the final's loser is 2nd, the semi-finals' losers share 3rd, ...)."""
    bracket = _bracket(len(players), lengths, played, refuse_draws=False)
    wins = {p.number: 0 for p in players}
    for board in played:
        if board.black is not None and board.result in (*WHITE_WINS, *BLACK_WINS):
            wins[_winner(board)] += 1

    def place(number: int) -> int:
        # Players still in share first place until the bracket decides between them.
        out = bracket.eliminated_in(number)
        return 1 if out is None else (bracket.size >> out) + 1

    ranked = sorted(players, key=lambda p: (place(p.number), p.number))
    return [
        Line(place(p.number), p.number, p.name, float(wins[p.number]), withdrawn=p.withdrawn) for p in ranked
    ]
