-- 0002: the reaction flow. An action in flight (its adjudication, stored as JSON so it survives
-- restarts), the prompts it posted (one row per question, with its deadline and the message holding
-- its buttons), and standing orders.

CREATE TABLE adjudications (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    encounter_id  INTEGER NOT NULL UNIQUE REFERENCES encounters (id) ON DELETE CASCADE,  -- one in flight
    channel_id    INTEGER NOT NULL,
    base_version  INTEGER NOT NULL,       -- the encounter version the action was ruled on
    started_by    INTEGER NOT NULL,
    data          TEXT    NOT NULL,       -- rules.engine.Adjudication as JSON
    version       INTEGER NOT NULL DEFAULT 1,  -- optimistic: two processes can't both advance it
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);

CREATE TABLE prompts (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,   -- carried in button custom ids
    adjudication_id  INTEGER REFERENCES adjudications (id) ON DELETE SET NULL,
    encounter_id     INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    channel_id       INTEGER NOT NULL,
    question_id      TEXT    NOT NULL,
    question         TEXT    NOT NULL,    -- rules.engine.Question as JSON (for wording after the fact)
    combatant        TEXT    NOT NULL,    -- who is asked
    ping_user        INTEGER NOT NULL,    -- the controller pinged (the GM for GM-run combatants)
    message_id       INTEGER,
    deadline         REAL,                -- unix seconds; NULL = wait until answered
    remind_at        REAL,                -- NULL = no reminder due
    status           TEXT    NOT NULL DEFAULT 'open'
                     CHECK (status IN ('open', 'answered', 'timeout', 'moot', 'escalated')),
    choice           TEXT,
    answered_by      TEXT,                -- user | gm | order | timeout
    answered_user    INTEGER,
    created_at       REAL    NOT NULL,
    answered_at      REAL
);

CREATE INDEX prompts_open_by_deadline ON prompts (status, deadline);
CREATE INDEX prompts_open_by_reminder ON prompts (status, remind_at);
CREATE INDEX prompts_by_message ON prompts (message_id);
CREATE INDEX prompts_by_encounter ON prompts (encounter_id, id);

CREATE TABLE standing_orders (
    encounter_id  INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    combatant     TEXT    NOT NULL,
    trigger       TEXT    NOT NULL CHECK (trigger IN ('movement', 'action', 'any')),
    policy        TEXT    NOT NULL CHECK (policy IN ('ask', 'take', 'decline')),
    set_by        INTEGER NOT NULL,
    PRIMARY KEY (encounter_id, combatant, trigger)
);
