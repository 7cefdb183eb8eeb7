"""Ratings: the FIBS formula for backgammon-family matches and Glicko-2 for Abluka.

Pure functions over immutable values. Which ratings a player holds (one per federation
and per game, RULES 11.1) and when a rating period closes is the server's business;
this package only computes the new values.
"""
