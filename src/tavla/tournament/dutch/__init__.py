"""The FIDE Dutch system (C.04.3, the rules in force since 2017 as the endorsed program
bbpPairings applies them) for Swiss tournaments: the default format of Abluka (RULES 11.3).

How a round is paired:

* :mod:`.players` reads each present player's score, colour history and preference,
  floats and right to the bye from the round history;
* :mod:`.brackets` pairs the score brackets from the top, each with weighted maximum
  matchings (networkx's blossom algorithm, exact on integer weights of any size) whose
  edge weights hold the criteria of :mod:`.criteria` in priority order followed by the
  tie-breaks that reproduce the candidate order of section D. This is the method of
  bbpPairings; it finds the same pairing as the transposition and exchange procedure
  without enumerating candidates, so a bracket of fifty costs a few matchings, not
  fifty factorial candidates;
* :mod:`.colours` gives the colours (section E).

:func:`pair_round` is the entry point; :func:`pairing_lines` prints a round as
``bbpPairings -p`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.tournament.dutch.brackets import NoPairingError, RoundPairer
from tavla.tournament.dutch.colours import colour_of, ranks_above
from tavla.tournament.dutch.diagnosis import no_pairing_message
from tavla.tournament.dutch.players import SwissPlayer, swiss_players
from tavla.tournament.history import Colour, Entrant, Outcome, TournamentError

__all__ = ["RoundPairing", "SwissPlayer", "pair_round", "pairing_lines", "swiss_players"]


@dataclass(frozen=True)
class RoundPairing:
    """A paired round: (white, black) start numbers in publication order, and the start
    number given the pairing-allocated bye, if any."""

    games: tuple[tuple[int, int], ...]
    bye: int | None


def _first_colour(entrants: tuple[Entrant, ...], played: int) -> Colour:
    """The round-1 colour of the top seed when XXC does not say: read back from the
    first round in which colours were given (the n-th player paired by then had the
    first colour if n is odd); white for a tournament not yet begun."""
    coloured = [
        index
        for entrant in entrants
        for index, entry in enumerate(entrant.rounds[:played])
        if entry.colour is not None
    ]
    if not coloured:
        return Colour.WHITE
    first_round = min(coloured)
    count = 0
    for entrant in entrants:
        early = entrant.rounds[: first_round + 1]
        if not any(e.opponent is not None or e.outcome is Outcome.PAIRING_BYE for e in early):
            continue
        colour = early[first_round].colour if first_round < len(early) else None
        if colour is not None:
            return colour.other if count % 2 else colour
        count += 1
    return Colour.WHITE


def _publication_key(pair: tuple[SwissPlayer, SwissPlayer]) -> tuple[int, int, int]:
    """Boards by the higher player's score, then the lower player's, then rank."""
    higher, lower = pair if ranks_above(pair[0], pair[1]) else (pair[1], pair[0])
    return (-higher.score, -lower.score, higher.rank)


def _first_round(
    players: list[SwissPlayer],
) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], SwissPlayer | None]:
    """Round 1 has one bracket and no criterion to weigh: the top half meets the bottom
    half in order, and the last player of an odd field gets the bye (C.04.3 D.1's
    first candidate, which is perfect)."""
    half = len(players) // 2
    pairs = [(players[i], players[i + half]) for i in range(half)]
    return pairs, players[-1] if len(players) % 2 else None


def pair_round(
    entrants: tuple[Entrant, ...],
    played: int,
    total_rounds: int,
    absent: frozenset[int] = frozenset(),
    first_colour: Colour | None = None,
) -> RoundPairing:
    """Pair round ``played + 1`` of ``total_rounds``. ``entrants`` hold the rounds so far
    (entries beyond ``played`` are ignored); players in ``absent`` are left out.
    Raises TournamentError when no pairing keeps the absolute criteria, saying which
    criterion blocks and what the director may do (:mod:`.diagnosis`)."""
    if played >= total_rounds:
        raise TournamentError(f"all {total_rounds} rounds have been played")
    players = swiss_players(entrants, played, total_rounds, absent)
    if not players:
        raise TournamentError("nobody is present to pair")
    colour = first_colour if first_colour is not None else _first_colour(entrants, played)
    try:
        pairs, bye = _first_round(players) if played == 0 else RoundPairer(players).pair()
    except NoPairingError:
        raise TournamentError(no_pairing_message(players, played + 1)) from None
    pairs.sort(key=_publication_key)
    games = []
    for a, b in pairs:
        white, black = (a, b) if colour_of(a, b, colour) is Colour.WHITE else (b, a)
        games.append((white.number, black.number))
    return RoundPairing(tuple(games), None if bye is None else bye.number)


def pairing_lines(pairing: RoundPairing) -> list[str]:
    """``bbpPairings -p`` output: the number of lines, then ``white black`` per game and
    ``N 0`` for the bye."""
    lines = [f"{white} {black}" for white, black in pairing.games]
    if pairing.bye is not None:
        lines.append(f"{pairing.bye} 0")
    return [str(len(lines)), *lines]
