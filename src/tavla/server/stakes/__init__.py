"""Money on the platform: deposits and withdrawals by a federation's administrators,
stakes on lobby games, players' statements and the federation's books (docs/ledger.md).
The books themselves are ``tavla.ledger``; this package decides who may do what."""
