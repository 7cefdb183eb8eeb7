"""A match length per round (RULES 11.3): points for the backgammon family (RULES 9.1),
sets for Abluka (RULES 8.3).

Organisers give either one length for every round or one per round; knockouts often
lengthen the later rounds (round 1 to 5 points, the final to 11).
"""

from __future__ import annotations

from tavla.tournament.history import TournamentError


def check_match_lengths(lengths: tuple[int, ...], rounds: int) -> None:
    """Refuse lengths that do not fit a tournament of ``rounds`` rounds."""
    if len(lengths) not in (1, rounds):
        raise TournamentError(f"match lengths {lengths}: give one length for every round or exactly {rounds}")
    for length in lengths:
        if length < 1:
            raise TournamentError(f"match length {length}: must be a positive number (RULES 9.1)")


def match_length(lengths: tuple[int, ...], round_number: int, rounds: int) -> int:
    """The length of round ``round_number`` (1-based)."""
    if not 1 <= round_number <= rounds:
        raise TournamentError(f"round {round_number}: the tournament has rounds 1 to {rounds}")
    return lengths[0] if len(lengths) == 1 else lengths[round_number - 1]
