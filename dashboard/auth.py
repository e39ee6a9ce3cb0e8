"""Tokens entered once per browser session: an author's (their bots' logs) and an organiser's.

The token itself is never kept: it is checked against the stored SHA-256 hashes
(`dashboard_reads.token_account`) and only the account it belongs to stays in the
session, so a page reload inside the session does not ask again.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from workers.store import dashboard_reads as reads

from .data import run

SCOPES = {"author": "Author token", "organiser": "Organiser token"}


def account(scope: str) -> dict[str, Any] | None:
    """The signed-in account for ``scope`` this session, or None."""
    found: dict[str, Any] | None = st.session_state.get(f"account_{scope}")
    return found


def sign_in(scope: str, where: Any = st.sidebar) -> dict[str, Any] | None:
    """The account for ``scope``, asking for its token (in ``where``) until one is accepted."""
    signed = account(scope)
    if signed is not None:
        where.caption(f"{SCOPES[scope]}: signed in as **{signed['name']}**")
        if where.button("Sign out", key=f"sign_out_{scope}"):
            del st.session_state[f"account_{scope}"]
            st.rerun()
        return signed
    with where.form(f"sign_in_{scope}", clear_on_submit=True):
        token = st.text_input(SCOPES[scope], type="password", key=f"token_{scope}")
        submitted = st.form_submit_button("Sign in")
    if submitted and token.strip():
        row = run(reads.token_account, token, scope)
        if row is None:
            where.error(f"that is not a live {scope} token: check it, or ask for a new one "
                        f"(`skyarena token create --scope {scope}`)")
            return None
        st.session_state[f"account_{scope}"] = dict(row)
        st.rerun()
    return None
