"""Stakes and fees on a double-entry ledger, in integer cents.

``stakes`` is pure arithmetic (final stakes, the house fee, prize shares); ``accounts``,
``games``, ``tournaments`` and ``postings`` describe the books and the balanced
transactions each operation books; ``service.Ledger`` keeps them in the platform's
database (its tables are in ``tables``, created by storage's migrations). Importing
this package needs no database library: the service and tables are imported from
their modules.
"""
