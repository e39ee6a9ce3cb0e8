"""Leagues: a season's ladders divided into leagues with a boss each, and the promotions between them.

* ``seasons.promotion_matches``: the rated matches in a row a version's μ − 3σ must stay above its
  league's boss to move up; ``seasons.league_start``: 'lowest' (every new version starts in the
  lowest league) or 'keep' (it starts in the league its bot's previous version reached).
* ``leagues``: a season's leagues, position 0 the lowest, each with its boss (a house bot, as the
  version that plays it). A season without rows here has no leagues.
* ``league_members``: a version's league on one ladder and its current run above the boss; written
  when a league's boss is placed (at the season's creation) and at a version's first rated match on
  the ladder. A version without a row is in the league it would enter (`workers.leagues`).
* ``league_promotions``: every promotion with its evidence (the match that did it, both scores),
  at the moment the match was applied; a recompute derives the same rows.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-08
"""

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE seasons
            ADD COLUMN promotion_matches integer NOT NULL DEFAULT 10
                CHECK (promotion_matches BETWEEN 1 AND 1000),
            ADD COLUMN league_start text NOT NULL DEFAULT 'lowest' CHECK (league_start IN ('lowest', 'keep'));
        CREATE TABLE leagues (
            id               bigserial PRIMARY KEY,
            season_id        bigint NOT NULL REFERENCES seasons (id),
            position         integer NOT NULL CHECK (position >= 0),
            name             text NOT NULL CHECK (name ~ '^[a-z][a-z0-9-]{0,31}$'),
            boss             text NOT NULL,
            boss_version_id  bigint NOT NULL REFERENCES bot_versions (id),
            UNIQUE (season_id, position),
            UNIQUE (season_id, name),
            UNIQUE (season_id, boss_version_id)
        );
        CREATE TABLE league_members (
            ladder_id   bigint NOT NULL REFERENCES ladders (id),
            version_id  bigint NOT NULL REFERENCES bot_versions (id),
            league_id   bigint NOT NULL REFERENCES leagues (id),
            streak      integer NOT NULL DEFAULT 0 CHECK (streak >= 0),
            entered     text NOT NULL CHECK (entered IN ('boss', 'lowest', 'kept')),
            PRIMARY KEY (ladder_id, version_id)
        );
        CREATE INDEX league_members_league ON league_members (league_id);
        CREATE TABLE league_promotions (
            id               bigserial PRIMARY KEY,
            ladder_id        bigint NOT NULL REFERENCES ladders (id),
            version_id       bigint NOT NULL REFERENCES bot_versions (id),
            from_league_id   bigint NOT NULL REFERENCES leagues (id),
            to_league_id     bigint NOT NULL REFERENCES leagues (id),
            match_id         text NOT NULL REFERENCES matches (id),
            seq              bigint NOT NULL,
            score            double precision NOT NULL,
            boss_version_id  bigint NOT NULL REFERENCES bot_versions (id),
            boss_score       double precision NOT NULL,
            streak           integer NOT NULL CHECK (streak >= 1),
            promoted_at      timestamptz NOT NULL DEFAULT now(),
            UNIQUE (ladder_id, version_id, to_league_id)
        );
        CREATE INDEX league_promotions_version ON league_promotions (version_id, seq);
    """)


def downgrade() -> None:
    op.execute("""
        DROP TABLE league_promotions;
        DROP TABLE league_members;
        DROP TABLE leagues;
        ALTER TABLE seasons DROP COLUMN league_start, DROP COLUMN promotion_matches;
    """)
