"""The store's per-test database fixtures (tests/workers/conftest.py), for the dashboard's tests too."""

from tests.workers.conftest import database_url, db, postgres_server_url, template_database  # noqa: F401
