//! Confirming an event against the source of truth,
//! `GET /api/transaction/{paymentReference}`.

use rust_decimal::Decimal;

use crate::resources::get_transaction;
use crate::types::{Transaction, TransactionStatus, TransactionType};
use crate::{Client, Error};

use super::classify::Classification;
use super::event::{EventStatus, WebhookEvent};
use super::verdict::{Confirmed, Superseded, Unconfirmed, Verdict};
use super::words::{StatusMeaning, StatusWords};

/// Re-reads the event's collection with `GET /api/transaction/{reference}`
/// (the spec's source of truth), once, and says what to do with the event
/// ([`Verdict`]).
///
/// The event is unsigned (ASSUMPTIONS.md A27), so this is what stops a
/// forged event from marking an order paid: act on the transaction of a
/// [`Verdict::Confirmed`], never on the event.
///
/// The transaction's state is its status as ASSUMPTIONS.md A1 words it
/// (`PENDING` and `PROCESSING` open, `PARTIALLY_PAID`, `COMPLETED`,
/// `EXPIRED` or `FAILED` failed). A word outside A1 is read through the
/// caller's [`StatusWords`] ([`verify_with`]), else from the amounts
/// (ASSUMPTIONS.md B70): paid in full is completed, paid in part is
/// partially paid, and anything else cannot confirm a claim
/// ([`Unconfirmed::UnknownStatus`], carrying the transaction). Then:
///
/// * **Confirmed** when the state is the one the event claims (completed ↔
///   completed, partially paid ↔ partially paid, failed ↔ failed, an
///   unknown claim when its word is the transaction's status, in any case)
///   and the event's `paidAmount`, when sent, is the transaction's. A
///   terminal change stays confirmed when more was paid since (an
///   overpayment of a completed collection posts no event of its own).
/// * **Superseded** when the collection has moved on since the event
///   (ASSUMPTIONS.md B72): it has reached a later status (a
///   partial-payment event, and the collection is completed or expired),
///   or more has been paid than the event says.
/// * **Unconfirmed** otherwise: an unknown reference, a payout's reference,
///   a status the collection never had before its current one, a
///   `paidAmount` above the service's, an unknown status word the amounts
///   cannot confirm, or a failed read.
///
/// ```no_run
/// use crossborder::webhook::{self, Verdict, WebhookEvent};
/// use crossborder::Client;
///
/// # async fn run(client: Client, body: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
/// let event = WebhookEvent::parse(body)?;
/// match webhook::verify(&client, &event).await {
///     Verdict::Confirmed(confirmed) => {
///         let now = &confirmed.transaction;
///         println!("order {}: {}", now.payment_reference, now.status);
///     }
///     Verdict::Superseded(_) => {} // a later change supersedes it
///     Verdict::Unconfirmed(why) => eprintln!("not acted on: {why}"),
/// }
/// # Ok(()) }
/// ```
pub async fn verify(client: &Client, event: &WebhookEvent) -> Verdict {
    verify_with(client, event, &StatusWords::default()).await
}

/// [`verify`], reading status words through the caller's `words` first.
pub async fn verify_with(client: &Client, event: &WebhookEvent, words: &StatusWords) -> Verdict {
    match get_transaction(client, &event.reference).await {
        Ok(transaction) => judge(event, transaction, words),
        // Only the API's own 404 denies the reference; a 404 page from
        // anything else in the way (a wrong base URL) must not make every
        // event look forged.
        Err(Error::Api { status: 404, .. }) => {
            Verdict::Unconfirmed(Unconfirmed::UnknownReference {
                reference: event.reference.clone(),
            })
        }
        Err(error) => Verdict::Unconfirmed(Unconfirmed::Request(error)),
    }
}

/// The state of a collection, as far as an event can claim it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Open,
    PartiallyPaid,
    Completed,
    Failed,
    /// A status word nobody knows, with amounts that say nothing.
    Unknown,
}

impl State {
    /// Later states have a higher rank; a collection never goes back.
    fn rank(self) -> Option<u8> {
        match self {
            State::Open => Some(0),
            State::PartiallyPaid => Some(1),
            State::Completed | State::Failed => Some(2),
            State::Unknown => None,
        }
    }
}

/// What has been paid, as the service says.
fn paid(transaction: &Transaction) -> Option<Decimal> {
    transaction.paid_amount
}

