"""The Skyarena dashboard: ladders, bots, matches with their replays, live matches, seasons.

``skyarena dashboard`` starts it (``streamlit run dashboard/app.py`` works too). It reads
the store named by ``DATABASE_URL`` (else the embedded server) through the store's own
query functions, and writes only from the Organiser page, behind an organiser token.
"""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run dashboard/app.py` puts dashboard/ on the path, not the project: make
# `import dashboard...` work from a checkout as it does from an installed Skyarena.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

PAGES = Path(__file__).resolve().parent / "views"
# (script, title, url path): links between pages are /<url path>?<query>, e.g. /bot?bot=ID.
NAVIGATION = (("ladders.py", "Ladders", "ladders"), ("bot.py", "Bot", "bot"), ("match.py", "Match", "match"),
              ("live.py", "Live", "live"), ("organiser.py", "Organiser", "organiser"))


def main() -> None:
    st.set_page_config(page_title="Skyarena", page_icon="✈", layout="wide")
    pages = [st.Page(PAGES / script, title=title, url_path=path, default=path == "ladders")
             for script, title, path in NAVIGATION]
    st.navigation(pages).run()


main()
