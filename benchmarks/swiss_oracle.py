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
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.swiss_classes import classify, oracle_floats, pair_set
from benchmarks.swiss_refusal import complete_pairing

from tavla.tournament.dutch import RoundPairing, pair_round
from tavla.tournament.dutch.criteria import compatible
from tavla.tournament.dutch.players import swiss_players
from tavla.tournament.history import Colour, Entrant, Outcome, RoundEntry, TournamentError
from tavla.tournament.trf import TrfPlayer, TrfTournament, read_trf, write_trf

__all__ = ["classify", "compare", "oracle", "ours", "pair_set"]

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
    dump: Path | None = None


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


def _no_pairing_label(text: str, target: int, first: Colour, report: TrfTournament, rounds: int) -> str:
    """Ours found no pairing: is there really none (brute force), and what does the
    oracle do with the round?"""
    present = swiss_players(report.entrants, target - 1, rounds, report.absent_from_next_round())
    if complete_pairing(present) is not None:
        return "no pairing found by ours, brute force finds one: OURS WRONG"
    players = {p.number: p for p in present}
    verdict = f"no pairing exists (brute force over {len(present)} players: none keeps C.1-C.3): ours right"
    try:
        theirs = oracle(text, target, first)
    except Exception:
        return f"{verdict}; the oracle fails too"
    broken = [g for g in theirs.games if not compatible(players[g[0]], players[g[1]])]
    covered = {n for game in theirs.games for n in game} | ({theirs.bye} if theirs.bye else set())
    if broken or (theirs.bye is not None and not players[theirs.bye].bye_allowed):
        return f"{verdict}; the oracle pairs anyway, breaking C.1-C.3"
    if covered != set(players):
        return f"{verdict}; the oracle leaves players unpaired"
    return f"{verdict}; the oracle answers something else"


def compare(text: str, mine: RoundPairing, theirs: RoundPairing) -> list[str]:
    """The labels of :func:`classify` for our pairing and the oracle's of the round that
    the TRF ``text`` asks for."""
    report = read_trf(text)
    played = report.played_rounds
    assert report.total_rounds is not None
    absent = report.absent_from_next_round()
    state = {p.number: p for p in swiss_players(report.entrants, played, report.total_rounds, absent)}
    absence_byes = frozenset(
        e.number
        for e in report.entrants
        if any(r.outcome in (Outcome.HALF_BYE, Outcome.ZERO_BYE) for r in e.rounds[:played])
    )
    view = oracle_floats(state, report.entrants, played)
    first = report.first_colour or Colour.WHITE
    return classify(mine, theirs, state, first, absence_byes, view)


def _dump(tally: Tally, text: str, label: str, name: str) -> None:
    """With --dump, keep the TRF of each difference that is not a colour one, and its label."""
    if tally.dump is None or label.startswith("colour"):
        return
    tally.dump.mkdir(parents=True, exist_ok=True)
    (tally.dump / f"{name}.trf").write_text(text)
    with (tally.dump / "labels.txt").open("a") as index:
        index.write(f"{name}.trf  {label}\n")


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
            _dump(tally, text, label, f"t{tally.tournaments}-{players}p-r{played + 1}")
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
        if pair_set(mine) == pair_set(theirs):
            tally.same_pairs += 1
            if set(mine.games) == set(theirs.games):
                tally.same_colours += 1
        for label in compare(text, mine, theirs):
            tally.classes[label] += 1
            tally.examples.setdefault(label, f"{players} players, round {played + 1}")
            _dump(tally, text, label, f"t{tally.tournaments}-{players}p-r{played + 1}")
        tournament = play(mine, tournament, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-players", type=int, default=100)
    parser.add_argument("--dump", type=Path, help="folder for the TRF of each pairing difference")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tally = Tally(dump=args.dump)
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
