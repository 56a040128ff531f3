//! The dispatcher's statements: claiming payouts under a lease, moving them
//! from state to state with an event, and parking them until their next
//! try.

use sqlx::Row as _;

use crate::bulk::{Bulk, ChangeRow, EventRow};
use crate::db::with_pool;
use crate::error::LedgerError;
use crate::ledger::{corrupt, record, Ledger, RECORD_COLUMNS};
use crate::quote::{PayoutQuote, PayoutReason};
use crate::record::PayoutRecord;
use crate::sqlx;
use crate::state::PayoutState;
use crate::time::{from_ms, now_ms};

/// A payout claimed by one dispatcher.
#[derive(Debug, Clone)]
pub(crate) struct Claimed {
    pub(crate) request: String,
    pub(crate) attempts: i64,
    pub(crate) errors: i64,
    /// Claimed `recorded` and moved to `sending` by the claim itself: it
    /// has provably never been sent, so its first send needs no read.
    pub(crate) fresh: bool,
    /// The ledger quotes it (converting, recorded without `rateKey`): the
    /// claim leaves it `recorded`, and the dispatcher makes it `sending`
    /// with a quote.
    pub(crate) unquoted: bool,
    /// The quote it is sent with: its rate key and, in ms, until when.
    pub(crate) rate_key: Option<String>,
    pub(crate) quote_valid_until: Option<i64>,
    /// Its rate guard: the worst rate (decimal text) and the deadline (ms).
    pub(crate) min_rate: Option<String>,
    pub(crate) guard_until: Option<i64>,
    /// Until when (ms) the claim's lease holds it.
    pub(crate) lease_until: i64,
    /// `request` read, once, by the claim (`None`: it does not read).
    pub(crate) parsed: Option<crossborder::types::PayoutRequest>,
    /// Its record (session id, state, ...) as the claim left it, then as
    /// each change applied to it left it: the records of changes are made
    /// from it, not read back.
    pub(crate) record: PayoutRecord,
}

/// What [`Ledger::claim`] did.
#[derive(Debug)]
pub(crate) struct Claim {
    /// The payouts claimed; those moved from `recorded` to `sending` are
    /// `fresh`, with the records of that change.
    pub(crate) claimed: Vec<Claimed>,
    /// The records of the `done` changes, `None` where the lease was lost.
    pub(crate) done: Vec<Option<PayoutRecord>>,
}

/// The record of a payout after `change` moved it to `to` at `now` (ms):
/// what the change's `UPDATE` writes, so nothing is read back.
fn changed(record: &PayoutRecord, change: &Change, to: PayoutState, now: i64) -> PayoutRecord {
    PayoutRecord {
        state: to,
        transaction_id: (change.transaction_id.clone()).or_else(|| record.transaction_id.clone()),
        message: change.message.clone(),
        reason: change.reason.clone().or_else(|| record.reason.clone()),
        updated_at: from_ms(now),
        ..record.clone()
    }
}

/// A state change to apply to a claimed payout.
#[derive(Debug, Clone)]
pub(crate) struct Change {
    pub(crate) to: PayoutState,
    pub(crate) transaction_id: Option<String>,
    /// The record's message after the change.
    pub(crate) message: Option<String>,
    /// The event's detail.
    pub(crate) detail: String,
    /// When the dispatcher goes on with the payout at once: its lease,
    /// renewed from the change (ms), so a payout starts its send with a whole
    /// lease. None: the dispatcher lets go of it until `next_at`.
    pub(crate) renew_lease: Option<i64>,
    /// When the payout may be taken up again (none: at once, or never for a
    /// final state).
    pub(crate) next_at: Option<i64>,
    pub(crate) errors: i64,
    /// The payout's `attempts` after the change (reads of an accepted
    /// payout, quotes turned down by the rate guard).
    pub(crate) attempts: i64,
    /// The quote the event records, and whether the payout is sent with it
    /// (its rate key kept on the payout) or it was turned down.
    pub(crate) quote: Option<(PayoutQuote, bool)>,
    /// Why the payout ended, kept on it.
    pub(crate) reason: Option<PayoutReason>,
}

