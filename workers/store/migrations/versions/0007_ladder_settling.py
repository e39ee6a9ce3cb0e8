"""Seasons with a finish line (issue 26): when a ladder settled, and a season's finals.

* ``ladders.settled_at``: the moment the ladder's top k was first found settled (every
  adjacent pair of the top k + 1 ordered with probability ≥ p, `workers.rank_confidence`)
  in its current settled stretch; NULL while it is not settled. The scheduler writes it on
  each pass; a newcomer or an upset that unsettles the top clears it.
* ``ladders.stage``: 'regular', or 'final' for the finals of a season (its top K with
  frozen entries); a season has one ladder per player count and stage.
* ``ladders.rating``: the ladder's own rating parameters (a final plays with τ = 0);
  NULL: the season's.
* ``seasons.finals``: the finals the organiser called ({"top": K, "games_per_pair": N,
  "until_settled": bool}); NULL: none. Set once: finals cannot be called twice.
* ``matches_ladder_created``: a settled ladder's trickle counts its matches of the last minute.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE ladders
            ADD COLUMN settled_at timestamptz,
            ADD COLUMN stage text NOT NULL DEFAULT 'regular' CHECK (stage IN ('regular', 'final')),
            ADD COLUMN rating jsonb,
            DROP CONSTRAINT ladders_season_id_players_key,
            ADD CONSTRAINT ladders_season_players_stage UNIQUE (season_id, players, stage);
        ALTER TABLE seasons ADD COLUMN finals jsonb;
        CREATE INDEX matches_ladder_created ON matches (ladder_id, created_at);
    """)


def downgrade() -> None:
    op.execute("""
        DROP INDEX matches_ladder_created;
        ALTER TABLE seasons DROP COLUMN finals;
        DELETE FROM ladders WHERE stage = 'final';
        ALTER TABLE ladders
            DROP CONSTRAINT ladders_season_players_stage,
            ADD CONSTRAINT ladders_season_id_players_key UNIQUE (season_id, players),
            DROP COLUMN rating, DROP COLUMN stage, DROP COLUMN settled_at;
    """)
