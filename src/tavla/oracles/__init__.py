"""Outside programs the library can consult: GNU Backgammon as an oracle for tabla.

Used by the benchmarks (our bots against gnubg) and by training (gnubg's estimates as
targets for tabla). Nothing in ``rules`` or ``bots`` depends on them.
"""
