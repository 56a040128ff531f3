//! A run: `payout --body FILE --ledger URL` records the whole file, then
//! sends it; `ledger resume` finishes what an interrupted run left.

use std::path::Path;

use crossborder::json::check_payout_json_unquoted;
use crossborder::Client;
use crossborder_ledger::{LedgerError, PayoutRecord, PayoutState, RateGuard};
use serde_json::{json, Value};

use super::dispatch::{dispatch, How};
use super::records::{named, print_batch};
use super::{open, trouble};
use crate::batch;
use crate::failure::Failure;

/// `payout --body FILE --ledger URL`: the whole file recorded, then sent.
pub async fn pay(
    client: impl FnOnce() -> Result<Client, Failure>,
    file: &Path,
    body: &Value,
    url: &str,
    how: How,
    as_json: bool,
    guard: Option<RateGuard>,
) -> Result<(), Failure> {
    let wait = how.wait;
    if file == Path::new("-") {
        return Err(Failure::usage(
            "--ledger needs --body FILE: a run is recognised again by its file, and stdin has none",
        ));
    }
    let key = std::fs::canonicalize(file)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", file.display())))?;
    let (is_batch, bodies) = batch::elements(body);
    check(is_batch, &bodies)?;
    // Before anything is recorded: a run that cannot send records nothing.
    let client = client()?;
    let ledger = open(Some(url), true).await?;
    let ran = async {
        let items: Vec<Value> = bodies.into_iter().cloned().collect();
        let records = ledger
            .record_batch_guarded(&key.to_string_lossy(), &items, guard)
            .await
            .map_err(|error| match error {
                LedgerError::BatchChanged { items, .. } => changed(file, &items),
                other => trouble(url, &other, wait),
            })?;
        let sessions: Vec<String> = records.iter().map(|r| r.session_id.clone()).collect();
        dispatch(&ledger, url, client, Some(&sessions), how).await?;
        let mut finished = Vec::with_capacity(sessions.len());
        for session in &sessions {
            let record = ledger.payout(session).await;
            finished.extend(record.map_err(|e| trouble(url, &e, wait))?);
        }
        print_batch(is_batch, &finished, as_json);
        outcome(&finished)
    }
    .await;
    // Closed: a SQLite ledger is then whole in its main file.
    ledger.close().await;
    ran
}

/// Every element valid before anything is recorded. An element without a
/// sessionId is given one when recorded, so it is checked with a
/// stand-in; a converting one without rateKey is quoted when sent, so it
/// is checked for everything but the quote.
fn check(is_batch: bool, bodies: &[&Value]) -> Result<(), Failure> {
    let verdicts: Vec<_> = bodies
        .iter()
        .map(|body| {
            let mut body = (*body).clone();
            if let Value::Object(fields) = &mut body {
                fields
                    .entry("sessionId")
                    .or_insert_with(|| json!("given-when-recorded"));
            }
            check_payout_json_unquoted(&body)
        })
        .collect();
    if verdicts.iter().all(|v| v.valid) {
        return Ok(());
    }
    let mut failure = Failure::usage("invalid payout; nothing was recorded or sent");
    failure
        .lines
        .extend(crate::payout_file::verdict_lines(is_batch, &verdicts));
    Err(failure)
}

/// The refusal of a file changed since its batch was recorded: which
/// elements differ (the ledger counts from 1, the command's `[index]` from
/// 0, as `--dry-run` prints them).
fn changed(file: &Path, positions: &[usize]) -> Failure {
    let elements: Vec<String> = positions
        .iter()
        .map(|p| format!("[{}]", p.saturating_sub(1)))
        .collect();
    let (noun, verb) = if elements.len() == 1 {
        ("element", "differs")
    } else {
        ("elements", "differ")
    };
    let mut failure = Failure::usage(format!(
        "{} has changed since it was recorded in the ledger: {noun} {} {verb}; nothing was sent",
        file.display(),
        elements.join(", ")
    ));
    failure.lines.push(
        "  put the file back as it was to finish that batch, or save new payouts as a new file"
            .to_owned(),
    );
    failure
}

/// `ledger resume`: what an interrupted run left, finished; with `--wait`,
/// accepted payouts followed until they settle.
pub async fn resume(
    client: impl FnOnce() -> Result<Client, Failure>,
    url: Option<&str>,
    how: How,
    as_json: bool,
) -> Result<(), Failure> {
    let ledger = open(url, false).await?;
    let url = url.unwrap_or_default();
    let ran = async {
        let client = client()?;
        let trouble = |e: LedgerError| trouble(url, &e, how.wait);
        let before = ledger.payouts().await.map_err(trouble)?;
        dispatch(&ledger, url, client, None, how).await?;
        let after = ledger.payouts().await.map_err(trouble)?;
        // What this run moved on: every payout whose state changed.
        let moved: Vec<PayoutRecord> = after
            .into_iter()
            .filter(|record| {
                !before
                    .iter()
                    .any(|b| b.session_id == record.session_id && b.state == record.state)
            })
            .collect();
        if moved.is_empty() && !as_json {
            say!("nothing left to do");
        } else {
            print_batch(false, &moved, as_json);
        }
        outcome(&moved)
    }
    .await;
    // Closed: a SQLite ledger is then whole in its main file.
    ledger.close().await;
    ran
}

/// Exit 0 when every payout went through; 1 naming each refused or
/// failed one.
fn outcome(records: &[PayoutRecord]) -> Result<(), Failure> {
    // Records of one file are named by position alone; from several (a
    // resume), each position follows its file.
    let first = records
        .first()
        .and_then(|r| r.batch.as_ref())
        .map(|(k, _)| k);
    let single_file = records
        .iter()
        .all(|r| r.batch.as_ref().map(|(k, _)| k) == first);
    let bad: Vec<String> = records
        .iter()
        .filter(|r| matches!(r.state, PayoutState::Refused | PayoutState::Failed))
        .map(|r| {
            let file = match &r.batch {
                Some((key, _)) if !single_file => key.clone(),
                _ => String::new(),
            };
            format!(
                "  {file}{} {}: {}",
                named(r),
                r.state,
                r.message.as_deref().unwrap_or("no message")
            )
        })
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    let mut failure = Failure::runtime(format!(
        "{} of {} payouts did not go through",
        bad.len(),
        records.len()
    ));
    failure.lines.extend(bad);
    Err(failure)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_names_each_element_from_zero() {
        let one = changed(Path::new("batch.json"), &[2]);
        assert_eq!(
            one.lines[0],
            "error: batch.json has changed since it was recorded in the ledger: \
             element [1] differs; nothing was sent"
        );
        let two = changed(Path::new("batch.json"), &[1, 4]);
        assert!(two.lines[0].contains("elements [0], [3] differ"));
    }
}
