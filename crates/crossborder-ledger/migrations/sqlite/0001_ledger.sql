-- The ledger's first schema (SQLite). Amounts are decimal TEXT, exactly as
-- given (never REAL); times are milliseconds since the Unix epoch.
CREATE TABLE payouts (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id     TEXT    NOT NULL UNIQUE,
    state          TEXT    NOT NULL,
    amount         TEXT    NOT NULL,
    from_currency  TEXT    NOT NULL,
    to_currency    TEXT    NOT NULL,
    request        TEXT    NOT NULL,
    transaction_id TEXT,
    message        TEXT,
    attempts       INTEGER NOT NULL DEFAULT 0,
    errors         INTEGER NOT NULL DEFAULT 0,
    lease_owner    TEXT,
    lease_until    INTEGER,
    batch_key      TEXT,
    batch_position INTEGER,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);
CREATE INDEX payouts_due ON payouts (state, lease_until);

CREATE TABLE payout_events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT    NOT NULL REFERENCES payouts (session_id),
    at         INTEGER NOT NULL,
    from_state TEXT,
    to_state   TEXT    NOT NULL,
    detail     TEXT,
    dispatcher TEXT
);
CREATE INDEX payout_events_by_payout ON payout_events (session_id, id);

CREATE TABLE batch_items (
    batch_key  TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    item       TEXT    NOT NULL,
    session_id TEXT    NOT NULL REFERENCES payouts (session_id),
    PRIMARY KEY (batch_key, position)
);

CREATE TABLE collections (
    seq               INTEGER PRIMARY KEY AUTOINCREMENT,
    payment_reference TEXT    NOT NULL UNIQUE,
    amount            TEXT    NOT NULL,
    from_currency     TEXT    NOT NULL,
    to_currency       TEXT    NOT NULL,
    status            TEXT    NOT NULL,
    paid_amount       TEXT,
    transaction_id    TEXT,
    open              INTEGER NOT NULL,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
);

CREATE TABLE collection_events (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    payment_reference TEXT    NOT NULL REFERENCES collections (payment_reference),
    at                INTEGER NOT NULL,
    status            TEXT    NOT NULL,
    paid_amount       TEXT,
    source            TEXT    NOT NULL
);

CREATE TABLE webhook_deliveries (
    dedupe_key TEXT    PRIMARY KEY,
    at         INTEGER NOT NULL
);
