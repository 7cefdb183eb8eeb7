"""Federations and their roles (RULES.md 11.1, 11.2; docs/federations.md).

``standing`` says which roles an account holds; ``powers`` and ``games`` are the rules
of who may do what, as predicates over it; ``service`` applies them to the database;
``router`` and ``pages`` are the HTTP edges.
"""
