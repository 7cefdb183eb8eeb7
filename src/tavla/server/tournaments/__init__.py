"""Tournaments on the server (RULES.md 11.3, 11.4; docs/tournaments.md).

``powers`` says who may do what, as predicates over a standing; ``rounds`` asks the
pure package :mod:`tavla.tournament` for a round's pairings and the standings from the
stored results; ``service`` applies the rules to the database; ``director`` starts
rounds (it makes their live games) and records finished games; ``imports`` makes a
Swiss tournament from a TRF report; ``router`` and ``pages`` are the HTTP edges.
"""
