"""Errors of the ledger: each says which account, game or tournament and why.

A refused action leaves the ledger exactly as it was: every operation runs in one
database transaction that is rolled back when it raises.
"""

from __future__ import annotations

from tavla.core.errors import TavlaError


class LedgerError(TavlaError):
    """A money movement the ledger does not allow."""


class AmountError(LedgerError):
    """An amount that is not a positive whole number of cents, or terms that contradict
    each other (a maximum stake below the initial stake, prize shares that are all 0)."""


class AccountError(LedgerError):
    """An account that cannot take this movement (a deposit straight into an escrow)."""


class InsufficientFundsError(LedgerError):
    """An account asked to pay more than it holds."""

    def __init__(self, account: str, balance_cents: int, needed_cents: int) -> None:
        self.account = account
        self.balance_cents = balance_cents
        self.needed_cents = needed_cents
        super().__init__(
            f"insufficient funds in {account}: balance {balance_cents} cents, needs {needed_cents} cents"
        )


class UnbalancedTransactionError(LedgerError):
    """A transaction whose entries do not sum to zero (a bug in the ledger, never input)."""


class GameNotInLedgerError(LedgerError):
    """A game the ledger has no stake for (never agreed, or a wrong id)."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"game {game_id!r}: no stake was agreed for it in the ledger")


class GameNotReservedError(LedgerError):
    """Settling a game whose stakes were never reserved (play has not started)."""

    def __init__(self, game_id: str, status: str) -> None:
        self.game_id = game_id
        self.status = status
        super().__init__(f"game {game_id!r}: cannot settle, its stakes are {status}, not reserved")


class GameAlreadyClosedError(LedgerError):
    """A second, different closing of a game: settling it for another winner than the
    first settlement, settling a released game, releasing a settled one."""

    def __init__(self, game_id: str, closed_as: str) -> None:
        self.game_id = game_id
        self.closed_as = closed_as
        super().__init__(f"game {game_id!r}: already {closed_as}; a game closes once")


class ConflictError(LedgerError):
    """An id or idempotency key used again for something different: a stake agreed again
    with other players or terms, a deposit key reused for another amount."""


class SettlementError(LedgerError):
    """A result that does not fit the game: a winner who is not one of its players,
    points below 1."""


class TournamentNotInLedgerError(LedgerError):
    """A tournament the ledger has no terms for."""

    def __init__(self, tournament_id: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"tournament {tournament_id!r}: not opened in the ledger")


class TournamentClosedError(LedgerError):
    """Money moved into or out of a tournament whose prizes were paid or which was cancelled."""

    def __init__(self, tournament_id: str, status: str) -> None:
        self.tournament_id = tournament_id
        self.status = status
        super().__init__(f"tournament {tournament_id!r}: {status}; its pool takes no more entries")


class PrizeError(LedgerError):
    """Prize winners that do not fit the tournament's prize shares."""
