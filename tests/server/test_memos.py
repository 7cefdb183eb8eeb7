"""The ledger's memos and reasons are shown translated (memos.py): every text the
ledger's postings and the server write is recognised, in Turkish and Bulgarian, with
its names and numbers kept; a reason an administrator typed is left as written."""

from __future__ import annotations

import pytest

from tavla.ledger import postings
from tavla.ledger.accounts import player_account
from tavla.ledger.games import GameStatus, StakedGame
from tavla.ledger.stakes import GameStake
from tavla.ledger.tournaments import TournamentTerms
from tavla.server.stakes.memos import actor, details, translated

pytestmark = pytest.mark.timeout(30)

SERVER_REASONS = (
    "official result: game over",
    "game void: no winner",
    "a player could not pay the stake",
    "the game could not start",
    "sponsorship",
    "deposit",
    "withdrawal",
)
"""The reasons the server gives the ledger (stakes/games.py, lobby.py, tournaments.py,
money.py when the administrator typed none)."""


def every_posting() -> list[postings.Posting]:
    game = StakedGame("g1", "tbf", ("ayse", "boris"), GameStake(200, 500), GameStatus.RESERVED)
    cup = TournamentTerms("7", "tbf", 1000, (70, 30))
    account = player_account("tbf", "ayse")
    refunds = postings.refunds(cup, {account: 1000}, actor="admin", reason="tournament cancelled")
    assert refunds is not None  # someone paid in: there is a refund
    return [
        postings.deposit(account, 100, actor="admin", reason="deposit"),
        postings.withdrawal(account, 100, actor="admin", reason="withdrawal"),
        postings.reservation(game, actor="server"),
        postings.settlement(game, "ayse", 3, actor="server", reason="official result: game over"),
        postings.release(game, actor="server", reason="game void: no winner"),
        postings.entry_fee(cup, "ayse", actor="ayse"),
        postings.entry_refund(cup, "ayse", 1000, actor="ayse"),
        postings.sponsorship(cup, "Tavla A.Ş.", 5000, actor="admin"),
        postings.prizes(cup, ("ayse", "boris"), 7000, actor="server"),
        refunds,
        postings.release(game, actor="server", reason="game void"),
    ]


@pytest.mark.parametrize("language", ["tr", "bg"])
def test_every_memo_and_reason_the_server_writes_is_translated(language: str) -> None:
    texts = {entry.memo for posting in every_posting() for entry in posting.entries}
    texts |= {posting.reason for posting in every_posting()} | set(SERVER_REASONS)
    assert len(texts) > 25
    left = sorted(text for text in texts if translated(language, text) == text)
    assert left == []


def test_names_and_numbers_are_kept_and_a_typed_reason_is_left_alone() -> None:
    assert translated("tr", "stake won from boris") == "boris oyuncusundan kazanılan bahis"
    assert translated("bg", "prize for place 2") == "награда за 2. място"
    assert translated("tr", "fee 5% of the pot") == "kesinti: potun %5 kadarı"
    assert translated("en", "stake won from boris") == "stake won from boris"
    assert translated("tr", "paid at the club on Monday") == "paid at the club on Monday"


def test_a_statement_line_says_nothing_twice() -> None:
    """The kind's name comes first; the memo and the reason follow only when they add
    to it. A deposit without a typed reason is "Deposit" alone, in every language."""
    assert details("en", "Deposit", "deposit", "deposit") == []
    assert details("tr", "Para yatırma", "deposit", "deposit") == []
    assert details("bg", "Внасяне", "deposit", None) == []
    assert details("en", "Deposit", "deposit", "cash at the club") == ["cash at the club"]
    assert details("tr", "Ödül", "prize for place 2", "prizes") == ["2. sıra ödülü", "ödüller"]
    assert details("en", "Settlement", "stake won from boris", "stake won from boris") == [
        "stake won from boris"
    ]
    assert details("en", "Deposit", "deposit", "  ") == []


def test_who_made_a_line_is_written_for_its_reader() -> None:
    assert actor("en", "admin:aysel") == "aysel (administrator)"
    assert actor("tr", "admin:aysel") == "aysel (yönetici)"
    assert actor("bg", "server") == "сървърът"
    assert actor("tr", "boris") == "boris"  # a player's own entry fee
