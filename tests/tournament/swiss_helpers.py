"""Building small Swiss tournaments for the tests, and the invariants every paired round
must keep whatever the criteria below them decide."""

from __future__ import annotations

import random

from benchmarks.swiss_oracle import new_tournament, ours, play, with_absences

from tavla.tournament.dutch import RoundPairing
from tavla.tournament.dutch.players import swiss_players
from tavla.tournament.history import Colour, Entrant, Outcome, RoundEntry
from tavla.tournament.trf import TrfPlayer, TrfTournament, read_trf, write_trf

W, B = Colour.WHITE, Colour.BLACK


def game(opponent: int, colour: Colour, result: str) -> RoundEntry:
    return RoundEntry(opponent, colour, Outcome(result))


def bye(code: str) -> RoundEntry:
    return RoundEntry(None, None, Outcome(code))


def report(rounds: dict[int, list[RoundEntry]], total: int, first: Colour = W) -> str:
    """The TRF text of players 1..N (ratings falling) with the given round entries."""
    players = tuple(
        TrfPlayer(Entrant(number, f"Player {number}", 2400 - 10 * number, tuple(entries)))
        for number, entries in sorted(rounds.items())
    )
    return write_trf(TrfTournament(players, ("012 Test",), total, first))


def simulate(seed: int, players: int, rounds: int) -> list[tuple[TrfTournament, RoundPairing]]:
    """A random tournament paired by us: each round's report (before pairing) and pairing."""
    rng = random.Random(seed)
    tournament = new_tournament(rng, players, rounds)
    withdrawn: set[int] = set()
    history = []
    for _ in range(rounds):
        tournament = with_absences(tournament, rng, withdrawn)
        pairing = ours(write_trf(tournament))
        history.append((tournament, pairing))
        tournament = play(pairing, tournament, rng)
    return history


def broken_invariants(tournament: TrfTournament, pairing: RoundPairing) -> list[str]:
    """What the pairing gets wrong among the rules no criterion may trade away: each
    present player once, no rematch (C.1), the bye only to one who never had a pairing
    bye nor a forfeit win (C.2), and colours (C.3 / A.6): no third colour in a row and a
    colour difference within ±2, except for a topscorer's pair in the last round."""
    report_ = read_trf(write_trf(tournament))
    played = report_.played_rounds
    assert report_.total_rounds is not None
    absent = report_.absent_from_next_round()
    players = {p.number: p for p in swiss_players(report_.entrants, played, report_.total_rounds, absent)}
    problems = []
    seen = [n for g in pairing.games for n in g] + ([pairing.bye] if pairing.bye else [])
    if sorted(seen) != sorted(players):
        problems.append(f"round {played + 1}: paired {sorted(seen)}, present {sorted(players)}")
    for white, black in pairing.games:
        if black in players[white].opponents:
            problems.append(f"round {played + 1}: rematch {white}-{black}")
        if players[white].topscorer or players[black].topscorer:
            continue
        for number, colour in ((white, W), (black, B)):
            colours = (*players[number].colours, colour)
            if len(colours) >= 3 and len(set(colours[-3:])) == 1:
                problems.append(f"round {played + 1}: {number} gets {colour.value} a third time in a row")
            if abs(2 * colours.count(W) - len(colours)) > 2:
                problems.append(f"round {played + 1}: {number}'s colour difference passes 2")
    if pairing.bye is not None and not players[pairing.bye].bye_allowed:
        problems.append(f"round {played + 1}: {pairing.bye} gets a second bye")
    return problems
