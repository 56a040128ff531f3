//! The one error type of the ledger.

use std::path::PathBuf;

use crossborder::error::Violations;

use crate::sqlx;
use crate::state::InvalidTransition;

/// Everything a ledger call can fail with, as variants a caller can match on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LedgerError {
    /// The payout breaks the API's rules; nothing was recorded. Every
    /// violation is listed, each with the wire name of its field.
    #[error("invalid payout (nothing recorded): {0}")]
    Invalid(Violations),

    /// Items of a batch break the API's rules; nothing of the batch was
    /// recorded. Each entry is an item's position (1-based) and its
    /// violations.
    #[error("invalid batch (nothing recorded): {}", describe_items(.0))]
    InvalidItems(Vec<(usize, Violations)>),

    /// The database was written by a newer `crossborder-ledger`: its schema
    /// has migrations this code does not know. Nothing was changed.
    #[error("the ledger's schema is at version {found}, newer than the {supported} this crossborder-ledger knows; upgrade crossborder-ledger to open it (nothing was changed)")]
    SchemaTooNew {
        /// The newest migration applied to the database.
        found: i64,
        /// The newest migration this code embeds.
        supported: i64,
    },

    /// A batch recorded before under this key now has different items; none
    /// of it was recorded again. `items` names every differing position
    /// (1-based), including items added or removed.
    #[error("batch {batch_key} differs from when it was first recorded, at item(s) {}; nothing was recorded (record the changed payouts under a new batch)", join(.items))]
    BatchChanged {
        /// The batch's key.
        batch_key: String,
        /// Every differing position, 1-based, ascending.
        items: Vec<usize>,
    },

    /// The session id is already recorded for a different payout; nothing
    /// was recorded. A session id names one payout, and its request never
    /// changes: a converting payout is not re-recorded with a new
    /// `rateKey` when its quote expires. Record it without `rateKey`
    /// instead, and the dispatcher quotes it before each send, under the
    /// same session id (see [`Ledger::submit`](crate::Ledger::submit)).
    #[error(
        "session id {session_id} is already recorded for a different payout; nothing was recorded"
    )]
    SessionConflict {
        /// The session id.
        session_id: String,
    },

    /// Another dispatcher holds this SQLite database. SQLite has one writer
    /// at a time and no row locks, so one process dispatches per file; use
    /// PostgreSQL for a fleet.
    #[error("another dispatcher is running on {} (a SQLite ledger has one dispatcher at a time; stop it, or use PostgreSQL for several)", .path.display())]
    DispatcherBusy {
        /// The lock database held by the other dispatcher.
        path: PathBuf,
    },

    /// The URL names no database this build can open.
    #[error("cannot open ledger {url}: {reason}")]
    Url {
        /// The URL given (without its password).
        url: String,
        /// Why.
        reason: String,
    },

    /// The database could not be opened or reached: refused, not answering
    /// as PostgreSQL does, a wrong password, not a SQLite file or a damaged
    /// one. Nothing was changed.
    #[error("cannot open the ledger {database}: {reason}")]
    Open {
        /// The database (a path, or the URL without its password).
        database: String,
        /// Why, in a few words.
        reason: String,
    },

    /// The database holds tables, and none of a ledger: it belongs to
    /// something else. Nothing was changed.
    #[error("{database} is not a crossborder ledger: it holds other tables ({}) and no ledger; nothing was changed (give a new file, or an empty database)", .tables.join(", "))]
    NotALedger {
        /// The database (a path, or the URL without its password).
        database: String,
        /// Its tables.
        tables: Vec<String>,
    },

    /// What was asked cannot be done on this backend (why, in the message).
    #[error("{0}")]
    Unsupported(String),

    /// A state change the lifecycle does not allow (another process changed
    /// the payout first).
    #[error(transparent)]
    Transition(#[from] InvalidTransition),

    /// The database failed.
    #[error("ledger database error: {0}")]
    Database(#[from] sqlx::Error),

    /// The embedded migrations could not be applied.
    #[error("the ledger's schema cannot be brought up to date: migration {version} {problem}; nothing was changed")]
    Migrate {
        /// The migration's version.
        version: i64,
        /// What is wrong with it (left unfinished, unknown, applied from
        /// other SQL).
        problem: String,
    },

    /// A file next to the database (the SQLite dispatcher's lock) could not
    /// be opened.
    #[error("ledger file error on {}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },

    /// A row holds something this code cannot read (edited by hand?).
    #[error("ledger row {what} is unreadable: {detail}")]
    Corrupt {
        /// Which row and column.
        what: String,
        /// What is wrong.
        detail: String,
    },

    /// The API failed in a way the dispatcher cannot settle by itself (the
    /// payout stays in the ledger, as it was, for the next run).
    #[error(transparent)]
    Api(#[from] crossborder::Error),
}

fn join(items: &[usize]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe_items(items: &[(usize, Violations)]) -> String {
    items
        .iter()
        .map(|(position, violations)| format!("item {position}: {violations}"))
        .collect::<Vec<_>>()
        .join("; ")
}
