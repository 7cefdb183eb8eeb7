"""Judging two pairings of the same round bracket by bracket, as C.04.3 pairs a round.

The Dutch system pairs the score brackets one after the other from the top (B, C), and
a bracket's pairing is final before the next one is looked at: its quality criteria
(C.5-C.19) are weighed among the candidates of that bracket only, with the brackets
above it fixed. Comparing two finished round pairings on round-wide sums can therefore
misjudge them: a pairing that loses on colours in a low bracket may have won a float
criterion in a higher one, which came first. Here both pairings are replayed bracket by
bracket; the first bracket where they pair differently decides, on its own criteria in
their order, and when those are equal on the order in which section D generates the
candidates (transpositions and exchanges), since the first candidate of the best
quality is the one chosen.

This is a test oracle's judge, written apart from the engine: it reads the same player
state (:func:`tavla.tournament.dutch.players.swiss_players`) and the colour allocation
(section E), nothing of the matching.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx
from benchmarks.swiss_candidates import candidate_key

from tavla.tournament.dutch import RoundPairing
from tavla.tournament.dutch.colours import colour_of
from tavla.tournament.dutch.criteria import compatible
from tavla.tournament.dutch.players import Float, SwissPlayer
from tavla.tournament.history import Colour

Pair = frozenset[int]

CRITERIA = (
    "C.5 pairs",
    "C.6 PSD",
    "C.7 next bracket",
    "bye to the most games played",
    "C.8 colour difference beyond 2",
    "C.9 three colours in a row",
    "C.10 colour preferences",
    "C.11 strong colour preferences",
    "C.12 downfloat as last round",
    "C.13 upfloat as last round",
    "C.14 downfloat as two rounds before",
    "C.15 upfloat as two rounds before",
    "C.16 score differences of C.12",
    "C.17 score differences of C.13",
    "C.18 score differences of C.14",
    "C.19 score differences of C.15",
)


@dataclass(frozen=True)
class Bracket:
    """One bracket as a pairing left it: its players in bracket order (A.2; the
    in-bracket sequence numbers are positions here, from 1), the pairs made in it and
    the players it moved down (the last bracket's one is the bye)."""

    score: int
    players: tuple[int, ...]
    moved_down: frozenset[int]
    pairs: frozenset[Pair]
    floaters: tuple[int, ...]
    next_group: tuple[int, ...]


@dataclass(frozen=True)
class Verdict:
    """Where two pairings part: the bracket's score (half points), the rule that
    decides and which side it favours ("ours", "oracle" or "equal")."""

    score: int
    rule: str
    better: str


def _order(numbers: Iterable[int], players: dict[int, SwissPlayer]) -> tuple[int, ...]:
    return tuple(sorted(numbers, key=lambda n: (-players[n].score, players[n].rank)))


def brackets(pairing: RoundPairing, players: dict[int, SwissPlayer]) -> list[Bracket]:
    """The brackets of ``pairing``, top down. A pair is made in the bracket of its
    lower player's score group (moved-down players only meet residents)."""
    partner = {a: b for a, b in pairing.games} | {b: a for a, b in pairing.games}
    groups: dict[int, list[int]] = {}
    for number in _order(players, players):
        groups.setdefault(players[number].score, []).append(number)
    scores = sorted(groups, reverse=True)
    result = []
    moved: tuple[int, ...] = ()
    for index, score in enumerate(scores):
        members = _order((*moved, *groups[score]), players)
        inside = set(members)
        pairs = frozenset(frozenset((n, partner[n])) for n in members if partner.get(n) in inside)
        paired = {n for pair in pairs for n in pair}
        floaters = tuple(n for n in members if n not in paired)
        following = tuple(groups[scores[index + 1]]) if index + 1 < len(scores) else ()
        result.append(Bracket(score, members, frozenset(moved), pairs, floaters, following))
        moved = floaters
    return result


# -- the quality criteria of one bracket (C.5-C.19), each smaller-is-better ------------


def _descending(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(values, reverse=True))


def _psd(bracket: Bracket, players: dict[int, SwissPlayer]) -> tuple[int, ...]:
    """A.8: the score difference of each pair, and of each downfloater against one
    point (two half points) below the bracket's lowest score; largest first."""
    artificial = min(players[n].score for n in bracket.players) - 2
    diffs = [abs(players[a].score - players[b].score) for a, b in map(tuple, bracket.pairs)]
    diffs += [players[n].score - artificial for n in bracket.floaters]
    return _descending(diffs)


def next_bracket_outlook(
    floaters: Sequence[int], next_group: Sequence[int], players: dict[int, SwissPlayer]
) -> tuple[int, tuple[int, ...]]:
    """C.7: the most pairs the next bracket can make with these moved-down players, and
    then its smallest PSD, as (-pairs, PSD); a pair there has a resident of the next
    score group for its lower player. One maximum-weight matching: a pair is
    worth more than any PSD saving, and a score difference d costs base**d, so a larger
    difference outweighs any number of smaller ones."""
    members = list(dict.fromkeys((*floaters, *next_group)))
    if not members:
        return 0, ()
    artificial = min(players[n].score for n in members) - 2
    base = 2 * len(members) + 2
    alone = {n: players[n].score - artificial for n in members}
    top = base ** (max(alone.values()) + 1) * 2
    graph: nx.Graph[int] = nx.Graph()
    moved = set(floaters)
    for i, u in enumerate(members):
        for v in members[i + 1 :]:
            # Two players moved down from the same bracket do not meet in the next one:
            # had they been able to, the bracket would have paired them itself.
            if not (u in moved and v in moved) and compatible(players[u], players[v]):
                d = abs(players[u].score - players[v].score)
                graph.add_edge(u, v, weight=top + base ** alone[u] + base ** alone[v] - base**d)
    matching = nx.max_weight_matching(graph)
    paired = {n for pair in matching for n in pair}
    diffs = [abs(players[u].score - players[v].score) for u, v in matching]
    diffs += [alone[n] for n in members if n not in paired]
    return -len(matching), _descending(diffs)


def _colour_counts(bracket: Bracket, players: dict[int, SwissPlayer], first: Colour) -> list[int]:
    """C.8-C.11 over the bracket's pairs, colours given by section E."""
    beyond = in_a_row = missed = strong = 0
    for pair in bracket.pairs:
        a, b = (players[n] for n in _order(pair, players))
        given = colour_of(a, b, first)
        for player, colour in ((a, given), (b, given.other)):
            history = (*player.colours, colour)
            beyond += abs(2 * history.count(Colour.WHITE) - len(history)) > 2
            in_a_row += len(history) >= 3 and len(set(history[-3:])) == 1
            if player.preference is not None and player.preference is not colour:
                missed += 1
                strong += player.strong
    return [beyond, in_a_row, missed, strong]


def _float_counts(bracket: Bracket, players: dict[int, SwissPlayer]) -> list[object]:
    """C.12-C.19: players who get the float they got one (two) rounds before, counted
    and then their score differences. In the bracket, the higher player of a pair with
    different scores floats down and the lower one up; a downfloater floats down
    against the artificial score of :func:`_psd`."""
    artificial = min(players[n].score for n in bracket.players) - 2
    events: list[tuple[int, Float, int]] = []
    for pair in bracket.pairs:
        high, low = (players[n] for n in _order(pair, players))
        if high.score > low.score:
            events += [(high.number, Float.DOWN, high.score - low.score)]
            events += [(low.number, Float.UP, high.score - low.score)]
    events += [(n, Float.DOWN, players[n].score - artificial) for n in bracket.floaters]
    counts: list[object] = []
    diffs: list[object] = []
    for back in (0, 1):
        for kind in (Float.DOWN, Float.UP):
            repeated = [d for n, f, d in events if f is kind and players[n].floats[back] is kind]
            counts.append(len(repeated))
            diffs.append(_descending(repeated))
    return counts + diffs


def quality(
    bracket: Bracket, players: dict[int, SwissPlayer], first: Colour, last: bool
) -> tuple[object, ...]:
    """The bracket's criteria in the order of :data:`CRITERIA`, each smaller-is-better."""
    outlook: object = () if last else next_bracket_outlook(bracket.floaters, bracket.next_group, players)
    bye: object = -len(players[bracket.floaters[0]].colours) if last and bracket.floaters else 0
    return (
        -len(bracket.pairs),
        _psd(bracket, players),
        outlook,
        bye,
        *_colour_counts(bracket, players, first),
        *_float_counts(bracket, players),
    )


def judge(
    ours: RoundPairing, theirs: RoundPairing, players: dict[int, SwissPlayer], first: Colour
) -> Verdict | None:
    """The first bracket where the two pairings differ and the rule that decides there;
    None when they make the same pairs."""
    mine, other = brackets(ours, players), brackets(theirs, players)
    for index, (a, b) in enumerate(zip(mine, other, strict=True)):
        if a.pairs == b.pairs:
            continue
        last = index == len(mine) - 1
        for rule, x, y in zip(
            CRITERIA, quality(a, players, first, last), quality(b, players, first, last), strict=True
        ):
            if x != y:
                return Verdict(a.score, rule, "ours" if x < y else "oracle")  # type: ignore[operator]
        key_a = candidate_key(a.players, a.moved_down, a.pairs)
        key_b = candidate_key(b.players, b.moved_down, b.pairs)
        return Verdict(a.score, "section D candidate order", "ours" if key_a < key_b else "oracle")
    return None
