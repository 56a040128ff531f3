//! Payouts given as the API's own JSON body, from a file or stdin: one
//! object, or an array of them (a batch). Every element is checked with the
//! SDK's `payout_from_json` before anything is sent; a batch with any
//! invalid element sends nothing. This module presents the verdicts and
//! what a batch sent.

use crossborder::{
    json::{check_payout_json_unquoted, payout_from_json, PayoutVerdict},
    types::{PayoutReceipt, PayoutRequest},
    Error,
};
use serde_json::{json, Value};

use crate::batch;
use crate::failure::{self, Failure};

/// The bodies of `json`: the object itself, or each element of an array
/// (then a batch), each checked for everything but the quote (a converting
/// payout without rateKey is quoted when sent through `--ledger`).
pub fn verdicts(bodies: &[&Value]) -> Vec<PayoutVerdict> {
    bodies
        .iter()
        .map(|body| check_payout_json_unquoted(body))
        .collect()
}

/// Every body as a request, or the verdicts when any is invalid.
pub fn requests(bodies: &[&Value]) -> Result<Vec<PayoutRequest>, Vec<PayoutVerdict>> {
    bodies
        .iter()
        .map(|body| payout_from_json(body))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| verdicts(bodies))
}

/// The `--dry-run` verdict, as JSON: `{"valid", "violations"}` for one body,
/// `{"valid", "items": [{"index", "valid", "violations"}]}` for a batch.
pub fn verdict_json(batch: bool, verdicts: &[PayoutVerdict]) -> Value {
    batch::verdicts_json(batch, verdicts, verdicts.iter().all(|v| v.valid))
}

/// The `--dry-run` verdict for people: `valid`, or each violation, with the
/// element's index for a batch.
pub fn verdict_lines(batch: bool, verdicts: &[PayoutVerdict]) -> Vec<String> {
    let mut lines = Vec::new();
    for (index, verdict) in verdicts.iter().enumerate() {
        let prefix = batch::prefix(batch, index);
        if verdict.valid {
            lines.push(format!("{prefix}valid"));
            continue;
        }
        lines.push(format!("{prefix}invalid"));
        lines.extend(
            verdict
                .violations
                .iter()
                .map(|v| format!("{prefix}  {}: {}", v.field, v.message)),
        );
    }
    lines
}

/// What a run sent: the receipt of each element sent, in order.
pub struct Sent<'a> {
    batch: bool,
    requests: &'a [PayoutRequest],
    pub receipts: Vec<PayoutReceipt>,
}

impl<'a> Sent<'a> {
    pub fn new(batch: bool, requests: &'a [PayoutRequest]) -> Sent<'a> {
        Sent {
            batch,
            requests,
            receipts: Vec::new(),
        }
    }

    /// The failure of the element after the last receipt: which element
    /// failed and why, which were sent before it and which were not sent.
    /// Exit code 1 once anything was sent.
    pub fn stopped(&self, error: &Error) -> Failure {
        let index = self.receipts.len();
        let mut failure = Failure::of(error);
        if !self.batch {
            return failure;
        }
        let session = |i: usize| {
            format!(
                "[{i}] {}",
                self.requests.get(i).map_or("", |r| r.session_id.as_str())
            )
        };
        let list = |range: std::ops::Range<usize>| {
            let items: Vec<String> = range.map(session).collect();
            if items.is_empty() {
                "none".to_owned()
            } else {
                items.join(", ")
            }
        };
        failure.lines = vec![
            format!("error: payout {} failed: {error}", session(index)),
            format!("  sent before it: {}", list(0..index)),
            format!("  not sent: {}", list(index + 1..self.requests.len())),
        ];
        if index > 0 {
            failure.code = failure::API;
        }
        failure
    }

    /// Prints the receipts (and, with `--json` for a batch, the outcome of
    /// every element: `sent`, `failed` or `not sent`).
    pub fn print(&self, as_json: bool, failed: Option<&Error>) {
        if as_json && self.batch {
            let outcomes: Vec<Value> = self
                .requests
                .iter()
                .enumerate()
                .map(|(index, request)| self.outcome(index, request, failed))
                .collect();
            say!("{}", crate::render::pretty(&Value::Array(outcomes)));
            return;
        }
        for (index, receipt) in self.receipts.iter().enumerate() {
            let shown = crate::render::receipt(receipt);
            if as_json {
                shown.print(true);
                continue;
            }
            for line in shown.table() {
                say!("{}{line}", batch::prefix(self.batch, index));
            }
        }
    }

    fn outcome(&self, index: usize, request: &PayoutRequest, failed: Option<&Error>) -> Value {
        if let Some(receipt) = self.receipts.get(index) {
            let mut shown = crate::render::receipt(receipt).json;
            shown["index"] = json!(index);
            shown["outcome"] = json!("sent");
            return shown;
        }
        match failed {
            Some(error) if index == self.receipts.len() => json!({
                "index": index, "outcome": "failed",
                "sessionId": request.session_id, "error": error.to_string(),
            }),
            _ => json!({"index": index, "outcome": "not sent", "sessionId": request.session_id}),
        }
    }
}
