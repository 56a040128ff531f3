-- The ledger's first schema (PostgreSQL). Amounts are NUMERIC, exact (never
-- a float); times are milliseconds since the Unix epoch.
CREATE TABLE payouts (
    seq            BIGSERIAL PRIMARY KEY,
    session_id     TEXT    NOT NULL UNIQUE,
    state          TEXT    NOT NULL,
    amount         NUMERIC NOT NULL,
    from_currency  TEXT    NOT NULL,
    to_currency    TEXT    NOT NULL,
    request        TEXT    NOT NULL,
    transaction_id TEXT,
    message        TEXT,
    attempts       BIGINT NOT NULL DEFAULT 0,
    errors         BIGINT NOT NULL DEFAULT 0,
    lease_owner    TEXT,
    lease_until    BIGINT,
    batch_key      TEXT,
    batch_position BIGINT,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);
CREATE INDEX payouts_due ON payouts (state, lease_until);

CREATE TABLE payout_events (
    id         BIGSERIAL PRIMARY KEY,
    session_id TEXT    NOT NULL REFERENCES payouts (session_id),
    at         BIGINT NOT NULL,
    from_state TEXT,
    to_state   TEXT    NOT NULL,
    detail     TEXT,
    dispatcher TEXT
);
CREATE INDEX payout_events_by_payout ON payout_events (session_id, id);

CREATE TABLE batch_items (
    batch_key  TEXT    NOT NULL,
    position   BIGINT NOT NULL,
    item       TEXT    NOT NULL,
    session_id TEXT    NOT NULL REFERENCES payouts (session_id),
    PRIMARY KEY (batch_key, position)
);

CREATE TABLE collections (
    seq               BIGSERIAL PRIMARY KEY,
    payment_reference TEXT    NOT NULL UNIQUE,
    amount            NUMERIC NOT NULL,
    from_currency     TEXT    NOT NULL,
    to_currency       TEXT    NOT NULL,
    status            TEXT    NOT NULL,
    paid_amount       NUMERIC,
    transaction_id    TEXT,
    open              BIGINT NOT NULL,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);

CREATE TABLE collection_events (
    id                BIGSERIAL PRIMARY KEY,
    payment_reference TEXT    NOT NULL REFERENCES collections (payment_reference),
    at                BIGINT NOT NULL,
    status            TEXT    NOT NULL,
    paid_amount       NUMERIC,
    source            TEXT    NOT NULL
);

CREATE TABLE webhook_deliveries (
    dedupe_key TEXT    PRIMARY KEY,
    at         BIGINT NOT NULL
);
