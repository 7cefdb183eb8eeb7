"""Why a round cannot be paired, said so that the tournament director knows what to do.

A round has no pairing when no way of pairing everybody present (bar one player who
may take the bye) keeps the absolute criteria: no rematch (C.1), no second pairing bye
nor a bye after a forfeit win (C.2), no two non-topscorers due the same colour
absolutely (C.3). That happens in the late rounds of a small field, when the rounds
asked for outnumber what the field can give. The message names the criterion that
blocks, the players who can meet nobody, and the ways out.
"""

from __future__ import annotations

from tavla.tournament.dutch.criteria import compatible
from tavla.tournament.dutch.matching import completes
from tavla.tournament.dutch.players import SwissPlayer


def _completes(players: list[SwissPlayer], colours: bool, byes: bool) -> bool:
    """Can ``players`` all be paired, with C.3 (``colours``) and C.2 (``byes``) kept?"""
    indices = list(range(len(players)))

    def allowed(u: int, v: int) -> bool:
        a, b = players[u], players[v]
        return compatible(a, b) if colours else b.number not in a.opponents

    return completes(indices, allowed, lambda v: players[v].bye_allowed or not byes)


def _blocking_rule(players: list[SwissPlayer]) -> str:
    if _completes(players, colours=False, byes=True):
        return "every complete pairing puts two players due the same colour absolutely together (C.3)"
    if _completes(players, colours=True, byes=False):
        return "every player who could sit out has already had the pairing bye or a forfeit win (C.2)"
    if _completes(players, colours=False, byes=False):
        return "the colour rule (C.3) and the one-bye rule (C.2) together leave no pairing"
    return "every complete pairing repeats a game already played (C.1)"


def _isolated(players: list[SwissPlayer]) -> list[int]:
    """Start numbers of the players who may meet none of the others present."""
    return [a.number for a in players if not any(compatible(a, b) for b in players if b is not a)]


def no_pairing_message(players: list[SwissPlayer], round_number: int) -> str:
    """The error for a round that no pairing can satisfy (see the module's text)."""
    count = len(players)
    if _completes(players, colours=True, byes=True):
        return (
            f"round {round_number}: no pairing found although one keeps the absolute criteria;"
            " this is a fault of the pairing program: please report it with this file"
        )
    reason = _blocking_rule(players)
    isolated = _isolated(players)
    who = ""
    if isolated:
        names = ", ".join(str(n) for n in isolated)
        who = f"; player{'s' if len(isolated) > 1 else ''} {names} may meet none of the others present"
    rounds_played = round_number - 1
    return (
        f"round {round_number}: no pairing of the {count} players present keeps the absolute"
        f" criteria: {reason}{who}. The field is too small for this many rounds: end the"
        f" tournament after round {rounds_played} (set XXR to {rounds_played}), or pair"
        " this round by hand as the chief arbiter decides"
    )
