"""Alembic's entry point: the server hands it an open connection (database.migrate)."""

from alembic import context

from tavla.storage.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