fn state_of(transaction: &Transaction, words: &StatusWords) -> State {
    let word = match &transaction.status {
        TransactionStatus::Pending | TransactionStatus::Processing => return State::Open,
        TransactionStatus::PartiallyPaid => return State::PartiallyPaid,
        TransactionStatus::Completed => return State::Completed,
        TransactionStatus::Expired | TransactionStatus::Failed => return State::Failed,
        TransactionStatus::Unknown(word) => word,
    };
    match words.meaning(word) {
        Some(StatusMeaning::Completed) => return State::Completed,
        Some(StatusMeaning::PartiallyPaid) => return State::PartiallyPaid,
        Some(StatusMeaning::Failed) => return State::Failed,
        None => {}
    }
    // The word says nothing: the amounts speak for it, as far as they can.
    // Nothing paid could be open, lapsed or failed, so it stays unknown.
    match paid(transaction) {
        Some(paid) if paid > Decimal::ZERO && paid >= transaction.amount => State::Completed,
        Some(paid) if paid > Decimal::ZERO => State::PartiallyPaid,
        _ => State::Unknown,
    }
}

/// Whether `transaction` is in a final state: `COMPLETED`, `EXPIRED` or
/// `FAILED`, a word `words` maps to completed or failed, or a word nobody
/// knows with the amount paid in full (ASSUMPTIONS.md B70).
pub(super) fn is_final(transaction: &Transaction, words: &StatusWords) -> bool {
    matches!(
        state_of(transaction, words),
        State::Completed | State::Failed
    )
}

fn claimed_state(claim: &Classification) -> Option<State> {
    match claim {
        Classification::Completed { .. } => Some(State::Completed),
        Classification::PartiallyPaid => Some(State::PartiallyPaid),
        Classification::Failed { .. } => Some(State::Failed),
        Classification::Unknown => None,
    }
}

/// Decides what `event` is worth given `transaction`, as read.
fn judge(event: &WebhookEvent, transaction: Transaction, words: &StatusWords) -> Verdict {
    if matches!(transaction.kind, Some(TransactionType::Payout)) {
        return Verdict::Unconfirmed(Unconfirmed::NotACollection {
            transaction: Box::new(transaction),
        });
    }
    let claim = event.classify_with(words);
    let state = state_of(&transaction, words);
    let (event_paid, paid_now) = (event.paid_amount, paid(&transaction));
    let paid_since = matches!((event_paid, paid_now), (Some(then), Some(now)) if then < now);
    let same_word = match (&event.status, &transaction.status) {
        (EventStatus::Text(sent), status) => {
            let sent = sent.trim();
            !sent.is_empty() && sent.eq_ignore_ascii_case(status.as_str().trim())
        }
        (EventStatus::Flag(_), _) => false,
    };
    let claimed = claimed_state(&claim);
    let matches = same_word || (claimed.is_some() && claimed == Some(state));
    // Moved on: the event's state (or, for a word nobody knows, its paid
    // amount) is behind the service's. A terminal claim never is.
    let behind = !matches!(claimed, Some(State::Completed | State::Failed))
        && match (claimed.and_then(State::rank), state.rank()) {
            (Some(then), Some(now)) => then < now || (then == now && paid_since),
            _ => paid_since && state != State::Unknown,
        };
    if !matches && !behind {
        let transaction = Box::new(transaction);
        return Verdict::Unconfirmed(if state == State::Unknown {
            Unconfirmed::UnknownStatus { claim, transaction }
        } else {
            Unconfirmed::StatusMismatch {
                event_status: event.status.clone(),
                claim,
                transaction,
            }
        });
    }
    // `paidAmount` only grows: more than the service has is never true.
    if let (Some(event_paid), Some(now)) = (event_paid, paid_now) {
        if event_paid > now {
            return Verdict::Unconfirmed(Unconfirmed::PaidAmountMismatch {
                event_paid,
                transaction: Box::new(transaction),
            });
        }
    }
    if matches && (state.rank() == Some(2) || !paid_since) {
        let change = match claim {
            Classification::Completed { .. } => Classification::Completed {
                overpaid: overpaid(&transaction),
            },
            other => other,
        };
        return Verdict::Confirmed(Confirmed {
            transaction,
            change,
        });
    }
    Verdict::Superseded(Superseded { claim, transaction })
}

