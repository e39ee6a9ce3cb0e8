"""Tokens entered once per browser session: an author's (their bots' logs) and an organiser's.

The token itself is never kept: it is checked by the store's one token check
(`accounts.check_token`, the Arena's too: the same token gets the same verdict everywhere)
and only the account it belongs to stays in the session, so a page reload inside the
session does not ask again.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import streamlit as st

from workers.store.accounts import TokenRefused, check_token

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
    if submitted and token:
        try:
            found = run(check_token, token, scope)
        except TokenRefused as exc:
            where.error(str(exc))
            return None
        st.session_state[f"account_{scope}"] = asdict(found)
        st.rerun()
    return None
