"""Our Dutch pairing against an independent engine, the PyPI package caissify-pairings,
on random tournaments (``pip install caissify-pairings``; a test oracle only).

Each tournament has 7 to 100 players and 5 to 9 rounds; results are random with draws,
forfeits, half-point and zero-point byes announced before a round, and withdrawals. Every
round is written as a TRF file and paired by both engines from that file; the tournament
goes on with our pairing. Each difference is classified by the rule that explains it,
and the rules themselves say which side is right (see :func:`classify`).

    PYTHONPATH=src python benchmarks/swiss_oracle.py --tournaments 30 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field, replace

from tavla.tournament.dutch import RoundPairing, pair_round
from tavla.tournament.dutch.colours import colour_of
from tavla.tournament.dutch.criteria import compatible
from tavla.tournament.dutch.players import Float, SwissPlayer, swiss_players
from tavla.tournament.history import Colour, Entrant, Outcome, RoundEntry, TournamentError
from tavla.tournament.trf import TrfPlayer, TrfTournament, read_trf, write_trf

ABSENT_HALF = RoundEntry(None, None, Outcome.HALF_BYE)
ABSENT_ZERO = RoundEntry(None, None, Outcome.ZERO_BYE)


@dataclass
class Tally:
    tournaments: int = 0
    rounds: int = 0
    same_pairs: int = 0
    same_colours: int = 0
    oracle_failed: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    classes: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)


def new_tournament(rng: random.Random, players: int, rounds: int) -> TrfTournament:
    ratings = sorted((rng.randint(1000, 2600) for _ in range(players)), reverse=True)
    entrants = tuple(
        TrfPlayer(Entrant(number=i + 1, name=f"Player {i + 1}", rating=rating))
        for i, rating in enumerate(ratings)
    )
    headers = ("012 Random Swiss", "022 Nowhere", "092 FIDE_DUTCH")
    return TrfTournament(entrants, headers, rounds, Colour.WHITE if rng.random() < 0.5 else Colour.BLACK)


def with_absences(tournament: TrfTournament, rng: random.Random, withdrawn: set[int]) -> TrfTournament:
    """Write H or Z in the next round's column for some players, Z for the withdrawn."""
    played = tournament.played_rounds
    players = []
    for player in tournament.players:
        entrant = player.entrant
        number = entrant.number
        if number not in withdrawn and rng.random() < 0.01 and played > 0:
            withdrawn.add(number)
        draw = rng.random()
        absence = ABSENT_ZERO if number in withdrawn or draw < 0.02 else ABSENT_HALF if draw < 0.05 else None
        rounds = entrant.rounds[:played] + ((absence,) if absence else ())
        players.append(replace(player, entrant=replace(entrant, rounds=rounds)))
    return replace(tournament, players=tuple(players))


def play(pairing: RoundPairing, tournament: TrfTournament, rng: random.Random) -> TrfTournament:
    entries: dict[int, RoundEntry] = {}
    for white, black in pairing.games:
        draw = rng.random()
        if draw < 0.05:
            winner_is_white = rng.random() < 0.5
            w, b = (
                (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS)
                if winner_is_white
                else (
                    Outcome.FORFEIT_LOSS,
                    Outcome.FORFEIT_WIN,
                )
            )
        elif draw < 0.25:
            w = b = Outcome.DRAW
        elif draw < 0.65:
            w, b = Outcome.WIN, Outcome.LOSS
        else:
            w, b = Outcome.LOSS, Outcome.WIN
        entries[white] = RoundEntry(black, Colour.WHITE, w)
        entries[black] = RoundEntry(white, Colour.BLACK, b)
    if pairing.bye is not None:
        entries[pairing.bye] = RoundEntry(None, None, Outcome.PAIRING_BYE)
    played = tournament.played_rounds
    for player in tournament.players:
        entrant = player.entrant
        if entrant.number not in entries and len(entrant.rounds) > played:
            entries[entrant.number] = entrant.rounds[played]  # the H or Z written before
    return tournament.with_round(entries)


