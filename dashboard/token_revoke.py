"""The organiser page's token section: the live API tokens (who, scope, label, never the secret or
its hash) and a button to revoke each. A revoked token is refused by the Arena from its next call
on; it stays stored. The same store function backs ``skyarena token revoke`` through the Arena."""

from __future__ import annotations

from typing import Any

import streamlit as st

from workers.store.accounts import live_tokens, revoke_token_id

from .data import PAGE_SIZE, run


def _describe(token: dict[str, Any]) -> str:
    expires = f", expires {token['expires_at']:%Y-%m-%d %H:%M}" if token["expires_at"] else ""
    label = f" “{token['label']}”" if token["label"] else ""
    return f"#{token['id']} {token['account']} · {token['scope']}{label} · made {token['created_at']:%Y-%m-%d}{expires}"


def render_tokens() -> None:
    st.subheader("Revoke an API token")
    st.caption(f"Live tokens, newest first (the first {PAGE_SIZE}); a revoked token is refused from its next "
               "call on. From a terminal: skyarena token revoke --account NAME.")
    account = st.text_input("Account contains", key="tokens_account").strip()
    tokens: list[dict[str, Any]] = run(live_tokens, account, PAGE_SIZE)  # never cached: act on what is live
    if not tokens:
        st.caption("No live tokens" + (f" of an account called like {account!r}." if account else "."))
        return
    chosen = st.selectbox("Token", tokens, key="tokens_chosen", format_func=_describe)
    if st.button("Revoke", key="tokens_revoke"):
        if run(revoke_token_id, chosen["id"]):
            st.session_state["organiser_done"] = f"token #{chosen['id']} of {chosen['account']} revoked"
        else:
            st.session_state["organiser_done"] = f"token #{chosen['id']} was no longer live: nothing changed"
        st.rerun()
