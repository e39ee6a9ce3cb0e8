"""Season clocks for hosted bots: CPU time charged, wall time as a backstop.

* ``seasons.cpu_clock``: hosted seats are charged their own CPU time, as the worker's
  sandbox measures it (issue 23); off, every seat is on a wall clock (the old rule).
* ``seasons.wall_backstop``: a decision on a CPU clock may take this many times its CPU
  deadline in wall time before it is cut off (the referee's TimeControl.wall_backstop).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-04
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE seasons
            ADD COLUMN cpu_clock boolean NOT NULL DEFAULT true,
            ADD COLUMN wall_backstop double precision NOT NULL DEFAULT 4
                CHECK (wall_backstop >= 2 AND wall_backstop <= 100);
    """)


def downgrade() -> None:
    op.execute("ALTER TABLE seasons DROP COLUMN wall_backstop, DROP COLUMN cpu_clock;")
