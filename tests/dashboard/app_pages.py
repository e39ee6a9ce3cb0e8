"""Opening one dashboard page under Streamlit's AppTest, as every page test does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

PAGES = Path(__file__).resolve().parents[2] / "dashboard" / "views"
TIMEOUT_S = 60  # the first run of a page imports pandas, altair and the engines


def open_page(name: str, **query: Any) -> AppTest:
    """The page ``name`` run once with these query parameters; a page that raised fails the test here."""
    app = AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=TIMEOUT_S)
    for key, value in query.items():
        app.query_params[key] = str(value)
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app
