"""The store: the only code that writes SQL (DESIGN.md, "Rooms of the platform half").

`database.py` chooses the server and pools connections, `embedded.py` starts a Postgres
when none is configured, `schema.py` applies and checks the alembic migrations in
`migrations/`; the query modules beside them each serve one part of the platform.
"""

from .database import Database, connect, open_database, redact, resolve_url
from .errors import Conflict, DatabaseUnavailable, NotFound, SchemaMismatch, StoreError

__all__ = ["Conflict", "Database", "DatabaseUnavailable", "NotFound", "SchemaMismatch", "StoreError", "connect",
           "open_database", "redact", "resolve_url"]