def ours(text: str) -> RoundPairing:
    report = read_trf(text)
    assert report.total_rounds is not None
    return pair_round(
        report.entrants,
        report.played_rounds,
        report.total_rounds,
        report.absent_from_next_round(),
        report.first_colour,
    )


def oracle(text: str, target_round: int, first: Colour) -> RoundPairing:
    """caissify-pairings from the same TRF text. Its file checker only pairs players who
    have an entry in the round being paired, so present players get a placeholder entry;
    players marked H or Z there are left out by the checker's own rule."""
    from caissify_pairings.engines.dutch import DutchEngine
    from caissify_pairings.fpc import _build_engine_players, _build_previous_pairings
    from caissify_pairings.trf import TRFParser

    parsed = TRFParser(text).parse()
    player_map = {p["starting_number"]: p for p in parsed["players"]}
    for p in player_map.values():
        p["results"].setdefault(target_round, {"opponent": None, "color": None, "result": "U"})
    engine = DutchEngine(
        players=_build_engine_players(player_map, target_round),
        previous_pairings=_build_previous_pairings(player_map, target_round),
        round_number=target_round,
        total_rounds=parsed["tournament"].get("total_rounds") or target_round,
        initial_color="white" if first is Colour.WHITE else "black",
    )
    games: list[tuple[int, int]] = []
    bye = None
    for item in engine.generate_pairings():
        if item.get("black_id") is None or item.get("bye"):
            bye = item["white_id"]
        else:
            games.append((item["white_id"], item["black_id"]))
    return RoundPairing(tuple(games), bye)


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
    forfeit_floats: bool = False,
) -> list[str]:
    """One label per difference, naming the rule and the side that keeps it.
    ``had_absence_bye``: players who took an H or Z bye in an earlier round;
    ``forfeit_floats``: somebody's float of the last two rounds comes from a lost forfeit,
    where the oracle counts no float and bbpPairings compares the two scores."""
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
                labels.append(f"absolute C.1/C.3 broken by {side}")
    if len(labels) == 0:
        mine = _quality(ours_, players)
        other = _quality(theirs, players)
        for name, m, o in zip(
            ("PSD C.6", "colour C.10", "strong colour C.11", "floats C.12-15"), mine, other, strict=True
        ):
            if m != o:
                better = "ours" if m < o else "oracle"
                floats_rule = name.startswith("floats") and forfeit_floats
                note = (
                    " (a lost forfeit floats by the scores, as bbpPairings reads A.4)" if floats_rule else ""
                )
                labels.append(f"pairs differ on {name}: {better} better{note}")
                break
        else:
            labels.append("pairs differ, criteria equal: candidate order (section D)")
    return labels


def _quality(pairing: RoundPairing, players: dict[int, SwissPlayer]) -> tuple[tuple[int, ...], int, int, int]:
    """A round-level reading of the criteria, each smaller-is-better: score differences
    (largest first), colour preferences missed, strong ones missed, floats repeated from
    the last two rounds (a downfloat again for the higher player of an uneven pair, an
    upfloat again for the lower one; the bye is a downfloat)."""
    diffs = sorted((abs(players[w].score - players[b].score) for w, b in pairing.games), reverse=True)
    missed = strong = floats = 0
    for white, black in pairing.games:
        for number, colour in ((white, Colour.WHITE), (black, Colour.BLACK)):
            player = players[number]
            if player.preference is not None and player.preference != colour:
                missed += 1
                strong += player.strong or player.absolute
        w, b = players[white], players[black]
        high, low = (w, b) if w.score >= b.score else (b, w)
        if high.score > low.score:
            floats += sum(f is Float.DOWN for f in high.floats) + sum(f is Float.UP for f in low.floats)
    if pairing.bye is not None:
        floats += sum(f is Float.DOWN for f in players[pairing.bye].floats)
    return tuple(diffs), missed, strong, floats