impl Change {
    /// A change to `to` with the event's `detail`, after which the
    /// dispatcher lets go of the payout; nothing else set.
    pub(crate) fn to(to: PayoutState, detail: String) -> Change {
        Change {
            to,
            transaction_id: None,
            message: None,
            detail,
            renew_lease: None,
            next_at: None,
            errors: 0,
            attempts: 0,
            quote: None,
            reason: None,
        }
    }
}

/// How many changes one statement of [`apply_in!`] applies: 12 parameters
/// each on SQLite, well within its limit (32,766).
const CHANGES_PER_STATEMENT: usize = 500;

/// In the open transaction `$tx`: each `(claimed, change)` of `$changes`
/// judged by [`PayoutState::transition`], applied to the payout if `$owner`
/// still holds it in the state it was claimed in, and its event appended:
/// one [`Bulk::apply_rows`] for up to [`CHANGES_PER_STATEMENT`] changes, and
/// one [`Bulk::insert_events`] of their events.
/// `Vec<Option<PayoutRecord>>`, in the order of `$changes`, `None` where
/// the payout is no longer `$owner`'s. A macro so that one text serves each
/// backend's transaction.
macro_rules! apply_in {
    ($tx:ident, $owner:expr, $changes:expr) => {{
        let owner: &str = $owner;
        let changes: &[(&Claimed, Change)] = $changes;
        let mut records: Vec<Option<PayoutRecord>> = Vec::with_capacity(changes.len());
        for chunk in changes.chunks(CHANGES_PER_STATEMENT) {
            let now = now_ms();
            let mut rows = Vec::with_capacity(chunk.len());
            let mut tos = Vec::with_capacity(chunk.len());
            for (claimed, change) in chunk {
                // The same state: an event that records a quote, no change.
                let to = if change.to == claimed.record.state && change.quote.is_some() {
                    change.to
                } else {
                    claimed.record.state.transition(change.to)?
                };
                tos.push(to);
                let used = change
                    .quote
                    .as_ref()
                    .filter(|(_, used)| *used)
                    .map(|(q, _)| q);
                let (lease_owner, lease_until) = match change.renew_lease {
                    Some(lease) => (Some(owner), Some(now.saturating_add(lease))),
                    None => (None, change.next_at),
                };
                rows.push(ChangeRow {
                    session_id: &claimed.record.session_id,
                    from: claimed.record.state.as_str(),
                    to: to.as_str(),
                    transaction_id: change.transaction_id.as_deref(),
                    message: change.message.as_deref(),
                    errors: change.errors,
                    lease_owner,
                    lease_until,
                    attempts: change.attempts,
                    rate_key: used.map(|q| q.rate_key.as_str()),
                    quote_valid_until: used.map(|q| q.valid_until_ms),
                    reason: change.reason.as_ref().map(PayoutReason::to_stored),
                });
            }
            let updated = Bulk::apply_rows(&mut *$tx, owner, &rows, now).await?;
            let mut updated: std::collections::HashSet<String> = updated.into_iter().collect();
            // The events of the changes made, after them.
            let mut events = Vec::new();
            for ((row, (claimed, change)), to) in rows.iter().zip(chunk).zip(tos) {
                let record = updated
                    .remove(row.session_id)
                    .then(|| changed(&claimed.record, change, to, now));
                if record.is_some() {
                    events.push(EventRow {
                        session_id: row.session_id,
                        at: now,
                        from: Some(row.from),
                        to: row.to,
                        detail: Some(&change.detail),
                        quote: change.quote.as_ref().map(|(q, _)| q.to_stored()),
                    });
                }
                records.push(record);
            }
            Bulk::insert_events(&mut *$tx, Some(owner), &events).await?;
        }
        records
    }};
}

/// The states a run works on: sending and resolving, and following
/// accepted payouts when `follow`.
fn open_states(follow: bool) -> &'static str {
    if follow {
        "'recorded', 'sending', 'unknown', 'accepted'"
    } else {
        "'recorded', 'sending', 'unknown'"
    }
}