/// `paidAmount - amount` when positive.
fn overpaid(transaction: &Transaction) -> Option<Decimal> {
    let over = paid(transaction)?.checked_sub(transaction.amount)?;
    (over > Decimal::ZERO).then_some(over)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transaction(status: TransactionStatus, paid: Option<&str>) -> Transaction {
        crate::webhook::test_collection("o-1", status, paid)
    }

    fn event(body: &str) -> WebhookEvent {
        WebhookEvent::parse(body).unwrap()
    }

    /// The kind of verdict, by name, for a table.
    fn kind(verdict: &Verdict) -> &'static str {
        match verdict {
            Verdict::Confirmed(_) => "confirmed",
            Verdict::Superseded(_) => "superseded",
            Verdict::Unconfirmed(Unconfirmed::StatusMismatch { .. }) => "status mismatch",
            Verdict::Unconfirmed(Unconfirmed::PaidAmountMismatch { .. }) => "paid mismatch",
            Verdict::Unconfirmed(Unconfirmed::UnknownStatus { .. }) => "unknown status",
            Verdict::Unconfirmed(other) => panic!("{other:?}"),
        }
    }

    /// Each claim against each state: what the docs of [`verify`] promise,
    /// including the statuses the sandbox never gives a collection.
    #[test]
    fn each_claim_against_each_state() {
        use TransactionStatus::*;
        let completed = r#"{"reference": "o-1", "status": true, "paidAmount": 50000}"#;
        let partial = r#"{"reference": "o-1", "status": false, "amount": 50000, "paidAmount": 20000, "message": "Partial"}"#;
        let failed = r#"{"reference": "o-1", "status": "EXPIRED", "paidAmount": 20000}"#;
        let pending = r#"{"reference": "o-1", "status": " pending "}"#;
        let cases = [
            (completed, Completed, Some("50000"), "confirmed"),
            (completed, Completed, Some("65000"), "confirmed"),
            (completed, PartiallyPaid, Some("20000"), "status mismatch"),
            (completed, Pending, Some("0"), "status mismatch"),
            (partial, Completed, Some("15000"), "paid mismatch"),
            (completed, Pending, None, "status mismatch"),
            (completed, Expired, Some("50000"), "status mismatch"),
            (partial, PartiallyPaid, Some("20000"), "confirmed"),
            (partial, PartiallyPaid, Some("35000"), "superseded"),
            (partial, Completed, Some("50000"), "superseded"),
            (partial, Expired, Some("20000"), "superseded"),
            (partial, Failed, Some("20000"), "superseded"),
            (partial, Pending, Some("20000"), "status mismatch"),
            (partial, PartiallyPaid, Some("15000"), "paid mismatch"),
            (failed, Expired, Some("20000"), "confirmed"),
            (failed, Failed, Some("30000"), "confirmed"),
            (failed, Completed, Some("50000"), "status mismatch"),
            (failed, PartiallyPaid, Some("20000"), "status mismatch"),
            (pending, Pending, None, "confirmed"),
            (pending, PartiallyPaid, Some("5000"), "status mismatch"),
            (
                pending,
                Unknown("ON_HOLD".into()),
                Some("0"),
                "unknown status",
            ),
        ];
        for (body, status, paid, expected) in cases {
            let verdict = judge(
                &event(body),
                transaction(status.clone(), paid),
                &StatusWords::default(),
            );
            assert_eq!(kind(&verdict), expected, "{body} vs {status} {paid:?}");
        }
        // An unknown claim is confirmed by the same word.
        let on_hold = judge(
            &event(r#"{"reference": "o-1", "status": "on_hold"}"#),
            transaction(Unknown("ON_HOLD".into()), Some("0")),
            &StatusWords::default(),
        );
        assert_eq!(kind(&on_hold), "confirmed");
    }

    /// `examples/webhook-cases.json`, which the TypeScript and Python
    /// examples' webhook modules are tested on, holds this SDK's verdicts.
    #[test]
    fn the_examples_webhook_cases_are_this_sdks_verdicts() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/webhook-cases.json"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let table: serde_json::Value = serde_json::from_str(&text).unwrap();
        let cases = table["cases"].as_array().unwrap();
        assert!(cases.len() >= 20, "{}", cases.len());
        for case in cases {
            let body = case["event"].as_str().unwrap();
            let status: TransactionStatus = case["status"].as_str().unwrap().parse().unwrap();
            let verdict = judge(
                &event(body),
                transaction(status, case["paidAmount"].as_str()),
                &StatusWords::default(),
            );
            assert_eq!(kind(&verdict), case["verdict"], "{case}");
        }
    }
}
