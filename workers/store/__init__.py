"""The store: the only code that writes SQL (DESIGN.md, "Rooms of the platform half").

`database.py` chooses the server and pools connections, `embedded.py` starts a Postgres
when none is configured, `schema.py` applies and checks the alembic migrations in
`migrations/`. The query modules beside them are grouped by what they read or write
(matches, versions, seasons, ladders and ratings, accounts), not by who calls them: the
dashboard and the Arena call the same functions. `StoreError` is the store's own root.
"""

from .database import Database, connect, open_database, redact, resolve_url
from .errors import Conflict, DatabaseUnavailable, NotFound, SchemaMismatch, StoreError

__all__ = ["Conflict", "Database", "DatabaseUnavailable", "NotFound", "SchemaMismatch", "StoreError", "connect",
           "open_database", "redact", "resolve_url"]