impl Ledger {
    /// Claims up to `limit` payouts that are due and not leased for `owner`
    /// for `lease` ms: first those to resolve (`sending`, `unknown`), to
    /// follow (`accepted`, when `follow`) or to quote (`recorded` without
    /// the `rateKey` a converting payout needs), then `recorded` payouts
    /// that can be sent as they are; oldest first within each. On
    /// PostgreSQL the rows are picked `FOR UPDATE SKIP LOCKED`, so
    /// dispatchers claiming at once never get the same payout.
    ///
    /// The `recorded` ones that can be sent are moved to `sending` (`detail`,
    /// an event each) by the statement that claims them, in the claim's own
    /// transaction: one row update and one commit for the whole batch, and
    /// each is durably `sending` before anything is sent. They come back
    /// `fresh`, with the records of that change. `done`, the changes of the
    /// payouts whose sends ended since the last claim, are applied first in
    /// the same transaction (as [`apply_all`](Ledger::apply_all) would).
    pub(crate) async fn claim(
        &self,
        owner: &str,
        lease: i64,
        limit: usize,
        follow: bool,
        detail: &str,
        done: &[(&Claimed, Change)],
    ) -> Result<Claim, LedgerError> {
        // A fresh payout's record (`RECORD_COLUMNS`), its request and its
        // errors in a row.
        #[rustfmt::skip]
        type FreshRow = (String, String, String, String, String, Option<String>, Option<String>, Option<String>, Option<i64>, i64, i64, Option<String>, String, i64);
        let sendable = format!(
            "(from_currency = to_currency OR {})",
            self.pool.rate_key_given()
        );
        let due = "(lease_until IS NULL OR lease_until <= $3) ORDER BY seq LIMIT $4 FOR UPDATE SKIP LOCKED";
        let others = format!(
            "UPDATE payouts SET lease_owner = $1, lease_until = $2 WHERE seq IN (\
             SELECT seq FROM payouts WHERE state IN ({}) AND NOT (state = 'recorded' AND {sendable}) AND {due}) \
             RETURNING {}, request, attempts, errors, rate_key, quote_valid_until, \
             min_rate::text, guard_until",
            open_states(follow),
            RECORD_COLUMNS.replace("p.", "")
        );
        let others = self.pool.sql(&others);
        // Errors in a row carry over, as on every send.
        let fresh = format!(
            "UPDATE payouts SET state = 'sending', message = NULL, attempts = 0, updated_at = $5, \
             lease_owner = $1, lease_until = $2 WHERE seq IN (\
             SELECT seq FROM payouts WHERE state = 'recorded' AND {sendable} AND {due}) \
             RETURNING {}, request, errors",
            RECORD_COLUMNS.replace("p.", "")
        );
        let fresh = self.pool.sql(&fresh);
        let (from, to) = (PayoutState::Recorded, PayoutState::Sending);
        from.transition(to)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let now = now_ms();
        // A whole lease from the event's time, as on any change after which
        // the dispatcher goes on with the payout.
        let lease_until = now.saturating_add(lease);
        let (mut claimed, rows, done) = with_pool!(&self.pool, |p| {
            let mut tx = p.begin_with(self.pool.begin()).await?;
            let done = apply_in!(tx, owner, done);
            let rows = sqlx::query(&others)
                .bind(owner)
                .bind(lease_until)
                .bind(now)
                .bind(limit)
                .fetch_all(&mut *tx)
                .await?;
            // More columns than a tuple decodes: the record's first (a
            // tuple reads its columns by position), the others after it.
            let mut claimed = Vec::with_capacity(rows.len());
            for row in rows {
                let record = record(sqlx::FromRow::from_row(&row)?)?;
                let request: String = row.try_get(12)?;
                let parsed = crate::request::from_text(&request).ok();
                claimed.push(Claimed {
                    unquoted: parsed.as_ref().is_some_and(|r| r.needs_quote()),
                    parsed,
                    request,
                    attempts: row.try_get(13)?,
                    errors: row.try_get(14)?,
                    fresh: false,
                    rate_key: row.try_get(15)?,
                    quote_valid_until: row.try_get(16)?,
                    min_rate: row.try_get(17)?,
                    guard_until: row.try_get(18)?,
                    lease_until,
                    record,
                });
            }
            let room = limit.saturating_sub(i64::try_from(claimed.len()).unwrap_or(i64::MAX));
            let mut rows: Vec<FreshRow> = Vec::new();
            if room > 0 {
                rows = sqlx::query_as(&fresh)
                    .bind(owner)
                    .bind(lease_until)
                    .bind(now)
                    .bind(room)
                    .bind(now)
                    .fetch_all(&mut *tx)
                    .await?;
                let events: Vec<EventRow<'_>> = rows
                    .iter()
                    .map(|row| EventRow {
                        session_id: &row.0,
                        at: now,
                        from: Some(from.as_str()),
                        to: to.as_str(),
                        detail: Some(detail),
                        quote: None,
                    })
                    .collect();
                Bulk::insert_events(&mut *tx, Some(owner), &events).await?;
            }
            // Each read once, before the commit: one the statement took to
            // send as it is, whose request the ledger must quote, ends the
            // claim with nothing changed.
            let parsed: Vec<_> = rows
                .iter()
                .map(|row| crate::request::from_text(&row.12).ok())
                .collect();
            for (row, request) in rows.iter().zip(&parsed) {
                if request.as_ref().is_some_and(|r| r.needs_quote()) {
                    return Err(corrupt(
                        &row.0,
                        "claimed to be sent without the quote it needs",
                    ));
                }
            }
            tx.commit().await?;
            (claimed, rows.into_iter().zip(parsed), done)
        });
        for ((a, b, c, d, e, f, g, h, i, j, k, l, request, errors), parsed) in rows {
            claimed.push(Claimed {
                record: record((a, b, c, d, e, f, g, h, i, j, k, l))?,
                parsed,
                request,
                attempts: 0,
                errors,
                fresh: true,
                unquoted: false,
                rate_key: None,
                quote_valid_until: None,
                min_rate: None,
                guard_until: None,
                lease_until,
            });
        }
        Ok(Claim { claimed, done })
    }

