"""Alembic's entry point: run the revisions on a psycopg 3 connection to the store's URL."""

from __future__ import annotations

import psycopg
from alembic import context
from sqlalchemy import create_engine, pool

url = context.config.attributes["database_url"]
# The creator hands SQLAlchemy a plain psycopg connection, so any URL psycopg accepts
# (unix sockets, service files, the embedded server's) works without translating it.
engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(url), poolclass=pool.NullPool)

with engine.connect() as connection:
    context.configure(connection=connection, transaction_per_migration=True)
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
