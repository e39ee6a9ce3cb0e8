"""The Streamlit dashboard: ladders, bots, matches and replays, read from the store.

``dashboard.boards`` draws a picture of the table from any view; ``dashboard.replay_views``
re-creates the views of a stored replay step by step. Both are pure: no store, no Streamlit.
"""
