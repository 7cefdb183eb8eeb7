"""GNU Backgammon as an oracle: scripts that run inside gnubg and the fixtures they make.

``make_fixtures`` regenerates ``tests/data/gnubg_moves.json.xz`` (legal plays) and
``tests/data/gnubg_ids.json`` (Position IDs and Match IDs); the fast tests compare the
library against those files and need no gnubg.
"""
