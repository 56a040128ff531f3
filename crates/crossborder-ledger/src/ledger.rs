//! [`Ledger`]: opening the database, reading payouts back, and the rows
//! they are read from. Recording is in `submit` and `batch`.

use std::path::PathBuf;
use std::str::FromStr;

use crossborder::{Currency, Decimal};

use crate::db::{fetch_all, with_pool, Pool};
use crate::error::LedgerError;
use crate::quote::{PayoutQuote, PayoutReason};
use crate::record::{PayoutEvent, PayoutRecord};
use crate::sqlx;
use crate::state::PayoutState;
use crate::time::from_ms;

pub(crate) const RECORD_COLUMNS: &str = "p.session_id, p.state, p.amount::text, p.from_currency, \
     p.to_currency, p.transaction_id, p.message, p.batch_key, p.batch_position, p.created_at, p.updated_at, \
     p.reason";

/// A row of [`RECORD_COLUMNS`].
#[rustfmt::skip] // One line: a row is read as one tuple.
pub(crate) type RecordRow = (String, String, String, String, String, Option<String>, Option<String>, Option<String>, Option<i64>, i64, i64, Option<String>);

/// A payout ledger on SQLite or PostgreSQL. Cheap to clone (a pool).
#[derive(Debug, Clone)]
pub struct Ledger {
    pub(crate) pool: Pool,
    /// The SQLite file, for the dispatcher's lock next to it.
    #[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
    pub(crate) path: Option<PathBuf>,
}

impl Ledger {
    /// Opens the ledger at `url`: `sqlite://payouts.db` (the file is
    /// created if missing; a bare path is taken as SQLite) or, with the
    /// `postgres` feature, `postgres://user@host/db`. Applies the embedded
    /// migrations; a database written by a newer version is refused with
    /// [`LedgerError::SchemaTooNew`] and left unchanged, one holding other
    /// tables and no ledger with [`LedgerError::NotALedger`], and one that
    /// cannot be reached or read with [`LedgerError::Open`] (a PostgreSQL
    /// server is given 5 s). Processes opening one new PostgreSQL database
    /// at the same instant take turns migrating it.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), crossborder_ledger::LedgerError> {
    /// let ledger = crossborder_ledger::Ledger::open("sqlite::memory:").await?;
    /// assert!(ledger.payouts().await?.is_empty());
    /// # Ok(()) }
    /// ```
    pub async fn open(url: &str) -> Result<Ledger, LedgerError> {
        let (pool, path) = Pool::open(url).await?;
        Ok(Ledger { pool, path })
    }

    /// SQLite: copies everything the write-ahead log (`<file>-wal`) holds
    /// into the main file, and empties the log, so the main file alone is
    /// the whole ledger (unless another connection writes meanwhile).
    /// Done after each recorded batch, after each dispatcher run and by
    /// [`close`](Ledger::close). Nothing on PostgreSQL.
    pub async fn checkpoint(&self) -> Result<(), LedgerError> {
        #[cfg(feature = "sqlite")]
        if self.pool.is_sqlite() {
            with_pool!(&self.pool, |p| sqlx::query(
                "PRAGMA wal_checkpoint(TRUNCATE)"
            )
            .execute(p)
            .await
            .map(drop)?);
        }
        Ok(())
    }

    /// Checkpoints (see [`checkpoint`](Ledger::checkpoint)) and closes
    /// the connections: a SQLite ledger closed is whole in its main file.
    /// (SQLite checkpoints by itself when the last connection to a file
    /// closes, so a checkpoint that cannot run here, a statement of a
    /// stopped run still open, is left to it.)
    pub async fn close(&self) {
        self.checkpoint_or_warn().await;
        match &self.pool {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(link) => link.close().await,
            #[cfg(feature = "postgres")]
            Pool::Postgres(p) => p.close().await,
        }
    }

    /// [`checkpoint`](Ledger::checkpoint), where a failure is no reason to
    /// fail what was done: the next checkpoint, or SQLite's own, does it.
    pub(crate) async fn checkpoint_or_warn(&self) {
        if let Err(error) = self.checkpoint().await {
            tracing::warn!(%error, "checkpoint not done; the next one copies the log");
        }
    }

