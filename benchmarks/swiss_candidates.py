"""Where a bracket's pairing comes in the candidate order of C.04.3 section D.

A bracket is paired by trying candidates in a fixed order and keeping the first one of
the best quality, so of two pairings equal on every criterion the one generated first
is right. The order, for a bracket whose players carry the in-bracket sequence numbers
(BSN) 1..n:

* a heterogeneous bracket first pairs its moved-down players (MDPs): S1 holds the M1
  MDPs to pair, the others wait in Limbo; MDP-exchanges between S1 and Limbo (D.3) are
  the outer loop and transpositions of S2, the residents, the inner one (D.1). The
  remainder is then paired as a homogeneous bracket, for each MDP-pairing in turn;
* a homogeneous bracket (or remainder) of P pairs has S1 = its P highest players and
  S2 the rest; resident exchanges between S1 and S2 (D.2) are the outer loop, sorted by
  fewest players exchanged, then the smallest difference between the BSN sums moved in
  and out of S1, then the highest BSN moved out of S1, then the lowest moved into it;
  transpositions of S2 (D.1), lexicographic on the first P BSNs of S2, the inner loop.

A pairing is reached first by the exchange that leaves the lower BSN of every pair in
S1 (any other choice exchanges more players, or higher ones): so its position is a key
computed from the pairs alone, and comparing keys compares the generation order. The
MDP-exchanges are sorted here by the same rules as D.2, Limbo taking S2's place.
"""

from __future__ import annotations

from collections.abc import Iterable

Pair = frozenset[int]
Exchange = tuple[int, int, tuple[int, ...], tuple[int, ...]]
Key = tuple[Exchange, tuple[int, ...], Exchange, tuple[int, ...]]


def exchange_key(original_s1: Iterable[int], s1: Iterable[int]) -> Exchange:
    """D.2's sort key of the exchange turning ``original_s1`` into ``s1`` (BSNs):
    players exchanged, sum moved in minus sum moved out, the BSNs moved out (highest
    first, the higher the better), the BSNs moved in (lowest first, the lower the better)."""
    before, after = set(original_s1), set(s1)
    moved_in = sorted(after - before)
    moved_out = sorted(before - after, reverse=True)
    return (
        len(moved_in),
        sum(moved_in) - sum(moved_out),
        tuple(-b for b in moved_out),
        tuple(moved_in),
    )


def _stage(pairs: list[tuple[int, int]], original_s1: list[int]) -> tuple[Exchange, tuple[int, ...]]:
    """Exchange key and transposition (S1's partners in S1's order) of pairs given as
    (S1 member, S2 member) in BSNs."""
    pairs = sorted(pairs)
    return exchange_key(original_s1, [a for a, _ in pairs]), tuple(b for _, b in pairs)


def candidate_key(members: tuple[int, ...], moved_down: frozenset[int], pairs: Iterable[Pair]) -> Key:
    """The section D position of a bracket's pairing: ``members`` are the bracket's
    players in bracket order, ``moved_down`` its MDPs, ``pairs`` the pairs made in it.
    Smaller keys are generated first."""
    bsn = {number: position + 1 for position, number in enumerate(members)}
    mdps = [bsn[n] for n in members if n in moved_down]
    mdp_pairs: list[tuple[int, int]] = []
    remainder_pairs: list[tuple[int, int]] = []
    for pair in pairs:
        low, high = sorted(bsn[n] for n in pair)
        (mdp_pairs if low in mdps else remainder_pairs).append((low, high))
    mdp_stage = _stage(mdp_pairs, mdps[: len(mdp_pairs)])
    taken = {b for pair in mdp_pairs for b in pair}
    remainder = [bsn[n] for n in members if n not in moved_down and bsn[n] not in taken]
    remainder_stage = _stage(remainder_pairs, remainder[: len(remainder_pairs)])
    return (mdp_stage[0], mdp_stage[1], remainder_stage[0], remainder_stage[1])
