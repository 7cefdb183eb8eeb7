"""The federation's own example, to the cent, through the whole ledger.

A single game at 2.00 a point with a 5.00 cap, won with 3 points: the final stake is
5.00; the winner keeps his 5.00, receives the loser's 5.00 and pays 0.50 (5% of the
10.00 pot): 9.50 in all.
"""

from __future__ import annotations

from tavla.ledger.accounts import SITE, cash_account, escrow_account, house_account, player_account
from tavla.ledger.postings import TransactionKind
from tavla.ledger.service import Ledger
from tavla.ledger.stakes import GameStake, payout

from .conftest import run_ledger

AYSE, BORIS = player_account(SITE, "ayse"), player_account(SITE, "boris")


def test_the_example_in_pure_arithmetic() -> None:
    split = payout(GameStake(initial_cents=200, maximum_cents=500), points=3)
    assert split.final_stake_cents == 500
    assert split.pot_cents == 1000
    assert split.fee_cents == 50
    assert split.winner_cents == 950  # his own 5.00 + the loser's 5.00 - 0.50
    assert split.loser_cents == 0
    assert split.winner_gain_cents == 450


def test_the_example_through_the_ledger(database_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        await ledger.deposit(AYSE, 2000, actor="admin:1", reason="cash at the club")
        await ledger.deposit(BORIS, 2000, actor="admin:1", reason="cash at the club")
        await ledger.agree_stake("g1", SITE, ("ayse", "boris"), GameStake(200, 500))

        await ledger.reserve("g1")
        assert await ledger.balance(AYSE) == 1500
        assert await ledger.balance(BORIS) == 1500
        assert await ledger.balance(escrow_account(SITE, "g1")) == 1000

        settled = await ledger.settle("g1", "ayse", 3)
        assert settled.kind is TransactionKind.SETTLEMENT and not settled.repeated
        # Before the game Ayşe had 20.00; 5.00 was held back; the settlement pays her 9.50.
        assert sum(e.amount_cents for e in settled.entries if e.account == AYSE) == 950
        assert await ledger.balance(AYSE) == 2450
        assert await ledger.balance(BORIS) == 1500
        assert await ledger.balance(house_account(SITE)) == 50
        assert await ledger.balance(escrow_account(SITE, "g1")) == 0
        assert await ledger.balance(cash_account(SITE)) == -4000

        lines = (await ledger.statement(AYSE)).lines
        assert [(line.kind.value, line.amount_cents, line.balance_after_cents) for line in lines] == [
            ("deposit", 2000, 2000),
            ("reservation", -500, 1500),
            ("settlement", 500, 2000),
            ("settlement", 500, 2500),
            ("settlement", -50, 2450),
        ]
        assert [line.memo for line in lines[2:]] == [
            "own reservation back",
            "stake won from boris",
            "fee 5% of the pot",
        ]
        assert all(line.game_id == "g1" for line in lines[1:])

        fees = await ledger.fee_report(SITE)
        assert (fees.balance_cents, fees.collected_cents, fees.fee_by_game) == (50, 50, (("g1", 50),))
        assert await ledger.audit() == []

    run_ledger(database_url, scenario)
