"""The league's memory: accounts and tokens, bots and versions, seasons and ladders,
matches with their participants, replays and logs, ratings and their history.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

SCHEMA = r"""
-- Who may do what. A token is shown once; only its SHA-256 is kept.
CREATE TABLE accounts (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'),
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_tokens (
    id          bigserial PRIMARY KEY,
    account_id  bigint NOT NULL REFERENCES accounts (id),
    token_hash  bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
    scope       text NOT NULL CHECK (scope IN ('author', 'organiser', 'service')),
    label       text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz,
    revoked_at  timestamptz
);
CREATE INDEX api_tokens_account ON api_tokens (account_id);

-- Bot archives, content-addressed: the same bytes are stored once.
CREATE TABLE blobs (
    sha256      text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    data        bytea NOT NULL,
    size        integer NOT NULL CHECK (size >= 0),
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE bots (
    id          bigserial PRIMARY KEY,
    account_id  bigint NOT NULL REFERENCES accounts (id),
    name        text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'),
    game        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    retired_at  timestamptz,
    UNIQUE (account_id, name)
);

-- A version is immutable: its archive never changes; only its status moves.
--   received -> smoke -> active | failed;  active <-> paused;  active -> superseded | retired
CREATE TABLE bot_versions (
    id                 bigserial PRIMARY KEY,
    bot_id             bigint NOT NULL REFERENCES bots (id),
    number             integer NOT NULL CHECK (number >= 1),
    archive_sha256     text NOT NULL REFERENCES blobs (sha256),
    manifest           jsonb NOT NULL,
    status             text NOT NULL DEFAULT 'received'
                       CHECK (status IN ('received', 'smoke', 'failed', 'active', 'paused', 'superseded', 'retired')),
    status_message     text NOT NULL DEFAULT '',
    smoke_match_id     text,
    smoke_log          bytea,
    created_at         timestamptz NOT NULL DEFAULT now(),
    status_changed_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (bot_id, number),
    UNIQUE (bot_id, archive_sha256)
);
CREATE INDEX bot_versions_status ON bot_versions (status);

-- A season of one game: its ladders are (season, player count).
CREATE TABLE seasons (
    id                 bigserial PRIMARY KEY,
    name               text NOT NULL UNIQUE CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'),
    game               text NOT NULL,
    player_counts      integer[] NOT NULL CHECK (cardinality(player_counts) >= 1),
    options            jsonb NOT NULL DEFAULT '{}',
    move_s             double precision NOT NULL CHECK (move_s > 0),
    bank_s             double precision NOT NULL CHECK (bank_s >= 0),
    first_move_s       double precision NOT NULL CHECK (first_move_s > 0),
    strike_limit       integer NOT NULL DEFAULT 3 CHECK (strike_limit >= 1),
    matches_in_flight  integer NOT NULL DEFAULT 4 CHECK (matches_in_flight >= 0),
    matchmaking        jsonb NOT NULL DEFAULT '{}',
    rating             jsonb NOT NULL DEFAULT '{}',
    carry_over_from    bigint REFERENCES seasons (id),
    carry_over_sigma_inflation double precision CHECK (carry_over_sigma_inflation >= 0),
    state              text NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'active', 'closed')),
    created_at         timestamptz NOT NULL DEFAULT now(),
    started_at         timestamptz,
    closed_at          timestamptz
);

CREATE TABLE ladders (
    id            bigserial PRIMARY KEY,
    season_id     bigint NOT NULL REFERENCES seasons (id),
    players       integer NOT NULL CHECK (players >= 1),
    -- A co-operative game is itself a rated side of its ladder (the partners' opponent).
    pseudo_mu     double precision,
    pseudo_sigma  double precision,
    UNIQUE (season_id, players)
);

-- A match row exists from scheduling on; its id and seed never change, so a retry
-- (a new attempt) replays the same game.
CREATE TABLE matches (
    id                text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,64}$'),
    kind              text NOT NULL DEFAULT 'rated' CHECK (kind IN ('rated', 'smoke')),
    season_id         bigint REFERENCES seasons (id),
    ladder_id         bigint REFERENCES ladders (id),
    game              text NOT NULL,
    players           integer NOT NULL CHECK (players >= 1),
    options           jsonb NOT NULL DEFAULT '{}',
    seed              bigint NOT NULL,
    status            text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'finished', 'void')),
    attempts          integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    lease_owner       text,
    lease_expires_at  timestamptz,
    referee           text,
    referee_match_id  text,
    end_reason        text,
    void_reason       text,
    confinement       text,
    completed_seq     bigint UNIQUE,
    created_at        timestamptz NOT NULL DEFAULT now(),
    started_at        timestamptz,
    finished_at       timestamptz,
    CHECK ((kind = 'rated') = (ladder_id IS NOT NULL)),
    CHECK ((status = 'void') = (void_reason IS NOT NULL))
);
-- Completion order: the order ratings are applied in, and recomputed in.
CREATE SEQUENCE match_completion_seq AS bigint;
CREATE INDEX matches_in_flight ON matches (ladder_id, status) WHERE status IN ('queued', 'running');
CREATE INDEX matches_lease ON matches (lease_expires_at) WHERE status = 'running';
CREATE INDEX matches_ladder_completed ON matches (ladder_id, completed_seq);
CREATE INDEX matches_season_status ON matches (season_id, status);

