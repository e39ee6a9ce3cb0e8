"""The dashboard's pages: each file is a Streamlit page script, listed by ``app.py``'s navigation.

Not called ``pages/``: Streamlit treats a ``pages/`` folder beside the main script as its
older automatic navigation (file names as titles, no wide layout), which would take over
from ``st.navigation`` when a page is opened by its address.
"""
