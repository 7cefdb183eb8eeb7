"""Sorting each difference between our pairing and the oracle's by the rule that explains
it, with a verdict: which side the rule says is right.

* same pairs, other colours: the article of section E that decides the pair;
* a bye the oracle may not give (C.2), or one it moves up because it counts an H or Z
  bye as a pairing bye;
* a pair that breaks an absolute criterion (C.1, C.3);
* otherwise the two pairings are replayed bracket by bracket (:mod:`swiss_judge`): the
  first bracket where they part decides on its criteria in order, then on the order of
  section D's candidates (:mod:`swiss_candidates`).

Labels end in "ours right" (or "ours follows the rule") when the rules side with us and
in "OURS WRONG" when they side with the oracle.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.swiss_judge import judge

from tavla.tournament.dutch import RoundPairing
from tavla.tournament.dutch.colours import colour_of
from tavla.tournament.dutch.criteria import compatible
from tavla.tournament.dutch.players import Float, SwissPlayer
from tavla.tournament.history import Colour, Entrant, Outcome


def pair_set(pairing: RoundPairing) -> set[frozenset[int]]:
    return {frozenset(game) for game in pairing.games} | (
        {frozenset([pairing.bye])} if pairing.bye else set()
    )


def _colour_rule(a: SwissPlayer, b: SwissPlayer) -> str:
    """The article of section E that decides the pair's colours."""
    if a.preference is None or b.preference is None or a.preference != b.preference:
        return "E.1" if a.preference or b.preference else "E.5"
    if a.absolute != b.absolute or (a.imbalance != b.imbalance and (a.absolute or b.absolute)):
        return "E.2"
    if a.strong != b.strong:
        return "E.2"
    return (
        "E.3"
        if any(x != y for x, y in zip(reversed(a.colours), reversed(b.colours), strict=False))
        else "E.4"
    )


def _rule_says(rule: str, a: SwissPlayer, b: SwissPlayer, first: Colour) -> tuple[int, int] | None:
    """(white, black) as the article itself reads, worked out here apart from the engine
    for E.1, E.4 and E.5; E.2 and E.3 are checked with the engine's colour function."""
    higher, lower = (a, b) if (a.score, -a.rank) > (b.score, -b.rank) else (b, a)
    if rule == "E.1":
        wants_white = a if a.preference is Colour.WHITE or b.preference is Colour.BLACK else b
        return (wants_white.number, (b if wants_white is a else a).number)
    if rule == "E.4":
        prefers = higher.preference
        return (higher.number, lower.number) if prefers is Colour.WHITE else (lower.number, higher.number)
    if rule == "E.5":
        gets = first if higher.rank % 2 == 0 else first.other
        return (higher.number, lower.number) if gets is Colour.WHITE else (lower.number, higher.number)
    return (a.number, b.number) if colour_of(a, b, first) is Colour.WHITE else (b.number, a.number)


def classify(
    ours_: RoundPairing,
    theirs: RoundPairing,
    players: dict[int, SwissPlayer],
    first: Colour,
    had_absence_bye: frozenset[int] = frozenset(),
    oracle_view: dict[int, SwissPlayer] | None = None,
) -> list[str]:
    """One label per difference, naming the rule and the side that keeps it.
    ``had_absence_bye``: players who took an H or Z bye in an earlier round;
    ``oracle_view``: the players with the floats as the oracle reads them
    (:func:`oracle_floats`)."""
    labels = []
    if pair_set(ours_) == pair_set(theirs):
        mine = {frozenset(g): g for g in ours_.games}
        for game in theirs.games:
            if mine[frozenset(game)] != game:
                a, b = players[game[0]], players[game[1]]
                rule = _colour_rule(a, b)
                right = _rule_says(rule, a, b, first)
                side = "ours" if right == mine[frozenset(game)] else "oracle" if right == game else "neither"
                labels.append(f"colour {rule}: {side} follows the rule")
        return labels
    if theirs.bye != ours_.bye and theirs.bye is not None:
        bye = players[theirs.bye]
        if not bye.bye_allowed:
            labels.append(
                "bye C.2: oracle gives a second pairing bye (or one after a forfeit win): ours right"
            )
        elif (
            ours_.bye in had_absence_bye
            and players[ours_.bye].bye_allowed
            and players[ours_.bye].score < bye.score
        ):
            labels.append(
                "bye C.2: oracle counts an earlier H/Z bye as a pairing bye and moves the bye up a score"
                " group; C.2 names only the pairing bye and forfeit wins: ours right"
            )
    for side, pairing in (("oracle", theirs), ("ours", ours_)):
        for white, black in pairing.games:
            if not compatible(players[white], players[black]):
                verdict = "ours right" if side == "oracle" else "OURS WRONG"
                labels.append(f"absolute C.1/C.3 broken by {side}: {verdict}")
    if not labels:
        labels.append(_judged(ours_, theirs, players, first, oracle_view))
    return labels


FLOAT_RULES = ("C.12", "C.13", "C.14", "C.15", "C.16", "C.17", "C.18", "C.19")


def _judged(
    ours_: RoundPairing,
    theirs: RoundPairing,
    players: dict[int, SwissPlayer],
    first: Colour,
    oracle_view: dict[int, SwissPlayer] | None,
) -> str:
    """The bracket-by-bracket verdict (:mod:`swiss_judge`). Where floats decide, the
    pairings are judged again with the floats as the oracle reads them: when that
    reading puts the oracle's pairing first, it is what explains the difference, and
    bbpPairings' reading of A.4 (an unplayed round is a downfloat only when it scored more than a
    loss; otherwise the scores before the round are compared, a bye against the player
    himself) says ours is right."""
    verdict = judge(ours_, theirs, players, first)
    assert verdict is not None
    where = "first differing bracket:"
    if verdict.rule.startswith(FLOAT_RULES) and oracle_view is not None:
        again = judge(ours_, theirs, oracle_view, first)
        if verdict.better == "ours" and again is not None and again.better == "oracle":
            return (
                f"{where} {verdict.rule}: ours better; the oracle's float reading (lost forfeit none,"
                " Z bye down) puts its pairing first, bbpPairings' reading of A.4 does not: ours right"
            )
    if verdict.rule.startswith("section D"):
        side = "ours first: ours right" if verdict.better == "ours" else "oracle first: OURS WRONG"
        return f"{where} criteria equal, section D candidate order: {side}"
    side = "ours right" if verdict.better == "ours" else "OURS WRONG"
    return f"{where} {verdict.rule}: {verdict.better} better: {side}"


def oracle_floats(
    players: dict[int, SwissPlayer], entrants: tuple[Entrant, ...], played: int
) -> dict[int, SwissPlayer]:
    """The players with the floats as caissify-pairings reads them: a round without an
    opponent (a bye of any kind) or a forfeit won is a downfloat, a forfeit lost none,
    a played game goes by the scores before it."""
    history = {e.number: e.rounds[:played] for e in entrants}

    def score_before(number: int, index: int) -> float:
        return sum(entry.outcome.points for entry in history[number][:index])

    def float_of(number: int, index: int) -> Float:
        if index < 0 or index >= len(history[number]):
            return Float.NONE
        entry = history[number][index]
        if entry.opponent is None or entry.outcome is Outcome.FORFEIT_WIN:
            return Float.DOWN
        if not entry.outcome.played:
            return Float.NONE
        mine, theirs = score_before(number, index), score_before(entry.opponent, index)
        return Float.DOWN if mine > theirs else Float.UP if mine < theirs else Float.NONE

    return {
        n: replace(p, floats=(float_of(n, played - 1), float_of(n, played - 2))) for n, p in players.items()
    }
