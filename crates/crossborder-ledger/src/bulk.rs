//! The ledger's many-row statements, one text per backend: a batch's
//! payouts and items, the dispatcher's state changes, and history events. SQLite takes a
//! multi-row `VALUES` list; PostgreSQL takes one array per column through
//! `UNNEST`, so the statement's text (and its prepared plan) is the same
//! whatever the number of rows, where a `VALUES` list of a new length is
//! parsed and planned again with up to 1,664 parameters.

use crate::sqlx;

/// One change as the row that applies it.
pub(crate) struct ChangeRow<'a> {
    pub(crate) session_id: &'a str,
    /// The state it was claimed in: the row changes only if it still is.
    pub(crate) from: &'a str,
    pub(crate) to: &'static str,
    pub(crate) transaction_id: Option<&'a str>,
    pub(crate) message: Option<&'a str>,
    pub(crate) errors: i64,
    pub(crate) lease_owner: Option<&'a str>,
    pub(crate) lease_until: Option<i64>,
    pub(crate) attempts: i64,
    pub(crate) rate_key: Option<&'a str>,
    pub(crate) quote_valid_until: Option<i64>,
    pub(crate) reason: Option<String>,
}

/// One payout to record (`recorded`, at the time the insert is given).
pub(crate) struct PayoutRow<'a> {
    pub(crate) session_id: &'a str,
    /// The exact decimal text.
    pub(crate) amount: String,
    pub(crate) from: &'static str,
    pub(crate) to: &'static str,
    /// The stored request's text.
    pub(crate) request: &'a str,
    pub(crate) batch_key: Option<&'a str>,
    pub(crate) position: Option<i64>,
}

/// One item of a batch, as given.
pub(crate) struct ItemRow<'a> {
    pub(crate) position: i64,
    pub(crate) item: &'a str,
    pub(crate) session_id: &'a str,
}

/// How many rows one multi-row `VALUES` statement of SQLite's holds: at
/// most 12 parameters a row, well within its limit of 32,766.
#[cfg(feature = "sqlite")]
pub(crate) const ROWS_PER_STATEMENT: usize = 500;

/// One event of the history.
pub(crate) struct EventRow<'a> {
    pub(crate) session_id: &'a str,
    pub(crate) at: i64,
    pub(crate) from: Option<&'a str>,
    pub(crate) to: &'a str,
    pub(crate) detail: Option<&'a str>,
    pub(crate) quote: Option<String>,
}

/// What a change sets, from the row `v` (whose names no column of
/// `payouts` has, so `RETURNING` stays unambiguous), up to `updated_at`,
/// whose value follows.
const SET: &str = "UPDATE payouts SET state = v.c_to, \
     transaction_id = COALESCE(v.c_transaction_id, payouts.transaction_id), \
     message = v.c_message, errors = v.c_errors, lease_owner = v.c_lease_owner, \
     lease_until = v.c_lease_until, attempts = v.c_attempts, \
     rate_key = COALESCE(v.c_rate_key, payouts.rate_key), \
     quote_valid_until = COALESCE(v.c_valid_until, payouts.quote_valid_until), \
     reason = COALESCE(v.c_reason, payouts.reason), updated_at = ";

/// The columns of `v`, in the order of a [`ChangeRow`]'s fields.
const V: [&str; 12] = [
    "c_session_id",
    "c_from",
    "c_to",
    "c_transaction_id",
    "c_message",
    "c_errors",
    "c_lease_owner",
    "c_lease_until",
    "c_attempts",
    "c_rate_key",
    "c_valid_until",
    "c_reason",
];

/// Where a change applies: the payout, still in the state it was claimed
/// in, still held by the owner (bound next).
const WHERE: &str = " WHERE payouts.session_id = v.c_session_id AND payouts.state = v.c_from \
     AND payouts.lease_owner = ";

/// What an applied change gives back: the payout's session id (its
/// record after the change is known without reading it).
const RETURNING: &str = " RETURNING session_id";