    /// How many payouts a run still has to do, and the earliest time one
    /// of them is due (`None`: none is left).
    pub(crate) async fn next_due(&self, follow: bool) -> Result<Option<i64>, LedgerError> {
        let text = format!(
            "SELECT COUNT(*), MIN(COALESCE(lease_until, 0)) FROM payouts WHERE state IN ({})",
            open_states(follow)
        );
        let text = self.pool.sql(&text);
        let (count, due): (i64, Option<i64>) = with_pool!(&self.pool, |p| {
            sqlx::query_as(&text).fetch_one(p).await?
        });
        Ok(if count == 0 {
            None
        } else {
            Some(due.unwrap_or(0))
        })
    }

    /// Lets go of every lease, and makes every payout due at once: the
    /// SQLite dispatcher, holding the file's lock, knows their owners are
    /// gone, and a new run reads what an earlier one parked (a retry, the
    /// next read of an accepted payout) without waiting for its time.
    pub(crate) async fn release_dead_leases(&self) -> Result<(), LedgerError> {
        with_pool!(&self.pool, |p| {
            sqlx::query("UPDATE payouts SET lease_owner = NULL, lease_until = NULL WHERE lease_until IS NOT NULL OR lease_owner IS NOT NULL")
                .execute(p)
                .await?
                .rows_affected()
        });
        Ok(())
    }

    /// Lets go of every payout `owner` holds, each left in its state and
    /// due at once; how many.
    pub(crate) async fn release_leases(&self, owner: &str) -> Result<u64, LedgerError> {
        let text = self.pool.sql(
            "UPDATE payouts SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1",
        );
        Ok(with_pool!(&self.pool, |p| {
            sqlx::query(&text)
                .bind(owner)
                .execute(p)
                .await?
                .rows_affected()
        }))
    }

    /// Moves a payout `owner` holds from `claimed.record.state` by `change`, and
    /// appends the event, in one transaction. `None` when the payout is no
    /// longer `owner`'s (its lease ran out and another dispatcher took it:
    /// that one reads it before doing anything).
    pub(crate) async fn apply(
        &self,
        owner: &str,
        claimed: &Claimed,
        change: &Change,
    ) -> Result<Option<PayoutRecord>, LedgerError> {
        let mut records = self.apply_all(owner, &[(claimed, change.clone())]).await?;
        Ok(records.pop().flatten())
    }

    /// [`apply`](Ledger::apply) for many payouts in one transaction (one
    /// commit): each payout's record, or `None` where it is no longer
    /// `owner`'s.
    pub(crate) async fn apply_all(
        &self,
        owner: &str,
        changes: &[(&Claimed, Change)],
    ) -> Result<Vec<Option<PayoutRecord>>, LedgerError> {
        let records = with_pool!(&self.pool, |p| {
            let mut tx = p.begin_with(self.pool.begin()).await?;
            let records = apply_in!(tx, owner, changes);
            tx.commit().await?;
            records
        });
        Ok(records)
    }

