"""Challenges that give way to rated matches, and versions held while their game's finals play.

* ``matches.released_at``: when a challenge was handed to the workers. A challenge is stored
  at once (its quota counted) but released only when the platform has room for it
  (`workers.challenge_release`); until then no message names it and the reaper leaves it be.
  NULL for a challenge still waiting; other kinds are sent at once and never read it.
* ``bot_versions.status`` 'held': a version submitted while a season of its game plays its
  finals and the organiser chose to queue new submissions; its smoke match is queued when
  the finals end.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_STATUSES = "'received', 'smoke', 'failed', 'active', 'paused', 'superseded', 'retired'"


def upgrade() -> None:
    op.execute(f"""
        ALTER TABLE matches ADD COLUMN released_at timestamptz;
        UPDATE matches SET released_at = created_at WHERE kind = 'challenge';
        CREATE INDEX matches_challenges_waiting ON matches (created_at)
            WHERE kind = 'challenge' AND status = 'queued' AND released_at IS NULL;
        ALTER TABLE bot_versions DROP CONSTRAINT bot_versions_status_check,
            ADD CONSTRAINT bot_versions_status_check CHECK (status IN ({_STATUSES}, 'held'));
    """)


def downgrade() -> None:
    op.execute(f"""
        UPDATE bot_versions SET status = 'received', status_message = 'held during finals; submit it again'
            WHERE status = 'held';
        ALTER TABLE bot_versions DROP CONSTRAINT bot_versions_status_check,
            ADD CONSTRAINT bot_versions_status_check CHECK (status IN ({_STATUSES}));
        DROP INDEX matches_challenges_waiting;
        ALTER TABLE matches DROP COLUMN released_at;
    """)