/// The many-row statements, on one backend's connection.
pub(crate) trait Bulk {
    /// Inserts `rows` as `recorded` at `now` (ms), leaving alone a session
    /// id already recorded; the session ids inserted, in no order.
    async fn insert_payouts(
        &mut self,
        rows: &[PayoutRow<'_>],
        now: i64,
    ) -> Result<Vec<String>, sqlx::Error>;

    /// Inserts the items of batch `batch_key`.
    async fn insert_items(
        &mut self,
        batch_key: &str,
        rows: &[ItemRow<'_>],
    ) -> Result<(), sqlx::Error>;

    /// Applies `rows` (at `now`, ms) to the payouts `owner` holds in the
    /// state each names; the session ids of those changed, in no order.
    async fn apply_rows(
        &mut self,
        owner: &str,
        rows: &[ChangeRow<'_>],
        now: i64,
    ) -> Result<Vec<String>, sqlx::Error>;

    /// Appends `events`, each made by `owner` (none: recorded, not made by
    /// a dispatcher).
    async fn insert_events(
        &mut self,
        owner: Option<&str>,
        events: &[EventRow<'_>],
    ) -> Result<(), sqlx::Error>;
}

/// The head of a multi-row insert into the events table.
#[cfg(feature = "sqlite")]
const EVENT_COLUMNS: &str =
    "INSERT INTO payout_events (session_id, at, from_state, to_state, detail, dispatcher, quote) ";

/// The head of an insert of many rows into the payouts table.
const PAYOUT_COLUMNS: &str = "INSERT INTO payouts (session_id, state, amount, from_currency, \
     to_currency, request, batch_key, batch_position, created_at, updated_at) ";

#[cfg(feature = "sqlite")]
impl Bulk for sqlx::SqliteConnection {
    async fn insert_payouts(
        &mut self,
        rows: &[PayoutRow<'_>],
        now: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        let mut inserted = Vec::with_capacity(rows.len());
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let mut insert = sqlx::QueryBuilder::new(PAYOUT_COLUMNS);
            insert.push_values(chunk, |mut row, payout| {
                row.push_bind(payout.session_id)
                    .push_bind("recorded")
                    .push_bind(&payout.amount)
                    .push_bind(payout.from)
                    .push_bind(payout.to)
                    .push_bind(payout.request)
                    .push_bind(payout.batch_key)
                    .push_bind(payout.position)
                    .push_bind(now)
                    .push_bind(now);
            });
            insert.push(" ON CONFLICT (session_id) DO NOTHING RETURNING session_id");
            let ids: Vec<(String,)> = insert.build_query_as().fetch_all(&mut *self).await?;
            inserted.extend(ids.into_iter().map(|(id,)| id));
        }
        Ok(inserted)
    }

    async fn insert_items(
        &mut self,
        batch_key: &str,
        rows: &[ItemRow<'_>],
    ) -> Result<(), sqlx::Error> {
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let mut insert = sqlx::QueryBuilder::new(
                "INSERT INTO batch_items (batch_key, position, item, session_id) ",
            );
            insert.push_values(chunk, |mut row, item| {
                row.push_bind(batch_key)
                    .push_bind(item.position)
                    .push_bind(item.item)
                    .push_bind(item.session_id);
            });
            insert.build().execute(&mut *self).await?;
        }
        Ok(())
    }

    async fn apply_rows(
        &mut self,
        owner: &str,
        rows: &[ChangeRow<'_>],
        now: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        let mut changed = Vec::with_capacity(rows.len());
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let mut update = sqlx::QueryBuilder::new(SET);
            update.push_bind(now).push(" FROM (SELECT ");
            // SQLite names a VALUES list's columns column1, column2, ….
            let columns: Vec<String> = V
                .iter()
                .enumerate()
                .map(|(i, name)| format!("column{} AS {name}", i + 1))
                .collect();
            update.push(columns.join(", ")).push(" FROM (");
            update.push_values(chunk, |mut row, change| {
                row.push_bind(change.session_id)
                    .push_bind(change.from)
                    .push_bind(change.to)
                    .push_bind(change.transaction_id)
                    .push_bind(change.message)
                    .push_bind(change.errors)
                    .push_bind(change.lease_owner)
                    .push_bind(change.lease_until)
                    .push_bind(change.attempts)
                    .push_bind(change.rate_key)
                    .push_bind(change.quote_valid_until)
                    .push_bind(change.reason.as_deref());
            });
            update
                .push(")) AS v")
                .push(WHERE)
                .push_bind(owner)
                .push(RETURNING);
            let ids: Vec<(String,)> = update.build_query_as().fetch_all(&mut *self).await?;
            changed.extend(ids.into_iter().map(|(id,)| id));
        }
        Ok(changed)
    }

    async fn insert_events(
        &mut self,
        owner: Option<&str>,
        events: &[EventRow<'_>],
    ) -> Result<(), sqlx::Error> {
        for chunk in events.chunks(ROWS_PER_STATEMENT) {
            let mut insert = sqlx::QueryBuilder::new(EVENT_COLUMNS);
            insert.push_values(chunk, |mut row, event| {
                row.push_bind(event.session_id)
                    .push_bind(event.at)
                    .push_bind(event.from)
                    .push_bind(event.to)
                    .push_bind(event.detail)
                    .push_bind(owner)
                    .push_bind(event.quote.as_deref());
            });
            insert.build().execute(&mut *self).await?;
        }
        Ok(())
    }
}

#[cfg(feature = "postgres")]
impl Bulk for sqlx::PgConnection {
    async fn insert_payouts(
        &mut self,
        rows: &[PayoutRow<'_>],
        now: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        // In the rows' order, so `seq` follows the batch's.
        let text = format!(
            "{PAYOUT_COLUMNS}SELECT p.session_id, 'recorded', p.amount::numeric, p.from_currency, \
             p.to_currency, p.request, p.batch_key, p.position, $8, $8 \
             FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], \
             $7::bigint[]) WITH ORDINALITY \
             AS p(session_id, amount, from_currency, to_currency, request, batch_key, position, n) \
             ORDER BY p.n ON CONFLICT (session_id) DO NOTHING RETURNING session_id"
        );
        let ids: Vec<(String,)> = sqlx::query_as(&text)
            .bind(rows.iter().map(|r| r.session_id).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.amount.as_str()).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.from).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.to).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.request).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.batch_key).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.position).collect::<Vec<_>>())
            .bind(now)
            .fetch_all(&mut *self)
            .await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    async fn insert_items(
        &mut self,
        batch_key: &str,
        rows: &[ItemRow<'_>],
    ) -> Result<(), sqlx::Error> {
        if rows.is_empty() {
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO batch_items (batch_key, position, item, session_id) \
             SELECT $1, i.position, i.item, i.session_id \
             FROM UNNEST($2::bigint[], $3::text[], $4::text[]) AS i(position, item, session_id)",
        )
        .bind(batch_key)
        .bind(rows.iter().map(|r| r.position).collect::<Vec<_>>())
        .bind(rows.iter().map(|r| r.item).collect::<Vec<_>>())
        .bind(rows.iter().map(|r| r.session_id).collect::<Vec<_>>())
        .execute(&mut *self)
        .await
        .map(drop)
    }

    async fn apply_rows(
        &mut self,
        owner: &str,
        rows: &[ChangeRow<'_>],
        now: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let text = format!(
            "{SET}$13 FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], \
             $6::bigint[], $7::text[], $8::bigint[], $9::bigint[], $10::text[], $11::bigint[], \
             $12::text[]) AS v({}){WHERE}$14{RETURNING}",
            V.join(", "),
        );
        let ids: Vec<(String,)> = sqlx::query_as(&text)
            .bind(rows.iter().map(|r| r.session_id).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.from).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.to).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.transaction_id).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.message).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.errors).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.lease_owner).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.lease_until).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.attempts).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.rate_key).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.quote_valid_until).collect::<Vec<_>>())
            .bind(rows.iter().map(|r| r.reason.as_deref()).collect::<Vec<_>>())
            .bind(now)
            .bind(owner)
            .fetch_all(self)
            .await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    async fn insert_events(
        &mut self,
        owner: Option<&str>,
        events: &[EventRow<'_>],
    ) -> Result<(), sqlx::Error> {
        if events.is_empty() {
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO payout_events (session_id, at, from_state, to_state, detail, dispatcher, quote) \
             SELECT e.session_id, e.at, e.from_state, e.to_state, e.detail, $6, e.quote FROM \
             UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $7::text[]) \
             AS e(session_id, at, from_state, to_state, detail, quote)",
        )
        .bind(events.iter().map(|e| e.session_id).collect::<Vec<_>>())
        .bind(events.iter().map(|e| e.at).collect::<Vec<_>>())
        .bind(events.iter().map(|e| e.from).collect::<Vec<_>>())
        .bind(events.iter().map(|e| e.to).collect::<Vec<_>>())
        .bind(events.iter().map(|e| e.detail).collect::<Vec<_>>())
        .bind(owner)
        .bind(events.iter().map(|e| e.quote.as_deref()).collect::<Vec<_>>())
        .execute(self)
        .await
        .map(drop)
    }
}