-- Seats are fixed at scheduling; the result columns are filled when the match is applied.
CREATE TABLE participants (
    match_id    text NOT NULL REFERENCES matches (id),
    seat        integer NOT NULL CHECK (seat >= 0),
    version_id  bigint NOT NULL REFERENCES bot_versions (id),
    rank        integer CHECK (rank >= 0),
    score       double precision,
    faults      jsonb NOT NULL DEFAULT '[]',
    strikes     integer NOT NULL DEFAULT 0 CHECK (strikes >= 0),
    forfeited   boolean NOT NULL DEFAULT false,
    unrated     boolean NOT NULL DEFAULT false,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX participants_version ON participants (version_id, match_id);

-- The referee's replay, zlib-compressed JSON, with its final state hash.
CREATE TABLE replays (
    match_id    text PRIMARY KEY REFERENCES matches (id),
    data        bytea NOT NULL,
    state_hash  text NOT NULL,
    steps       integer NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- A hosted bot's stderr for one match, capped; only its author may read it.
CREATE TABLE bot_logs (
    match_id    text NOT NULL REFERENCES matches (id),
    seat        integer NOT NULL,
    version_id  bigint NOT NULL REFERENCES bot_versions (id),
    log         bytea NOT NULL,
    truncated   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE ratings (
    ladder_id      bigint NOT NULL REFERENCES ladders (id),
    version_id     bigint NOT NULL REFERENCES bot_versions (id),
    mu             double precision NOT NULL,
    sigma          double precision NOT NULL CHECK (sigma > 0),
    matches        integer NOT NULL DEFAULT 0 CHECK (matches >= 0),
    last_match_id  text REFERENCES matches (id),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (ladder_id, version_id)
);
CREATE INDEX ratings_leaderboard ON ratings (ladder_id, (mu - 3 * sigma) DESC);

-- Why each rating moved (or did not): one row per (match, version), written with the change.
CREATE TABLE rating_history (
    id              bigserial PRIMARY KEY,
    match_id        text NOT NULL REFERENCES matches (id),
    ladder_id       bigint NOT NULL REFERENCES ladders (id),
    version_id      bigint NOT NULL REFERENCES bot_versions (id),
    seq             bigint NOT NULL,
    mu_before       double precision NOT NULL,
    sigma_before    double precision NOT NULL,
    mu_after        double precision NOT NULL,
    sigma_after     double precision NOT NULL,
    quality         double precision,
    rank            integer,
    weight          double precision NOT NULL DEFAULT 1,
    unrated_reason  text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (match_id, version_id)
);
CREATE INDEX rating_history_version ON rating_history (version_id, ladder_id, seq);

-- A closed season's standings, frozen as they stood when it closed.
CREATE TABLE season_standings (
    season_id   bigint NOT NULL REFERENCES seasons (id),
    ladder_id   bigint NOT NULL REFERENCES ladders (id),
    position    integer NOT NULL CHECK (position >= 1),
    version_id  bigint NOT NULL REFERENCES bot_versions (id),
    mu          double precision NOT NULL,
    sigma       double precision NOT NULL,
    matches     integer NOT NULL,
    frozen_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (ladder_id, version_id),
    UNIQUE (ladder_id, position)
);
"""

TABLES = ("season_standings", "rating_history", "ratings", "bot_logs", "replays", "participants", "matches",
          "ladders", "seasons", "bot_versions", "bots", "blobs", "api_tokens", "accounts")


def upgrade() -> None:
    op.execute(SCHEMA)


def downgrade() -> None:
    op.execute("DROP TABLE " + ", ".join(TABLES) + " CASCADE")
    op.execute("DROP SEQUENCE match_completion_seq")
