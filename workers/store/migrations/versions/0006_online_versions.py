"""Online versions: bots that play from their authors' machines (issue 27).

* ``bot_versions.hosting``: ``hosted`` (an archive the workers run in the sandbox) or
  ``online`` (no archive: the author's own process connects to the Arena and is handed
  the seat token); an online version has no archive, a hosted one always has one.
* ``bot_versions.no_shows``: invitations in a row the version did not take up (not
  accepted in time, or accepted and never joined); the matchmaker pauses it at the limit.
* ``api_tokens.scope`` gains ``play``: a token that may only connect and play its own
  account's online versions.
* ``participants.answer_median_s``: the seat's median answer time in the match as the referee
  measured it (wall time from sending the turn request to receiving the answer, network
  included), for the version's page.
* ``online_sessions``: one row per connected online version (its Connect stream), with the
  concurrency it declared and when the Arena last saw the stream alive.
* ``invitations``: a seat of a match attempt handed to an online version: its seat token,
  the referee, the deadline to accept, and what became of it.

Revision ID: 0006
Revises: 0004
Create Date: 2026-12-06
"""

from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE bot_versions
            ALTER COLUMN archive_sha256 DROP NOT NULL,
            ADD COLUMN hosting text NOT NULL DEFAULT 'hosted' CHECK (hosting IN ('hosted', 'online')),
            ADD COLUMN no_shows integer NOT NULL DEFAULT 0 CHECK (no_shows >= 0),
            ADD CONSTRAINT bot_versions_archive_hosting CHECK ((hosting = 'hosted') = (archive_sha256 IS NOT NULL));

        ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_scope_check,
            ADD CONSTRAINT api_tokens_scope_check CHECK (scope IN ('author', 'organiser', 'service', 'play'));

        ALTER TABLE participants ADD COLUMN answer_median_s double precision CHECK (answer_median_s >= 0);

        -- A connected online version: its Connect stream's session, the concurrency it declared.
        CREATE TABLE online_sessions (
            version_id    bigint PRIMARY KEY REFERENCES bot_versions (id),
            session       text NOT NULL,
            max_games     integer NOT NULL CHECK (max_games >= 1),
            client        text NOT NULL DEFAULT '',
            connected_at  timestamptz NOT NULL DEFAULT now(),
            seen_at       timestamptz NOT NULL DEFAULT now()
        );

        -- A seat of one match attempt offered to an online version.
        --   pending -> accepted -> joined -> done;  pending -> expired;  pending | accepted -> void
        CREATE TABLE invitations (
            id           bigserial PRIMARY KEY,
            match_id     text NOT NULL REFERENCES matches (id),
            attempt      integer NOT NULL,
            seat         integer NOT NULL,
            version_id   bigint NOT NULL REFERENCES bot_versions (id),
            seat_token   text,
            referee      text NOT NULL,
            referee_match_id text NOT NULL,
            state        text NOT NULL DEFAULT 'pending'
                         CHECK (state IN ('pending', 'accepted', 'joined', 'done', 'expired', 'void')),
            reason       text NOT NULL DEFAULT '',
            created_at   timestamptz NOT NULL DEFAULT now(),
            accept_by    timestamptz NOT NULL,
            join_within_s double precision NOT NULL,
            accepted_at  timestamptz,
            joined_at    timestamptz,
            UNIQUE (match_id, attempt, seat)
        );
        CREATE INDEX invitations_open ON invitations (version_id) WHERE state IN ('pending', 'accepted', 'joined');
    """)


def downgrade() -> None:
    op.execute("""
        DROP TABLE invitations, online_sessions;
        ALTER TABLE participants DROP COLUMN answer_median_s;
        DELETE FROM api_tokens WHERE scope = 'play';
        ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_scope_check,
            ADD CONSTRAINT api_tokens_scope_check CHECK (scope IN ('author', 'organiser', 'service'));
        ALTER TABLE bot_versions DROP CONSTRAINT bot_versions_archive_hosting, DROP COLUMN no_shows,
            DROP COLUMN hosting, ALTER COLUMN archive_sha256 SET NOT NULL;
    """)
