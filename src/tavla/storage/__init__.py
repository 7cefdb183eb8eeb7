"""Where the platform keeps its state: SQLAlchemy models, migrations, queries.

The database holds the truth of every live game (its settings and the list of its
actions, as a record does); the server's in-memory rooms are rebuilt from it.
SQLite by default, PostgreSQL by URL.
"""
