"""The dashboard's pages: each file is a Streamlit page script (``app.py`` lists them)."""
