//! [`Ledger::record_batch`]: a whole file of payouts recorded in one
//! transaction before anything is sent, and the ids of items without one.

use std::collections::HashMap;

use crossborder::types::PayoutRequest;
use serde_json::Value;

use crate::bulk::{Bulk, EventRow, ItemRow, PayoutRow};
use crate::db::{fetch_all, with_pool};
use crate::error::LedgerError;
use crate::ledger::{record, Ledger, RECORD_COLUMNS};
use crate::quote::RateGuard;
use crate::record::PayoutRecord;
use crate::request;
use crate::sqlx;
use crate::state::PayoutState;
use crate::time::{from_ms, now_ms, to_ms};

/// How many session ids recorded before one statement of `record_batch`
/// reads back, well within SQLite's 32,766 parameters.
const OLD_PER_STATEMENT: usize = 500;

/// Sets the rate guard of a payout the dispatcher has not sent yet.
const SET_GUARD: &str = "UPDATE payouts SET min_rate = $1::numeric, guard_until = $2 \
     WHERE session_id = $3 AND state = 'recorded'";

/// One payout to insert: the request's stored text and where it came from.
pub(crate) struct NewPayout<'a> {
    request: &'a PayoutRequest,
    text: String,
    batch: Option<(&'a str, i64)>,
}

impl Ledger {
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
        let (recorded_now, records) = with_pool!(&self.pool, |p| {
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
                let all_new = DbConnection::insert_payouts(&mut tx, &payouts).await?;
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
                // Every payout new: their records are what was just
                // written, with no read back.
                let records = all_new.map(|now| new_records(batch_key, &payouts, now));
                (true, records)
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
                (false, None)
            }
        });
        if recorded_now {
            self.checkpoint_or_warn().await;
        }
        if let Some(records) = records {
            return Ok(records);
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
}

/// The records of a batch's payouts, all recorded at `now` and none
/// before: as reading them back would give them, in the batch's order (an
/// item repeating an earlier one's session id has that one's record).
fn new_records(batch_key: &str, payouts: &[NewPayout<'_>], now: i64) -> Vec<PayoutRecord> {
    let mut first: HashMap<&str, usize> = HashMap::new();
    payouts
        .iter()
        .enumerate()
        .map(|(index, payout)| {
            let request = payout.request;
            let position = *first.entry(&request.session_id).or_insert(index + 1);
            PayoutRecord {
                session_id: request.session_id.clone(),
                state: PayoutState::Recorded,
                amount: request.amount,
                from_currency: request.from_currency,
                to_currency: request.to_currency,
                transaction_id: None,
                message: None,
                reason: None,
                batch: Some((batch_key.to_owned(), position)),
                created_at: from_ms(now),
                updated_at: from_ms(now),
            }
        })
        .collect()
}

/// The batch's items as payouts, each without `sessionId` given one
/// derived from the batch's content (`texts`, the items' canonical texts)
/// and its position; every violation of every item, or the requests.
fn batch_requests(items: &[Value], texts: &[String]) -> Result<Vec<PayoutRequest>, LedgerError> {
    let mut requests = Vec::with_capacity(items.len());
    let mut invalid = Vec::new();
    // Digested once, when the first item without an id needs it.
    let mut content = None;
    for (index, item) in items.iter().enumerate() {
        let mut item = item.clone();
        if let Value::Object(object) = &mut item {
            if object.get("sessionId").is_none_or(Value::is_null) {
                let content = content.get_or_insert_with(|| content_digest(texts));
                object.insert(
                    "sessionId".into(),
                    Value::from(derived_session_id(content, index + 1)),
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

/// The SHA-256 of a batch's content: every item's canonical text, in
/// order, each after a newline (a canonical text has none of its own).
fn content_digest(texts: &[String]) -> [u8; 32] {
    let mut hash = hmac_sha256::Hash::new();
    hash.update(b"crossborder-ledger batch\n");
    for text in texts {
        hash.update(b"\n");
        hash.update(text.as_bytes());
    }
    hash.finalize()
}

/// The session id of item `position` (1-based) of a batch without one of
/// its own: `ledger-` and 32 hex digits of the SHA-256 of the batch's
/// content digest ([`content_digest`]) and the position. The same file
/// gives the same ids in any ledger, so the API's own idempotency refuses
/// a second payment even when the ledger that gave them is lost; the
/// content is digested once, so a batch of n items costs n short hashes
/// (hashing the whole content for each item took 29 s for 16,000).
fn derived_session_id(content: &[u8; 32], position: usize) -> String {
    let mut hash = hmac_sha256::Hash::new();
    hash.update(b"crossborder-ledger batch item\n");
    hash.update(content);
    hash.update(position.to_string().as_bytes());
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

/// A transaction of either backend, for the steps of `record_batch` and
/// `submit_with_guard`.
pub(crate) trait DbConnection<'c> {
    /// Inserts payouts and their first events ([`Bulk`]'s many-row
    /// statements): a session id given twice (here, or recorded before)
    /// must hold the same request.
    /// Returns the time of the recording (ms) when every payout is new:
    /// none was recorded before.
    async fn insert_payouts(self, payouts: &[NewPayout<'_>]) -> Result<Option<i64>, LedgerError>;

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
            async fn insert_payouts(
                self,
                payouts: &[NewPayout<'_>],
            ) -> Result<Option<i64>, LedgerError> {
                use std::collections::HashSet;
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
                Ok(old.is_empty().then_some(now))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids of a batch's unnamed items are part of the ledger's
    /// promise across versions (a file run again through a lost ledger
    /// must get the ids it first had): these were computed apart from this
    /// code, with Python's `hashlib`, from the scheme in `batch_requests`'
    /// docs. A change of scheme fails here.
    #[test]
    fn unnamed_items_get_the_ids_the_scheme_gives_in_any_version() {
        let salary = serde_json::json!({
            "amount": "1500.00", "fromCurrency": "NGN", "toCurrency": "NGN",
            "accountNumber": "0123456789", "accountName": "Ada Obi",
            "bankName": "GTBank", "bankCode": "058", "narration": "November salary",
        });
        let mut named = salary.clone();
        named["sessionId"] = "own-id-2".into();
        let items = [salary.clone(), named, salary];
        let texts: Vec<String> = items.iter().map(request::canonical).collect();
        let ids: Vec<String> = batch_requests(&items, &texts)
            .map(|requests| requests.into_iter().map(|r| r.session_id).collect())
            .unwrap_or_default();
        assert_eq!(
            ids,
            [
                "ledger-90f5d88812c7e7ac8612e95ce4f67c36",
                "own-id-2",
                "ledger-c680501817bbb2a0128ae7d8f3228090",
            ]
        );
    }
}
