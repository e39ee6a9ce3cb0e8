"""The author's debugging loop (issue 24): each seat's bot seed, and challenges.

* ``participants.bot_seed``: the seed the referee gave the seat's bot (``Welcome.bot_seed``); its
  owner needs it to re-run the bot exactly at home (``skyarena reproduce``). Private to the seat's
  owner, like the bot's log. A uint64, so ``numeric(20)``; NULL for matches stored before.
* ``matches.kind = 'challenge'``: an unrated match an account asked for (``requested_by``), played
  through the same queue, sandbox and referees as rated ones but on no ladder; the index counts an
  account's challenges in the quota's window.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE participants ADD COLUMN bot_seed numeric(20, 0)
            CHECK (bot_seed >= 0 AND bot_seed < 18446744073709551616);
        ALTER TABLE matches DROP CONSTRAINT matches_kind_check;
        ALTER TABLE matches ADD CONSTRAINT matches_kind_check CHECK (kind IN ('rated', 'smoke', 'challenge'));
        ALTER TABLE matches ADD COLUMN requested_by bigint REFERENCES accounts (id);
        ALTER TABLE matches ADD CONSTRAINT matches_challenge_requester
            CHECK ((kind = 'challenge') = (requested_by IS NOT NULL));
        CREATE INDEX matches_challenges ON matches (requested_by, created_at) WHERE kind = 'challenge';
    """)


def downgrade() -> None:
    op.execute("""
        DROP INDEX matches_challenges;
        DELETE FROM bot_logs WHERE match_id IN (SELECT id FROM matches WHERE kind = 'challenge');
        DELETE FROM replays WHERE match_id IN (SELECT id FROM matches WHERE kind = 'challenge');
        DELETE FROM participants WHERE match_id IN (SELECT id FROM matches WHERE kind = 'challenge');
        DELETE FROM matches WHERE kind = 'challenge';
        ALTER TABLE matches DROP CONSTRAINT matches_challenge_requester, DROP COLUMN requested_by;
        ALTER TABLE matches DROP CONSTRAINT matches_kind_check;
        ALTER TABLE matches ADD CONSTRAINT matches_kind_check CHECK (kind IN ('rated', 'smoke'));
        ALTER TABLE participants DROP COLUMN bot_seed;
    """)
