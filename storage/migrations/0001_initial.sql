-- 0001: encounters (one per channel), their event log, and key/value metadata.
--
-- The encounter itself is stored as its canonical JSON (rules.encounter_file.to_data): the pydantic
-- models are the schema, so new combatant fields never need a migration. Columns next to it are only
-- what SQL must see (channel lookup, optimistic version, who the GM is).
--
-- Later migrations add tables that hang off encounters(id) with ON DELETE CASCADE, e.g.
--   adjudications(id, encounter_id, data TEXT, created_at)             -- the action in flight
--   prompts(id, adjudication_id, question_id, channel_id, message_id, deadline REAL, reminded INTEGER)
--   standing_orders(encounter_id, combatant TEXT, policy TEXT, trigger TEXT, PRIMARY KEY (...))
-- Timestamps are REAL unix seconds (UTC) so deadlines compare with plain SQL.

CREATE TABLE encounters (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: a stale button cannot hit a newer encounter
    channel_id  INTEGER NOT NULL UNIQUE,
    guild_id    INTEGER,
    gm_id       INTEGER NOT NULL,
    ruleset     TEXT    NOT NULL,
    data        TEXT    NOT NULL,                   -- canonical encounter JSON
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

CREATE TABLE events (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    encounter_id  INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,
    data          TEXT    NOT NULL,                 -- JSON object
    created_at    REAL    NOT NULL
);

CREATE INDEX events_by_encounter ON events (encounter_id, id);

CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
