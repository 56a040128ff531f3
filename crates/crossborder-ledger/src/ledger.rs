//! [`Ledger`]: opening the database, recording payouts, reading them back.

use std::path::PathBuf;
use std::str::FromStr;

use crossborder::types::PayoutRequest;
use crossborder::{Currency, Decimal};
use serde_json::Value;

use crate::bulk::{Bulk, EventRow, ItemRow, PayoutRow};
use crate::db::{fetch_all, with_pool, Pool};
use crate::error::LedgerError;
use crate::quote::{PayoutQuote, PayoutReason, RateGuard};
use crate::record::{PayoutEvent, PayoutRecord};
use crate::request;
use crate::state::PayoutState;
use crate::time::{from_ms, now_ms, to_ms};

/// The columns of a [`PayoutRecord`], from `payouts p`.
pub(crate) const RECORD_COLUMNS: &str = "p.session_id, p.state, p.amount::text, p.from_currency, \
     p.to_currency, p.transaction_id, p.message, p.batch_key, p.batch_position, p.created_at, p.updated_at, \
     p.reason";

/// A row of [`RECORD_COLUMNS`].
#[rustfmt::skip] // One line: a row is read as one tuple.
pub(crate) type RecordRow = (String, String, String, String, String, Option<String>, Option<String>, Option<String>, Option<i64>, i64, i64, Option<String>);

const INSERT_PAYOUT: &str = "INSERT INTO payouts (session_id, state, amount, from_currency, \
     to_currency, request, batch_key, batch_position, created_at, updated_at) \
     VALUES ($1, 'recorded', $2::numeric, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (session_id) DO NOTHING";

/// A new payout's first event (`$9` its detail), in the same call as its
/// insert: one round trip to the database where two were.
const FIRST_EVENT: &str = "INSERT INTO payout_events (session_id, at, from_state, to_state, \
     detail, dispatcher) SELECT $1, $8, NULL, 'recorded', $9, NULL";

const STORED_REQUEST: &str = "SELECT request FROM payouts WHERE session_id = $1";

/// How many session ids recorded before one statement of `record_batch`
/// reads back, well within SQLite's 32,766 parameters.
const OLD_PER_STATEMENT: usize = 500;

/// Sets the rate guard of a payout the dispatcher has not sent yet.
const SET_GUARD: &str = "UPDATE payouts SET min_rate = $1::numeric, guard_until = $2 \
     WHERE session_id = $3 AND state = 'recorded'";

/// Checks that a session id's `stored` request text is `text`, the one
/// submitted again: another request under the same id is a conflict.
fn same_request(request: &PayoutRequest, stored: &str, text: &str) -> Result<(), LedgerError> {
    if stored == text {
        Ok(())
    } else {
        Err(LedgerError::SessionConflict {
            session_id: request.session_id.clone(),
        })
    }
}

/// A payout ledger on SQLite or PostgreSQL. Cheap to clone (a pool).
#[derive(Debug, Clone)]
pub struct Ledger {
    pub(crate) pool: Pool,
    /// The SQLite file, for the dispatcher's lock next to it.
    pub(crate) path: Option<PathBuf>,
}

/// One submitted payout's insert and first event (`INSERT_PAYOUT`,
/// `FIRST_EVENT`), owned: on SQLite it may wait in the group-commit queue.
#[derive(Debug, Clone)]
pub(crate) struct Insert {
    pub(crate) session_id: String,
    pub(crate) amount: String,
    pub(crate) from: &'static str,
    pub(crate) to: &'static str,
    /// The stored request's text.
    pub(crate) text: String,
    pub(crate) now: i64,
}

/// `$query` (of the text of `INSERT_PAYOUT` and `FIRST_EVENT`, returning
/// the new payout's record) with `$insert`'s nine parameters bound.
macro_rules! bind_insert {
    ($query:expr, $insert:expr) => {{
        let insert: &$crate::ledger::Insert = $insert;
        $query
            .bind(&insert.session_id)
            .bind(&insert.amount)
            .bind(insert.from)
            .bind(insert.to)
            .bind(&insert.text)
            .bind(None::<&str>)
            .bind(None::<i64>)
            .bind(insert.now)
            .bind(None::<&str>)
    }};
}
// Used by name in `group` (SQLite's group commit).
#[cfg_attr(not(feature = "sqlite"), allow(unused_imports))]
pub(crate) use bind_insert;

