"""Alembic's entry point: the server hands it an open connection (database.migrate)."""

from alembic import context

from tavla.ledger.tables import LedgerBase
from tavla.storage.models import Base

connection = context.config.attributes["connection"]
# The ledger declares its tables on its own base (it sits below storage and may not
# import it); both sets of tables live in the same database and migrations.
context.configure(
    connection=connection, target_metadata=[Base.metadata, LedgerBase.metadata], render_as_batch=True
)
with context.begin_transaction():
    context.run_migrations()
