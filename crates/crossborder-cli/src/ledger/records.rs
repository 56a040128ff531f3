//! What the ledger holds, as a person or a program reads it: `ledger list`,
//! `ledger show`, `ledger backup`, and the rows a run prints at its end.

use std::path::Path;

use crossborder_ledger::{LedgerError, PayoutEvent, PayoutRecord};
use serde_json::{json, Value};

use super::{instant, open, trouble};
use crate::batch;
use crate::failure::Failure;
use crate::render::{self, Output};

/// A payout as a person finds it: `[index] sessionId` (its position in
/// its file, from 0, as the command's other lines count), or the session
/// id alone when it came in no batch.
pub(super) fn named(record: &PayoutRecord) -> String {
    match &record.batch {
        Some((_, position)) => format!("[{}] {}", position.saturating_sub(1), record.session_id),
        None => record.session_id.clone(),
    }
}

/// One payout as `ledger list --json` prints it: every amount an exact
/// decimal string.
fn record_json(record: &PayoutRecord) -> Value {
    json!({
        "sessionId": record.session_id,
        "state": record.state.to_string(),
        "amount": record.amount.to_string(),
        "fromCurrency": record.from_currency.as_str(),
        "toCurrency": record.to_currency.as_str(),
        "transactionId": record.transaction_id,
        "message": record.message,
        "reason": record.reason,
        "updatedAt": instant(record.updated_at),
    })
}

/// One payout as a table row: `sessionId  state  amount FROM -> TO`.
fn record_line(record: &PayoutRecord, width: usize) -> String {
    let mut line = format!(
        "{:<width$}  {:<9}  {} {} -> {}",
        record.session_id, record.state, record.amount, record.from_currency, record.to_currency
    );
    if let Some(message) = &record.message {
        line.push_str(&format!("  ({message})"));
    }
    line
}

pub(super) fn print_batch(is_batch: bool, records: &[PayoutRecord], as_json: bool) {
    if as_json {
        let items: Vec<Value> = records
            .iter()
            .enumerate()
            .map(|(index, record)| {
                let mut item = record_json(record);
                if is_batch {
                    item["index"] = json!(index);
                }
                item
            })
            .collect();
        say!("{}", render::pretty(&Value::Array(items)));
        return;
    }
    let width = records
        .iter()
        .map(|r| r.session_id.len())
        .max()
        .unwrap_or(0);
    for (index, record) in records.iter().enumerate() {
        say!(
            "{}{}",
            batch::prefix(is_batch, index),
            record_line(record, width)
        );
    }
}

/// `ledger list`.
pub async fn list(url: Option<&str>, as_json: bool) -> Result<(), Failure> {
    let ledger = open(url, false).await?;
    let records = ledger.payouts().await;
    // Closed: a SQLite ledger is then whole in its main file.
    ledger.close().await;
    let records = records.map_err(|e| trouble(url.unwrap_or_default(), &e, false))?;
    if as_json {
        let items: Vec<Value> = records.iter().map(record_json).collect();
        say!("{}", render::pretty(&Value::Array(items)));
        return Ok(());
    }
    let width = records
        .iter()
        .map(|r| r.session_id.len())
        .max()
        .unwrap_or(0);
    for record in &records {
        say!("{}", record_line(record, width));
    }
    Ok(())
}

/// `ledger show SESSION_ID`: the payout, then each change of its state.
pub async fn show(url: Option<&str>, session_id: &str, as_json: bool) -> Result<(), Failure> {
    let ledger = open(url, false).await?;
    let trouble = |e: LedgerError| trouble(url.unwrap_or_default(), &e, false);
    let record = ledger
        .payout(session_id)
        .await
        .map_err(trouble)?
        .ok_or_else(|| Failure::runtime(format!("the ledger has no payout {session_id}")))?;
    let history = ledger.history(session_id).await.map_err(trouble)?;
    let mut rows = vec![
        ("sessionId".to_owned(), record.session_id.clone()),
        ("state".to_owned(), record.state.to_string()),
        (
            "amount".to_owned(),
            format!(
                "{} {} -> {}",
                record.amount, record.from_currency, record.to_currency
            ),
        ),
    ];
    if let Some(id) = &record.transaction_id {
        rows.push(("transaction".to_owned(), id.clone()));
    }
    if let Some(message) = &record.message {
        rows.push(("message".to_owned(), message.clone()));
    }
    if let Some(reason) = &record.reason {
        rows.push(("reason".to_owned(), reason.code().to_owned()));
    }
    // Each quote the ledger sent it with, oldest first.
    for event in &history {
        if let Some(quote) = event.quote.as_ref().filter(|q| q.used) {
            rows.push((
                "quote".to_owned(),
                format!(
                    "rate {} (rateKey {}, totalAmount {} {}, valid until {})",
                    quote.rate,
                    quote.rate_key,
                    quote
                        .total_amount
                        .map_or_else(|| "not given".to_owned(), |a| a.to_string()),
                    record.from_currency,
                    instant(quote.valid_until)
                ),
            ));
        }
    }
    let events: Vec<Value> = history.iter().map(event_json).collect();
    let output = Output {
        rows,
        json: json!({"payout": record_json(&record), "history": events}),
    };
    output.print(as_json);
    if !as_json {
        // The history below the table: a time is wider than any label.
        say!("history");
        for event in &history {
            say!("  {}", event_line(event));
        }
    }
    Ok(())
}

/// `<time>  <from> -> <to>  (<detail>)`.
fn event_line(event: &PayoutEvent) -> String {
    let change = match event.from {
        Some(from) => format!("{from} -> {}", event.to),
        None => event.to.to_string(),
    };
    let detail = event
        .detail
        .as_deref()
        .map_or(String::new(), |d| format!("  ({d})"));
    format!("{}  {change}{detail}", instant(event.at))
}

fn event_json(event: &PayoutEvent) -> Value {
    json!({
        "at": instant(event.at),
        "from": event.from.map(|s| s.to_string()),
        "to": event.to.to_string(),
        "detail": event.detail,
        "quote": event.quote,
    })
}

/// `ledger backup DESTINATION`: a consistent copy of a SQLite ledger in a
/// new file, safe while a run goes on.
pub async fn backup(url: Option<&str>, destination: &Path) -> Result<(), Failure> {
    let ledger = open(url, false).await?;
    let saved = ledger.backup(destination).await;
    // Closed: a SQLite ledger is then whole in its main file.
    ledger.close().await;
    match saved {
        Ok(()) => {
            say!("{}", destination.display());
            Ok(())
        }
        Err(LedgerError::Unsupported(message)) => Err(Failure::usage(message)),
        Err(error @ LedgerError::Io { .. }) => Err(Failure::usage(error.to_string())),
        Err(error) => Err(trouble(url.unwrap_or_default(), &error, false)),
    }
}