/// One payout to insert: the request's stored text and where it came from.
pub(crate) struct NewPayout<'a> {
    request: &'a PayoutRequest,
    text: String,
    batch: Option<(&'a str, i64)>,
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
        Err(LedgerError::Unsupported(
            "a PostgreSQL ledger is backed up with PostgreSQL's own tools (pg_dump)".to_owned(),
        ))
    }

    /// Validates `request` with the API's payout rules (when any fails,
    /// [`LedgerError::Invalid`] lists every violation and nothing is
    /// recorded), then records it, with its session id, in state
    /// [`recorded`](PayoutState::Recorded), in one transaction; returns at
    /// once, without sending. Recording the same session id again with the
    /// same request returns the record as it stands; with a different
    /// request it is refused ([`LedgerError::SessionConflict`]).
    ///
    /// A converting payout may come without a `rateKey`
    /// ([`PayoutRequest::needs_quote`]): everything but the quote is
    /// validated now ([`PayoutRequest::validate_unquoted`]), and the
    /// dispatcher quotes it just before sending, under the same session id
    /// (see [`Dispatcher`](crate::Dispatcher)). A payout with its own
    /// `rateKey` is sent with that key, and refused once it has expired.
    pub async fn submit(&self, request: &PayoutRequest) -> Result<PayoutRecord, LedgerError> {
        self.submit_guarded(request, None).await
    }

    /// [`submit`](Ledger::submit) with a [`RateGuard`] for a payout the
    /// ledger quotes (converting, without `rateKey`): a quote worse than
    /// the guard is not used. Submitting the payout again with another
    /// guard replaces its guard while it has not been sent. A guard on a
    /// payout the ledger does not quote is refused
    /// ([`LedgerError::Invalid`], field `rateGuard`).
    pub async fn submit_with_guard(
        &self,
        request: &PayoutRequest,
        guard: RateGuard,
    ) -> Result<PayoutRecord, LedgerError> {
        if !request.needs_quote() {
            return Err(LedgerError::Invalid(
                crossborder::error::Violation::new(
                    "rateGuard",
                    crossborder::error::Rule::Mismatch,
                    "applies only to a converting payout without rateKey (the ledger quotes it)",
                )
                .into(),
            ));
        }
        self.submit_guarded(request, Some(&guard)).await
    }

    async fn submit_guarded(
        &self,
        request: &PayoutRequest,
        guard: Option<&RateGuard>,
    ) -> Result<PayoutRecord, LedgerError> {
        request.validate_unquoted().map_err(LedgerError::Invalid)?;
        let insert = Insert {
            session_id: request.session_id.clone(),
            amount: request.amount.to_string(),
            from: request.from_currency.as_str(),
            to: request.to_currency.as_str(),
            text: request::to_text(request)?,
            now: now_ms(),
        };
        let sql = self
            .pool
            .insert_with_first_event(INSERT_PAYOUT, FIRST_EVENT);
        let mut inserted: Vec<RecordRow> = match (&self.pool, guard) {
            // In one transaction with the submits other tasks make meanwhile.
            #[cfg(feature = "sqlite")]
            (Pool::Sqlite(link), None) => link.submit(&sql, insert.clone()).await?,
            // One statement, which PostgreSQL runs as a transaction of its own.
            #[cfg(feature = "postgres")]
            (Pool::Postgres(pool), None) => {
                bind_insert!(sqlx::query_as(&sql), &insert)
                    .fetch_all(pool)
                    .await?
            }
            (_, Some(guard)) => with_pool!(&self.pool, |p| {
                let mut tx = p.begin_with(self.pool.begin()).await?;
                let rows: Vec<RecordRow> = bind_insert!(sqlx::query_as(&sql), &insert)
                    .fetch_all(&mut *tx)
                    .await?;
                if rows.is_empty() {
                    // Recorded before: the guard is replaced only on the
                    // same request.
                    let (stored,): (String,) = sqlx::query_as(&self.pool.sql(STORED_REQUEST))
                        .bind(&request.session_id)
                        .fetch_one(&mut *tx)
                        .await?;
                    same_request(request, &stored, &insert.text)?;
                }
                DbConnection::set_guard(&mut tx, self, &request.session_id, guard).await?;
                tx.commit().await?;
                rows
            }),
        };
        // A new payout's record came back from its insert; one recorded
        // before is read as it stands, if it holds this very request.
        if let Some(row) = inserted.pop() {
            return record(row);
        }
        let stored = fetch_all!(
            &self.pool,
            STORED_REQUEST,
            Some(&request.session_id),
            |(stored,): (String,)| Ok(stored)
        )?;
        let vanished = || corrupt(&request.session_id, "vanished after it was recorded");
        same_request(request, stored.first().ok_or_else(vanished)?, &insert.text)?;
        self.payout(&request.session_id).await?.ok_or_else(vanished)
    }

    /// Records a whole batch in one transaction before anything is sent.
    /// `batch_key` names the source (the CLI passes the file's canonical
    /// path); each item is one payout in the API's wire JSON, in order.
    ///
    /// An item without `sessionId` is given one, kept with the batch. When
    /// any item breaks a rule, [`LedgerError::InvalidItems`] lists every
    /// violation of every item and nothing is recorded. Recording the same
    /// key again with the same items (whatever their keys' order) returns
    /// the same records, with the same session ids; with changed items it
    /// is refused with [`LedgerError::BatchChanged`] naming every differing
    /// position (1-based).
    ///
    /// Converting items without `rateKey` are checked for everything but
    /// the quote and quoted by the dispatcher at send time.
    pub async fn record_batch(
        &self,
        batch_key: &str,
        items: &[Value],
    ) -> Result<Vec<PayoutRecord>, LedgerError> {
        self.record_batch_guarded(batch_key, items, None).await
    }

    /// [`record_batch`](Ledger::record_batch) with a [`RateGuard`] for each
    /// item the ledger quotes (converting, without `rateKey`); other items
    /// have no rate to guard. Recording the same batch again with another
    /// guard replaces the guard of its items not sent yet, in the same
    /// transaction.
    pub async fn record_batch_guarded(
        &self,
        batch_key: &str,
        items: &[Value],
        guard: Option<RateGuard>,
    ) -> Result<Vec<PayoutRecord>, LedgerError> {
        let texts: Vec<String> = items.iter().map(request::canonical).collect();
        let recorded_now = with_pool!(&self.pool, |p| {
            let mut tx = p.begin_with(self.pool.begin()).await?;
            if let Some(lock) = self.pool.batch_lock() {
                // Processes recording the same batch at once take turns:
                // the first records it, the others find it recorded.
                sqlx::query(lock).bind(batch_key).execute(&mut *tx).await?;
            }
            let stored: Vec<(String,)> = sqlx::query_as(
                &self
                    .pool
                    .sql("SELECT item FROM batch_items WHERE batch_key = $1 ORDER BY position"),
            )
            .bind(batch_key)
            .fetch_all(&mut *tx)
            .await?;
            if stored.is_empty() {
                let requests = batch_requests(items, &texts)?;
                let payouts = requests
                    .iter()
                    .enumerate()
                    .map(|(index, request)| {
                        let position = i64::try_from(index + 1).unwrap_or(i64::MAX);
                        Ok(NewPayout {
                            request,
                            text: request::to_text(request)?,
                            batch: Some((batch_key, position)),
                        })
                    })
                    .collect::<Result<Vec<_>, LedgerError>>()?;
                DbConnection::insert_payouts(&mut tx, &payouts).await?;
                if let Some(guard) = &guard {
                    for request in requests.iter().filter(|r| r.needs_quote()) {
                        DbConnection::set_guard(&mut tx, self, &request.session_id, guard).await?;
                    }
                }
                // The items as given.
                let items: Vec<ItemRow<'_>> = payouts
                    .iter()
                    .zip(&texts)
                    .map(|(payout, text)| ItemRow {
                        position: payout.batch.map_or(0, |(_, position)| position),
                        item: text,
                        session_id: &payout.request.session_id,
                    })
                    .collect();
                Bulk::insert_items(&mut *tx, batch_key, &items).await?;
                tx.commit().await?;
                true
            } else {
                let changed = changed_positions(stored.iter().map(|(item,)| item.as_str()), &texts);
                if !changed.is_empty() {
                    return Err(LedgerError::BatchChanged {
                        batch_key: batch_key.to_owned(),
                        items: changed,
                    });
                }
                if let Some(guard) = &guard {
                    let quoted: Vec<(String, String)> = sqlx::query_as(&self.pool.sql(
                        "SELECT p.session_id, p.request FROM batch_items b JOIN payouts p \
                         ON p.session_id = b.session_id WHERE b.batch_key = $1 AND p.state = 'recorded'",
                    ))
                    .bind(batch_key)
                    .fetch_all(&mut *tx)
                    .await?;
                    for (session_id, text) in quoted {
                        if request::from_text(&text).is_ok_and(|r| r.needs_quote()) {
                            DbConnection::set_guard(&mut tx, self, &session_id, guard).await?;
                        }
                    }
                    tx.commit().await?;
                }
                false
            }
        });
        if recorded_now {
            self.checkpoint_or_warn().await;
        }
        let tail = "FROM batch_items b JOIN payouts p ON p.session_id = b.session_id \
             WHERE b.batch_key = $1 ORDER BY b.position";
        fetch_all!(
            &self.pool,
            &format!("SELECT {RECORD_COLUMNS} {tail}"),
            Some(batch_key),
            record
        )
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

/// The batch's items as payouts, each without `sessionId` given one
/// derived from the batch's content (`texts`, the items' canonical texts)
/// and its position; every violation of every item, or the requests.
fn batch_requests(items: &[Value], texts: &[String]) -> Result<Vec<PayoutRequest>, LedgerError> {
    let mut requests = Vec::with_capacity(items.len());
    let mut invalid = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let mut item = item.clone();
        if let Value::Object(object) = &mut item {
            if object.get("sessionId").is_none_or(Value::is_null) {
                object.insert(
                    "sessionId".into(),
                    Value::from(derived_session_id(texts, index + 1)),
                );
            }
        }
        match request::from_value(&item) {
            Ok(request) => requests.push(request),
            Err(violations) => invalid.push((index + 1, violations)),
        }
    }
    if invalid.is_empty() {
        Ok(requests)
    } else {
        Err(LedgerError::InvalidItems(invalid))
    }
}