    /// SQLite: writes a consistent copy of the ledger to the new file
    /// `destination` (`VACUUM INTO`), safe while dispatchers run; an
    /// existing destination is refused. A PostgreSQL ledger is backed up
    /// with the server's own tools (`pg_dump`):
    /// [`LedgerError::Unsupported`].
    pub async fn backup(&self, destination: &std::path::Path) -> Result<(), LedgerError> {
        #[cfg(feature = "sqlite")]
        if self.pool.is_sqlite() {
            if destination.exists() {
                return Err(LedgerError::Io {
                    path: destination.to_owned(),
                    source: std::io::Error::new(
                        std::io::ErrorKind::AlreadyExists,
                        "it exists already; a backup is written to a new file",
                    ),
                });
            }
            with_pool!(&self.pool, |p| sqlx::query("VACUUM INTO $1")
                .bind(destination.to_string_lossy().into_owned())
                .execute(p)
                .await
                .map(drop)?);
            return Ok(());
        }
        let _ = destination;
        Err(LedgerError::Unsupported(
            "a PostgreSQL ledger is backed up with PostgreSQL's own tools (pg_dump)".to_owned(),
        ))
    }

    /// Every payout, oldest first.
    pub async fn payouts(&self) -> Result<Vec<PayoutRecord>, LedgerError> {
        fetch_all!(
            &self.pool,
            &format!("SELECT {RECORD_COLUMNS} FROM payouts p ORDER BY p.seq"),
            None,
            record
        )
    }

    /// The payout recorded under `session_id`, if any.
    pub async fn payout(&self, session_id: &str) -> Result<Option<PayoutRecord>, LedgerError> {
        let text = format!("SELECT {RECORD_COLUMNS} FROM payouts p WHERE p.session_id = $1");
        Ok(fetch_all!(&self.pool, &text, Some(session_id), record)?.pop())
    }

    /// Every state change of the payout, oldest first: what happened to it,
    /// and when. Empty when no payout has that session id.
    pub async fn history(&self, session_id: &str) -> Result<Vec<PayoutEvent>, LedgerError> {
        type EventRow = (
            i64,
            Option<String>,
            String,
            Option<String>,
            Option<String>,
            Option<String>,
        );
        let rows: Vec<EventRow> = with_pool!(&self.pool, |p| {
            sqlx::query_as(&self.pool.sql(
                "SELECT at, from_state, to_state, detail, dispatcher, quote FROM payout_events \
                 WHERE session_id = $1 ORDER BY id",
            ))
            .bind(session_id)
            .fetch_all(p)
            .await?
        });
        rows.into_iter()
            .map(|(at, from, to, detail, dispatcher, quote)| {
                Ok(PayoutEvent {
                    at: from_ms(at),
                    from: from.as_deref().map(|s| state(session_id, s)).transpose()?,
                    to: state(session_id, &to)?,
                    detail,
                    dispatcher,
                    quote: quote
                        .as_deref()
                        .map(PayoutQuote::from_stored)
                        .transpose()
                        .map_err(|e| corrupt(session_id, format!("quote: {e}")))?,
                })
            })
            .collect()
    }
}

pub(crate) fn corrupt(session_id: &str, detail: impl Into<String>) -> LedgerError {
    LedgerError::Corrupt {
        what: format!("payout {session_id}"),
        detail: detail.into(),
    }
}

pub(crate) fn state(session_id: &str, word: &str) -> Result<PayoutState, LedgerError> {
    PayoutState::from_str(word).map_err(|e| corrupt(session_id, e.to_string()))
}

/// A row of [`RECORD_COLUMNS`] as a record.
pub(crate) fn record(row: RecordRow) -> Result<PayoutRecord, LedgerError> {
    let (
        session_id,
        state_word,
        amount,
        from,
        to,
        transaction_id,
        message,
        batch_key,
        position,
        created,
        updated,
        reason,
    ) = row;
    let currency =
        |code: &str| Currency::from_str(code).map_err(|e| corrupt(&session_id, e.to_string()));
    Ok(PayoutRecord {
        state: state(&session_id, &state_word)?,
        amount: Decimal::from_str(&amount)
            .map_err(|e| corrupt(&session_id, format!("amount {amount:?}: {e}")))?,
        from_currency: currency(&from)?,
        to_currency: currency(&to)?,
        transaction_id,
        message,
        reason: reason
            .as_deref()
            .map(serde_json::from_str::<PayoutReason>)
            .transpose()
            .map_err(|e| corrupt(&session_id, format!("reason: {e}")))?,
        batch: batch_key.zip(position.and_then(|p| usize::try_from(p).ok())),
        created_at: from_ms(created),
        updated_at: from_ms(updated),
        session_id,
    })
}