def _no_pairing_label(text: str, target: int, first: Colour, report: TrfTournament, rounds: int) -> str:
    """Ours found no pairing: does the oracle's pairing keep C.1-C.3?"""
    try:
        theirs = oracle(text, target, first)
    except Exception:
        return "no pairing exists: both agree (the oracle fails too); tournament stopped"
    players = {
        p.number: p
        for p in swiss_players(report.entrants, target - 1, rounds, report.absent_from_next_round())
    }
    broken = [g for g in theirs.games if not compatible(players[g[0]], players[g[1]])]
    covered = {n for game in theirs.games for n in game} | ({theirs.bye} if theirs.bye else set())
    if broken or (theirs.bye is not None and not players[theirs.bye].bye_allowed):
        return "no pairing exists: the oracle pairs anyway, breaking C.1-C.3: ours right; tournament stopped"
    if covered != set(players):
        return "no pairing exists: the oracle leaves players unpaired: ours right; tournament stopped"
    return "no pairing found by ours, oracle found a valid one: OURS WRONG"


def run(tally: Tally, rng: random.Random, players: int, rounds: int) -> None:
    tournament = new_tournament(rng, players, rounds)
    withdrawn: set[int] = set()
    first = tournament.first_colour or Colour.WHITE
    tally.tournaments += 1
    for _ in range(rounds):
        tournament = with_absences(tournament, rng, withdrawn)
        text = write_trf(tournament)
        report = read_trf(text)
        played = report.played_rounds
        started = time.perf_counter()
        try:
            mine = ours(text)
        except TournamentError:
            label = _no_pairing_label(text, played + 1, first, report, rounds)
            tally.classes[label] += 1
            tally.examples.setdefault(label, f"{players} players, round {played + 1}")
            return
        elapsed = time.perf_counter() - started
        tally.seconds += elapsed
        tally.slowest = max(tally.slowest, elapsed)
        try:
            theirs = oracle(text, played + 1, first)
        except Exception:  # the oracle is someone else's program: count, go on
            tally.oracle_failed += 1
            tournament = play(mine, tournament, rng)
            continue
        tally.rounds += 1
        state = {
            p.number: p
            for p in swiss_players(report.entrants, played, rounds, report.absent_from_next_round())
        }
        if pair_set(mine) == pair_set(theirs):
            tally.same_pairs += 1
            if set(mine.games) == set(theirs.games):
                tally.same_colours += 1
        absence_byes = frozenset(
            e.number
            for e in report.entrants
            if any(r.outcome in (Outcome.HALF_BYE, Outcome.ZERO_BYE) for r in e.rounds[:played])
        )
        lost_forfeit = any(
            r.outcome is Outcome.FORFEIT_LOSS
            for e in report.entrants
            for r in e.rounds[max(0, played - 2) : played]
        )
        for label in classify(mine, theirs, state, first, absence_byes, lost_forfeit):
            tally.classes[label] += 1
            tally.examples.setdefault(label, f"{players} players, round {played + 1}")
        tournament = play(mine, tournament, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-players", type=int, default=100)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tally = Tally()
    for _ in range(args.tournaments):
        run(tally, rng, rng.randint(7, args.max_players), rng.randint(5, 9))
    print(f"tournaments                 {tally.tournaments}")
    print(f"rounds compared             {tally.rounds}  (oracle failed on {tally.oracle_failed})")
    print(f"rounds with identical pairs {tally.same_pairs}")
    print(f"rounds identical in colours {tally.same_colours}")
    per_round = tally.seconds / max(1, tally.rounds)
    print(f"our time per round          {per_round:.3f} s (slowest {tally.slowest:.3f} s)")
    print("differences by rule (count, first seen):")
    for label, count in tally.classes.most_common():
        print(f"  {count:5}  {label}  [{tally.examples[label]}]")


if __name__ == "__main__":
    main()
