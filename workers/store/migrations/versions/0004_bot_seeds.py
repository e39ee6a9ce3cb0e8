"""Each seat's bot seed, kept with its result (issue 24).

The referee seeds every bot's own randomness (``Bot.random``) with a keyed hash per seat
(``Welcome.bot_seed``); the seat's owner needs it to re-run the bot exactly at home
(``skyarena reproduce``). It is private to the seat's owner, like the bot's log. A uint64,
so ``numeric(20)``; NULL for matches stored before this revision.

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
    op.execute("ALTER TABLE participants ADD COLUMN bot_seed numeric(20, 0) "
               "CHECK (bot_seed >= 0 AND bot_seed < 18446744073709551616);")


def downgrade() -> None:
    op.execute("ALTER TABLE participants DROP COLUMN bot_seed;")
