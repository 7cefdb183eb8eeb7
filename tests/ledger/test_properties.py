"""Random sequences of ledger operations against a plain model of the books.

The machine runs deposits, withdrawals, agreed stakes, reservations, settlements
(repeated, contradictory, of unreserved and unknown games), releases, cancellations
and tournaments (entries, sponsorship, prizes, cancellation) on the real service over
SQLite, in two federations. After every step: every balance is the model's (so money
moved as RULES 12 says, and the sum over all accounts never changed: what is not in
the cash account came in through it), no account but cash is below zero, every
transaction is balanced, no game was closed twice (the ledger's own audit), and no
game has more than one settlement.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    precondition,
    rule,
)
from tests.databases import migrated_sqlite

from tavla.ledger.accounts import (
    AccountKey,
    cash_account,
    escrow_account,
    house_account,
    player_account,
    pool_account,
    sponsor_account,
)
from tavla.ledger.errors import (
    GameAlreadyClosedError,
    GameNotInLedgerError,
    GameNotReservedError,
    InsufficientFundsError,
    LedgerError,
    TournamentClosedError,
)
from tavla.ledger.postings import TransactionKind
from tavla.ledger.service import Ledger
from tavla.ledger.stakes import GameStake, MatchStake, StakeTerms
from tavla.ledger.tournaments import TournamentTerms
from tavla.storage.database import open_engine, sessions

FEDERATIONS = ("site", "istanbul")
PLAYERS = ("ayse", "boris", "carla")


def _fee(pot_cents: int) -> int:
    """5% to the nearest cent, half up: written apart from the code under test."""
    exact = Fraction(pot_cents, 20)
    whole = exact.numerator // exact.denominator
    return whole + 1 if exact - whole >= Fraction(1, 2) else whole


@dataclass
class ModelGame:
    federation: str
    players: tuple[str, str]
    terms: StakeTerms
    status: str = "agreed"
    result: tuple[str, int] | None = None


@dataclass
class ModelTournament:
    terms: TournamentTerms
    status: str = "open"
    paid_in: Counter[AccountKey] | None = None


terms_strategy = st.one_of(
    st.builds(lambda s, extra: GameStake(s, s + extra), st.integers(1, 250), st.integers(0, 500)),
    st.builds(MatchStake, st.integers(1, 600)),
)


class LedgerMachine(RuleBasedStateMachine):
    games = Bundle("games")
    tournaments = Bundle("tournaments")

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="tavla-ledger-machine."))
        self.loop = asyncio.new_event_loop()
        self.engine = open_engine(migrated_sqlite(self.folder / "ledger.db"))
        self.ledger = Ledger(sessions(self.engine))
        self.balances: Counter[AccountKey] = Counter()
        self.model_games: dict[str, ModelGame] = {}
        self.model_tournaments: dict[str, ModelTournament] = {}
        self.touched: set[str] = set()  # games a step tried to close, checked after it

    def teardown(self) -> None:
        self.loop.run_until_complete(self.engine.dispose())
        self.loop.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def run(self, awaitable: Any) -> Any:
        return self.loop.run_until_complete(awaitable)

    def refused(self, awaitable: Any, error: type[LedgerError]) -> None:
        try:
            self.run(awaitable)
        except error:
            return
        raise AssertionError(f"expected {error.__name__}")

    def move(self, source: AccountKey, target: AccountKey, cents: int) -> None:
        self.balances[source] -= cents
        self.balances[target] += cents

    # -- cash ----------------------------------------------------------------------

    @initialize(cents=st.sampled_from([20_000, 3000, 0]))
    def fund_everybody(self, cents: int) -> None:
        """Start most runs with money on the table, so that play is not only refusals."""
        if cents:
            for federation in FEDERATIONS:
                for player in PLAYERS:
                    self.deposit(federation, player, cents)

    @rule(
        federation=st.sampled_from(FEDERATIONS), player=st.sampled_from(PLAYERS), cents=st.integers(1, 3000)
    )
    def deposit(self, federation: str, player: str, cents: int) -> None:
        account = player_account(federation, player)
        self.run(self.ledger.deposit(account, cents, actor="admin", reason="paid in"))
        self.move(cash_account(federation), account, cents)

    @rule(
        federation=st.sampled_from(FEDERATIONS), player=st.sampled_from(PLAYERS), cents=st.integers(1, 3000)
    )
    def withdraw(self, federation: str, player: str, cents: int) -> None:
        account = player_account(federation, player)
        if self.balances[account] < cents:
            self.refused(
                self.ledger.withdraw(account, cents, actor="admin", reason="t"), InsufficientFundsError
            )
            return
        self.run(self.ledger.withdraw(account, cents, actor="admin", reason="paid out"))
        self.move(account, cash_account(federation), cents)

    # -- games ---------------------------------------------------------------------

    @rule(
        target=games,
        federation=st.sampled_from(FEDERATIONS),
        pair=st.permutations(PLAYERS).map(lambda players: (players[0], players[1])),
        terms=terms_strategy,
    )
    def agree(self, federation: str, pair: tuple[str, str], terms: StakeTerms) -> str:
        game_id = f"g{len(self.model_games)}"
        self.run(self.ledger.agree_stake(game_id, federation, pair, terms))
        self.model_games[game_id] = ModelGame(federation, pair, terms)
        return game_id

    @rule(
        target=games,
        federation=st.sampled_from(FEDERATIONS),
        pair=st.permutations(PLAYERS).map(lambda players: (players[0], players[1])),
        terms=terms_strategy,
    )
    def agree_and_start(self, federation: str, pair: tuple[str, str], terms: StakeTerms) -> str:
        """A game made and started in one step (the usual course, made more frequent)."""
        game_id = self.agree(federation, pair, terms)
        assert isinstance(game_id, str)  # a rule's result, as hypothesis types it, may be several
        self.reserve(game_id)
        return game_id

    @rule(game_id=games)
    def reserve(self, game_id: str) -> None:
        game = self.model_games[game_id]
        reserve = game.terms.reserve_cents
        accounts = [player_account(game.federation, player) for player in game.players]
        if game.status in ("settled", "released", "cancelled"):
            self.refused(self.ledger.reserve(game_id), GameAlreadyClosedError)
        elif game.status == "reserved":
            assert self.run(self.ledger.reserve(game_id)).repeated
        elif any(self.balances[account] < reserve for account in accounts):
            self.refused(self.ledger.reserve(game_id), InsufficientFundsError)
        else:
            self.run(self.ledger.reserve(game_id))
            for account in accounts:
                self.move(account, escrow_account(game.federation, game_id), reserve)
            game.status = "reserved"

    @rule(game_id=games, winner_seat=st.integers(0, 1), points=st.integers(1, 6))
    def settle(self, game_id: str, winner_seat: int, points: int) -> None:
        game = self.model_games[game_id]
        winner, loser = game.players[winner_seat], game.players[1 - winner_seat]
        settling = self.ledger.settle(game_id, winner, points)
        self.touched.add(game_id)
        if game.status == "agreed":
            self.refused(settling, GameNotReservedError)
        elif game.status == "settled":
            if game.result == (winner, points):
                assert self.run(settling).repeated
            else:
                self.refused(settling, GameAlreadyClosedError)
        elif game.status != "reserved":
            self.refused(settling, GameAlreadyClosedError)
        else:
            record = self.run(settling)
            assert not record.repeated
            fed, reserve = game.federation, game.terms.reserve_cents
            if isinstance(game.terms, GameStake):
                final = min(game.terms.initial_cents * points, game.terms.maximum_cents)
            else:
                final = game.terms.stake_cents
            fee = _fee(2 * final)
            escrow = escrow_account(fed, game_id)
            self.move(escrow, player_account(fed, winner), reserve + final - fee)
            self.move(escrow, player_account(fed, loser), reserve - final)
            self.move(escrow, house_account(fed), fee)
            game.status, game.result = "settled", (winner, points)

    @precondition(lambda self: any(g.status == "reserved" for g in self.model_games.values()))
    @rule(data=st.data(), winner_seat=st.integers(0, 1), points=st.integers(1, 6))
    def settle_a_game_in_play(self, data: st.DataObject, winner_seat: int, points: int) -> None:
        """The usual course: an official result for a game in play."""
        playing = sorted(game_id for game_id, g in self.model_games.items() if g.status == "reserved")
        game_id = data.draw(st.sampled_from(playing))
        self.settle(game_id, winner_seat, points)
        kinds = [record.kind for record in self.run(self.ledger.game_transactions(game_id))]
        assert kinds == [TransactionKind.RESERVATION, TransactionKind.SETTLEMENT]

    @rule(game_id=games, winner_seat=st.integers(0, 1))
    def settle_again_as_first(self, game_id: str, winner_seat: int) -> None:
        """A repeated settlement of a settled game, with the first result: a no-op."""
        game = self.model_games[game_id]
        if game.result is not None:
            self.touched.add(game_id)
            winner, points = game.result
            assert self.run(self.ledger.settle(game_id, winner, points)).repeated

    @rule(suffix=st.integers(0, 99))
    def settle_unknown(self, suffix: int) -> None:
        self.refused(self.ledger.settle(f"unknown{suffix}", "ayse", 1), GameNotInLedgerError)

    @rule(game_id=games)
    def release(self, game_id: str) -> None:
        game = self.model_games[game_id]
        releasing = self.ledger.release(game_id, reason="void: both mothers pinned")
        self.touched.add(game_id)
        if game.status == "settled":
            self.refused(releasing, GameAlreadyClosedError)
        elif game.status == "agreed":
            assert self.run(releasing) is None
            game.status = "cancelled"
        elif game.status == "reserved":
            self.run(releasing)
            for player in game.players:
                self.move(
                    escrow_account(game.federation, game_id),
                    player_account(game.federation, player),
                    game.terms.reserve_cents,
                )
            game.status = "released"
        else:
            record = self.run(releasing)
            assert record is None or record.repeated

    # -- tournaments ---------------------------------------------------------------

    @rule(
        target=tournaments,
        federation=st.sampled_from(FEDERATIONS),
        fee=st.integers(0, 500),
        shares=st.lists(st.integers(0, 100), min_size=1, max_size=3).filter(lambda s: sum(s) > 0),
    )
    def open_tournament(self, federation: str, fee: int, shares: list[int]) -> str:
        tid = f"t{len(self.model_tournaments)}"
        terms = TournamentTerms(tid, federation, fee, tuple(shares))
        self.run(self.ledger.open_tournament(terms))
        self.model_tournaments[tid] = ModelTournament(terms, paid_in=Counter())
        return tid

    @rule(tid=tournaments, player=st.sampled_from(PLAYERS))
    def enter(self, tid: str, player: str) -> None:
        tournament = self.model_tournaments[tid]
        terms, paid_in = tournament.terms, tournament.paid_in
        assert paid_in is not None
        account = player_account(terms.federation, player)
        entering = self.ledger.enter_tournament(tid, player)
        if tournament.status != "open":
            self.refused(entering, TournamentClosedError)
        elif terms.entry_fee_cents == 0:
            assert self.run(entering) is None
        elif paid_in[account]:
            assert self.run(entering).repeated  # one entry fee per player
        elif self.balances[account] < terms.entry_fee_cents:
            self.refused(entering, InsufficientFundsError)
        else:
            self.run(entering)
            self.move(account, pool_account(terms.federation, tid), terms.entry_fee_cents)
            paid_in[account] += terms.entry_fee_cents

    @rule(tid=tournaments, cents=st.integers(1, 2000))
    def sponsor(self, tid: str, cents: int) -> None:
        tournament = self.model_tournaments[tid]
        terms, paid_in = tournament.terms, tournament.paid_in
        assert paid_in is not None
        account = sponsor_account(terms.federation, "bank")
        self.run(self.ledger.deposit(account, cents, actor="admin", reason="sponsor pays in"))
        self.move(cash_account(terms.federation), account, cents)
        sponsoring = self.ledger.sponsor_tournament(tid, "bank", cents, actor="admin")
        if tournament.status != "open":
            self.refused(sponsoring, TournamentClosedError)
            return
        self.run(sponsoring)
        self.move(account, pool_account(terms.federation, tid), cents)
        paid_in[account] += cents

    @rule(tid=consumes(tournaments), order=st.permutations(PLAYERS))
    def pay_prizes(self, tid: str, order: list[str]) -> None:
        tournament = self.model_tournaments[tid]
        terms = tournament.terms
        winners = order[: len(terms.prize_shares)]
        if tournament.status == "cancelled":
            self.refused(self.ledger.pay_prizes(tid, winners, actor="arbiter"), TournamentClosedError)
            return
        if tournament.status == "paid":
            return
        pool = pool_account(terms.federation, tid)
        total, shares = self.balances[pool], terms.prize_shares
        self.run(self.ledger.pay_prizes(tid, winners, actor="arbiter"))
        for winner, share in zip(winners, shares, strict=True):
            self.move(pool, player_account(terms.federation, winner), total * share // sum(shares))
        # The cents left over (fewer than the places) went one each to some winners:
        # read who from the books, and check that nobody got more than one.
        actual = self.run(self.ledger.balances(terms.federation))
        for winner in winners:
            account = player_account(terms.federation, winner)
            extra = actual.get(account, 0) - self.balances[account]
            assert extra in (0, 1), (winner, extra)
            self.move(pool, account, extra)
        assert self.balances[pool] == 0
        tournament.status = "paid"

    @rule(tid=tournaments)
    def cancel_tournament(self, tid: str) -> None:
        tournament = self.model_tournaments[tid]
        terms, paid_in = tournament.terms, tournament.paid_in
        assert paid_in is not None
        cancelling = self.ledger.cancel_tournament(tid, actor="arbiter")
        if tournament.status == "paid":
            self.refused(cancelling, TournamentClosedError)
            return
        self.run(cancelling)
        if tournament.status == "open":
            for account, cents in paid_in.items():
                self.move(pool_account(terms.federation, tid), account, cents)
        tournament.status = "cancelled"

    # -- what must always hold -----------------------------------------------------

    @invariant()
    def balances_are_the_models(self) -> None:
        for federation in FEDERATIONS:
            actual = {k: v for k, v in self.run(self.ledger.balances(federation)).items() if v}
            expected = {k: v for k, v in self.balances.items() if v and k.federation == federation}
            assert actual == expected
            assert all(v >= 0 for k, v in actual.items() if not k.kind.may_go_negative)
            assert sum(actual.values()) == 0

    @invariant()
    def the_books_pass_their_audit(self) -> None:
        assert self.run(self.ledger.audit()) == []

    @invariant()
    def no_game_is_closed_twice(self) -> None:
        closings = [
            (record.game_id, record.kind)
            for game_id in self.touched
            for record in self.run(self.ledger.game_transactions(game_id))
            if record.kind in (TransactionKind.SETTLEMENT, TransactionKind.RELEASE)
        ]
        assert len(closings) == len({game_id for game_id, _ in closings})
        self.touched.clear()


# Each step checks every invariant over the whole books: 60 runs of 50 steps take half
# a minute of the suite (money is where a missed bug costs most); LEDGER_MACHINE_EXAMPLES
# asks for more, or fewer.
EXAMPLES = int(os.environ.get("LEDGER_MACHINE_EXAMPLES", "60"))
LedgerMachine.TestCase.settings = settings(max_examples=EXAMPLES, stateful_step_count=50, deadline=None)
TestLedgerMachine = LedgerMachine.TestCase