    /// Forgets the quote a payout the ledger quotes was refused for (an
    /// expired or unknown rate key) and lets go of it, due at once: the
    /// next claim reads it by its session id, then quotes it again. Counts
    /// as an error in a row; `error` is kept as its message.
    pub(crate) async fn forget_quote(
        &self,
        owner: &str,
        claimed: &Claimed,
        error: &str,
    ) -> Result<bool, LedgerError> {
        let text = self.pool.sql(
            "UPDATE payouts SET quote_valid_until = 0, errors = $1, message = $2, \
             lease_owner = NULL, lease_until = $3 WHERE session_id = $4 AND lease_owner = $5",
        );
        let done = with_pool!(&self.pool, |p| {
            sqlx::query(&text)
                .bind(claimed.errors + 1)
                .bind(error)
                .bind(now_ms())
                .bind(&claimed.record.session_id)
                .bind(owner)
                .execute(p)
                .await?
                .rows_affected()
        });
        Ok(done == 1)
    }

    /// Keeps the payout in its state and lets go of it until `next_at`:
    /// an accepted payout not settled yet (`error`: none), or an error that
    /// says nothing about it. `transaction_id`, when the read gave it, is
    /// kept. Returns whether it was still `owner`'s.
    pub(crate) async fn park(
        &self,
        owner: &str,
        claimed: &Claimed,
        next_at: i64,
        error: Option<&str>,
        transaction_id: Option<&str>,
    ) -> Result<bool, LedgerError> {
        let (attempts, errors) = match error {
            Some(_) => (claimed.attempts, claimed.errors + 1),
            None => (claimed.attempts + 1, 0),
        };
        let text = self.pool.sql(
            "UPDATE payouts SET attempts = $1, errors = $2, message = COALESCE($3, message), \
             transaction_id = COALESCE($4, transaction_id), lease_owner = NULL, lease_until = $5 \
             WHERE session_id = $6 AND lease_owner = $7",
        );
        let done = with_pool!(&self.pool, |p| {
            sqlx::query(&text)
                .bind(attempts)
                .bind(errors)
                .bind(error)
                .bind(transaction_id)
                .bind(next_at)
                .bind(&claimed.record.session_id)
                .bind(owner)
                .execute(p)
                .await?
                .rows_affected()
        });
        if done > 1 {
            return Err(corrupt(
                &claimed.record.session_id,
                "session id is not unique",
            ));
        }
        Ok(done == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossborder::Decimal;
    use crossborder_testkit::fixtures;

    fn change(to: PayoutState, transaction_id: Option<&str>, message: Option<&str>) -> Change {
        Change {
            transaction_id: transaction_id.map(str::to_owned),
            message: message.map(str::to_owned),
            renew_lease: Some(60_000),
            ..Change::to(to, format!("to {to}"))
        }
    }

    /// The records made from the claim's, change by change, are the ones
    /// stored: a transaction id given once is kept, a message replaced.
    #[tokio::test]
    async fn each_changes_record_is_the_stored_one() {
        let path = std::env::temp_dir().join(format!("lease-records-{}.db", std::process::id()));
        let ledger = Ledger::open(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        let payout = fixtures::ngn_bank_payout(Decimal::ONE, "kept-1");
        ledger.submit(&payout).await.unwrap();
        let claim = ledger
            .claim("t", 60_000, 10, true, "claimed", &[])
            .await
            .unwrap();
        let mut claimed = claim.claimed.into_iter().next().unwrap();
        assert!(claimed.fresh);
        assert_eq!(claimed.record.state, PayoutState::Sending);
        assert_eq!(
            ledger.payout("kept-1").await.unwrap().as_ref(),
            Some(&claimed.record)
        );
        let steps = [
            change(PayoutState::Accepted, Some("tx-1"), Some("accepted")),
            change(PayoutState::Failed, None, Some("failed")),
        ];
        for step in steps {
            let record = ledger.apply("t", &claimed, &step).await.unwrap().unwrap();
            assert_eq!(record.transaction_id.as_deref(), Some("tx-1"));
            assert_eq!(record.message, step.message);
            assert_eq!(ledger.payout("kept-1").await.unwrap(), Some(record.clone()));
            claimed.record = record;
        }
        drop(ledger);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
