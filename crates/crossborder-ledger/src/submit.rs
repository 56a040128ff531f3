//! [`Ledger::submit`]: one payout validated and recorded in a transaction
//! of its own (on SQLite, shared with the submits other tasks make at the
//! same time, see `group`).

use crossborder::types::PayoutRequest;

use crate::batch::DbConnection;
use crate::db::{fetch_all, with_pool, Pool};
use crate::error::LedgerError;
use crate::ledger::{corrupt, record, Ledger, RecordRow};
use crate::quote::RateGuard;
use crate::record::PayoutRecord;
use crate::request;
use crate::sqlx;
use crate::time::now_ms;

const INSERT_PAYOUT: &str = "INSERT INTO payouts (session_id, state, amount, from_currency, \
     to_currency, request, batch_key, batch_position, created_at, updated_at) \
     VALUES ($1, 'recorded', $2::numeric, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (session_id) DO NOTHING";

/// A new payout's first event (`$9` its detail), in the same call as its
/// insert: one round trip to the database where two were.
const FIRST_EVENT: &str = "INSERT INTO payout_events (session_id, at, from_state, to_state, \
     detail, dispatcher) SELECT $1, $8, NULL, 'recorded', $9, NULL";

const STORED_REQUEST: &str = "SELECT request FROM payouts WHERE session_id = $1";

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
        let insert: &$crate::submit::Insert = $insert;
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

impl Ledger {
    /// Validates `request` with the API's payout rules (when any fails,
    /// [`LedgerError::Invalid`] lists every violation and nothing is
    /// recorded), then records it, with its session id, in state
    /// [`recorded`](crate::PayoutState::Recorded), in one transaction; returns at
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
            (Pool::Sqlite(link), None) => link.submit(&sql, &insert).await?,
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
        // before is read as it stands, if it holds this very request
        // (a guarded submit checked that in its transaction).
        if let Some(row) = inserted.pop() {
            return record(row);
        }
        let vanished = || corrupt(&request.session_id, "vanished after it was recorded");
        if guard.is_none() {
            let stored = fetch_all!(
                &self.pool,
                STORED_REQUEST,
                Some(&request.session_id),
                |(stored,): (String,)| Ok(stored)
            )?;
            same_request(request, stored.first().ok_or_else(vanished)?, &insert.text)?;
        }
        self.payout(&request.session_id).await?.ok_or_else(vanished)
    }
}
