//! Group commit on SQLite: submits that tasks make while another one is
//! being written wait in a queue, and whichever takes the connection next
//! writes them all in one transaction, one `fsync` for the lot, sent as
//! one call (so a task aborted midway leaves what
//! [`SqliteSlot::fetch_transaction`] rolls back, never a transaction
//! sqlx half began). Each caller gets its own answer once that
//! transaction is on disk.

use std::collections::HashMap;

use crate::db::{SqliteLink, SqliteSlot};
use crate::ledger::RecordRow;
use crate::queue::Turn;
use crate::sqlx;
use crate::submit::{bind_insert, Insert};

/// What writing one submit gave: the new payout's record, or none when
/// its session id was recorded before.
pub(crate) type Written = Result<Vec<RecordRow>, sqlx::Error>;

/// The submits waiting for the connection.
pub(crate) type Queue = crate::queue::Queue<Insert, Written>;

impl SqliteLink {
    /// Writes `insert` (through `sql`, the payout's insert and first
    /// event), with the submits queued meanwhile, in one transaction.
    pub(crate) async fn submit(&self, sql: &str, insert: &Insert) -> Written {
        let ticket = self.queue().push(insert.clone());
        let mut slot = self.lock().await;
        match self.queue().turn(ticket) {
            Turn::Answered(written) => written,
            // If the transaction of the caller that took it did commit, the
            // payout is found recorded, not recorded twice.
            Turn::Lost => write_alone(&mut slot, sql, insert).await,
            Turn::Write(group) => {
                let written = write_group(&mut slot, sql, group.items()).await;
                match group.answer(written) {
                    Some(written) => written,
                    None => write_alone(&mut slot, sql, insert).await,
                }
            }
        }
    }
}

/// How many submits one transaction writes at most (nine parameters
/// each, well within SQLite's 32,766).
const MAX_GROUP: usize = 256;

/// `inserts` in transactions of up to [`MAX_GROUP`], each sent in one
/// call; each alone when one of a group's statements fails, so that
/// every caller gets its own outcome.
async fn write_group(slot: &mut SqliteSlot, sql: &str, inserts: &[Insert]) -> Vec<Written> {
    let mut written = Vec::with_capacity(inserts.len());
    for group in inserts.chunks(MAX_GROUP) {
        if let [insert] = group {
            written.push(write_alone(slot, sql, insert).await);
            continue;
        }
        let text = group_text(sql, group.len());
        let mut query = sqlx::query_as::<_, RecordRow>(&text);
        for insert in group {
            query = bind_insert!(query, insert);
        }
        match slot.fetch_transaction(query).await {
            Ok(rows) => written.extend(records_of(group, rows).into_iter().map(Ok)),
            Err(_) => {
                for insert in group {
                    written.push(write_alone(slot, sql, insert).await);
                }
            }
        }
    }
    written
}

/// Each submit's row, if its insert returned one. A row goes to the
/// first submit with its session id: the one whose insert ran first, and
/// the only one that could insert it.
fn records_of(group: &[Insert], rows: Vec<RecordRow>) -> Vec<Vec<RecordRow>> {
    let mut first: HashMap<&str, usize> = HashMap::with_capacity(group.len());
    for (i, insert) in group.iter().enumerate() {
        first.entry(insert.session_id.as_str()).or_insert(i);
    }
    let mut records: Vec<Vec<RecordRow>> = group.iter().map(|_| Vec::new()).collect();
    for row in rows {
        if let Some(&i) = first.get(row.0.as_str()) {
            records[i].push(row);
        }
    }
    records
}

/// The text that writes `count` submits in one transaction: `sql` once
/// for each, its parameters renumbered after the previous one's.
fn group_text(sql: &str, count: usize) -> String {
    let per_insert = highest_parameter(sql);
    let mut text = String::from("BEGIN IMMEDIATE; ");
    for k in 0..count {
        renumber(sql, k * per_insert, &mut text);
        text.push_str("; ");
    }
    text.push_str("COMMIT");
    text
}

/// The highest `$N` of `sql`.
fn highest_parameter(sql: &str) -> usize {
    let mut highest = 0;
    renumber_with(sql, &mut String::new(), |n| {
        highest = highest.max(n);
        n
    });
    highest
}

/// Appends `sql` to `out` with each `$N` made `$(N + offset)`.
fn renumber(sql: &str, offset: usize, out: &mut String) {
    renumber_with(sql, out, |n| n + offset);
}

fn renumber_with(sql: &str, out: &mut String, mut number: impl FnMut(usize) -> usize) {
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        // A `$` without digits (none in the ledger's statements) stays.
        if let Ok(n) = rest[..digits].parse::<usize>() {
            out.push_str(&number(n).to_string());
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
}

/// `insert` in a transaction of its own, sent in one call.
async fn write_alone(slot: &mut SqliteSlot, sql: &str, insert: &Insert) -> Written {
    let whole = format!("BEGIN IMMEDIATE; {sql}; COMMIT");
    slot.fetch_transaction(bind_insert!(sqlx::query_as(&whole), insert))
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_renumbers_each_submits_parameters_after_the_last() {
        let sql = "INSERT INTO t VALUES ($1, $2, $10, '$x'); SELECT $2";
        assert_eq!(highest_parameter(sql), 10);
        assert_eq!(
            group_text(sql, 2),
            "BEGIN IMMEDIATE; INSERT INTO t VALUES ($1, $2, $10, '$x'); SELECT $2; \
             INSERT INTO t VALUES ($11, $12, $20, '$x'); SELECT $12; COMMIT"
        );
    }
}