/// The session id of item `position` (1-based) of a batch without one of
/// its own: `ledger-` and 32 hex digits of the SHA-256 of the batch's
/// content (every item's canonical text, in order) and the position. The
/// same file gives the same ids in any ledger, so the API's own
/// idempotency refuses a second payment even when the ledger that gave
/// them is lost.
fn derived_session_id(texts: &[String], position: usize) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(b"crossborder-ledger batch item\n");
    hash.update(position.to_string().as_bytes());
    for text in texts {
        hash.update(b"\n");
        hash.update(text.as_bytes());
    }
    let digest = hash.finalize();
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("ledger-{hex}")
}

/// Every 1-based position where the stored batch and the given one differ,
/// items added or removed included.
fn changed_positions<'a>(stored: impl Iterator<Item = &'a str>, given: &[String]) -> Vec<usize> {
    let stored: Vec<&str> = stored.collect();
    (0..stored.len().max(given.len()))
        .filter(|&i| stored.get(i).copied() != given.get(i).map(String::as_str))
        .map(|i| i + 1)
        .collect()
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

/// A transaction of either backend, for the steps of `record_batch` and
/// `submit_with_guard`.
pub(crate) trait DbConnection<'c> {
    /// Inserts payouts and their first events ([`Bulk`]'s many-row
    /// statements): a session id given twice (here, or recorded before)
    /// must hold the same request.
    async fn insert_payouts(self, payouts: &[NewPayout<'_>]) -> Result<(), LedgerError>;

    /// Sets the rate guard of a payout not sent yet.
    async fn set_guard(
        self,
        ledger: &Ledger,
        session_id: &str,
        guard: &RateGuard,
    ) -> Result<(), LedgerError>;
}

macro_rules! impl_db_connection {
    ($feature:literal, $db:ty) => {
        #[cfg(feature = $feature)]
        impl<'c> DbConnection<'c> for &mut sqlx::Transaction<'c, $db> {
            async fn insert_payouts(self, payouts: &[NewPayout<'_>]) -> Result<(), LedgerError> {
                use std::collections::{HashMap, HashSet};
                let conflict = |session_id: &str| LedgerError::SessionConflict {
                    session_id: session_id.to_owned(),
                };
                // Each session id once: a later item with it must be the same request.
                let mut first: HashMap<&str, &str> = HashMap::new();
                let mut unique: Vec<&NewPayout<'_>> = Vec::with_capacity(payouts.len());
                for payout in payouts {
                    let id = payout.request.session_id.as_str();
                    match first.get(id) {
                        Some(text) if *text != payout.text => return Err(conflict(id)),
                        Some(_) => {}
                        None => {
                            first.insert(id, &payout.text);
                            unique.push(payout);
                        }
                    }
                }
                let now = now_ms();
                let amounts: Vec<String> = unique
                    .iter()
                    .map(|p| p.request.amount.to_string())
                    .collect();
                let rows: Vec<PayoutRow<'_>> = unique
                    .iter()
                    .zip(amounts)
                    .map(|(payout, amount)| {
                        let (batch_key, position) = payout.batch.unzip();
                        PayoutRow {
                            session_id: &payout.request.session_id,
                            amount,
                            from: payout.request.from_currency.as_str(),
                            to: payout.request.to_currency.as_str(),
                            request: &payout.text,
                            batch_key,
                            position,
                        }
                    })
                    .collect();
                let inserted: HashSet<String> = Bulk::insert_payouts(&mut **self, &rows, now)
                    .await?
                    .into_iter()
                    .collect();
                let (new, old): (Vec<&NewPayout<'_>>, Vec<&NewPayout<'_>>) = unique
                    .iter()
                    .partition(|p| inserted.contains(&p.request.session_id));
                let details: Vec<Option<String>> = new
                    .iter()
                    .map(|payout| {
                        payout
                            .batch
                            .map(|(key, n)| format!("recorded as item {n} of batch {key}"))
                    })
                    .collect();
                let events: Vec<EventRow<'_>> = new
                    .iter()
                    .zip(&details)
                    .map(|(payout, detail)| EventRow {
                        session_id: &payout.request.session_id,
                        at: now,
                        from: None,
                        to: PayoutState::Recorded.as_str(),
                        detail: detail.as_deref(),
                        quote: None,
                    })
                    .collect();
                Bulk::insert_events(&mut **self, None, &events).await?;
                // Recorded before: the same request, or a conflict (a few
                // hundred ids a statement, within SQLite's parameters).
                for chunk in old.chunks(OLD_PER_STATEMENT) {
                    let mut select = sqlx::QueryBuilder::new(
                        "SELECT session_id, request FROM payouts WHERE session_id IN (",
                    );
                    let mut ids = select.separated(", ");
                    for payout in chunk {
                        ids.push_bind(&payout.request.session_id);
                    }
                    select.push(")");
                    let stored: HashMap<String, String> = select
                        .build_query_as::<(String, String)>()
                        .fetch_all(&mut **self)
                        .await?
                        .into_iter()
                        .collect();
                    for payout in chunk {
                        let id = &payout.request.session_id;
                        if stored.get(id) != Some(&payout.text) {
                            return Err(conflict(id));
                        }
                    }
                }
                Ok(())
            }

            async fn set_guard(
                self,
                ledger: &Ledger,
                session_id: &str,
                guard: &RateGuard,
            ) -> Result<(), LedgerError> {
                sqlx::query(&ledger.pool.sql(SET_GUARD))
                    .bind(guard.worst_rate.to_string())
                    .bind(to_ms(guard.deadline))
                    .bind(session_id)
                    .execute(&mut **self)
                    .await?;
                Ok(())
            }
        }
    };
}
impl_db_connection!("sqlite", sqlx::Sqlite);
impl_db_connection!("postgres", sqlx::Postgres);
