"""Indexes for the dashboard's reads at a million matches.

* ``rating_history_version_outcome`` replaces ``rating_history_version`` with the same key
  and the columns the ladder and bot pages read beside it (rank for the win rate, the
  rating after the match for the trend), so those reads are index-only scans instead of a
  heap fetch per match.
* ``participants_faulty``: the few seats that faulted, by version, so "faults by kind"
  counts every match a version played without reading the ones without faults.
* ``matches_running_started``: the Live page's matches in progress, newest first.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE INDEX rating_history_version_outcome ON rating_history (version_id, ladder_id, seq)
            INCLUDE (rank, mu_after, sigma_after);
        DROP INDEX rating_history_version;
        CREATE INDEX participants_faulty ON participants (version_id) WHERE faults <> '[]'::jsonb;
        CREATE INDEX matches_running_started ON matches (started_at DESC) WHERE status = 'running';
    """)


def downgrade() -> None:
    op.execute("""
        DROP INDEX matches_running_started;
        DROP INDEX participants_faulty;
        CREATE INDEX rating_history_version ON rating_history (version_id, ladder_id, seq);
        DROP INDEX rating_history_version_outcome;
    """)
