//! What an event claims: completed, partially paid, failed, or unknown.
//!
//! The spec says a falsy status "with a reason in message means failure",
//! and that `paidAmount` below `amount` means a partial payment. A falsy
//! status on a partial payment reads as [`Classification::PartiallyPaid`]:
//! the collection is still open and its message only reports the payment
//! (ASSUMPTIONS.md A26). A status word is taken at its word. A negative
//! remainder on a completed claim is an overpayment (ASSUMPTIONS.md B71).

use rust_decimal::Decimal;

use super::event::{EventStatus, WebhookEvent};
use super::words::{StatusMeaning, StatusWords};

/// What an event claims happened to its collection. It is a claim: confirm
/// it with [`verify`](super::verify) before acting.
///
/// ```
/// use crossborder::webhook::{Classification, WebhookEvent};
///
/// let failed = WebhookEvent::parse(
///     r#"{"reference": "o-1", "status": false, "paidAmount": 0, "message": "Payment reversed"}"#,
/// ).unwrap();
/// assert_eq!(failed.classify(), Classification::Failed { reason: "Payment reversed".into() });
///
/// let overpaid = WebhookEvent::parse(
///     r#"{"reference": "o-2", "status": true, "amount": 100, "paidAmount": 120, "remainingAmount": -20}"#,
/// ).unwrap();
/// assert_eq!(
///     overpaid.classify(),
///     Classification::Completed { overpaid: Some(crossborder::Decimal::new(20, 0)) },
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Classification {
    /// Fully paid: `status` is `true` or a completed word (`COMPLETED`,
    /// `SUCCESS`, `SUCCESSFUL`, `PAID`, `true`), and nothing is left to pay
    /// (or the event does not say).
    Completed {
        /// How much more than the amount was paid, when the remainder is
        /// negative (`remainingAmount`, else `amount - paidAmount`); `None`
        /// when nothing was overpaid or the event does not say.
        overpaid: Option<Decimal>,
    },
    /// Part of the amount is paid and the collection is still open: the
    /// status word `PARTIALLY_PAID` (or `PARTIAL`), or a falsy status while
    /// something is paid and something is left.
    PartiallyPaid,
    /// The collection failed or lapsed: a failure word (`FAILED`,
    /// `EXPIRED`, `CANCELLED`, `CANCELED`, `REJECTED`, `REVERSED`), or a
    /// falsy status with a reason in `message` and no partial payment.
    Failed {
        /// The event's `message`, else the status word.
        reason: String,
    },
    /// Anything else: another status word (such as `PENDING`) without a
    /// payment its amounts show, a falsy status without a reason, or a
    /// claim that contradicts itself (a completed status with something
    /// left to pay).
    ///
    /// A status word that is in none of the lists above (nor in the
    /// caller's [`StatusWords`]) is read from the amounts the event sends
    /// (ASSUMPTIONS.md B70): something paid and nothing left is
    /// completed, something paid and something left is partially paid.
    Unknown,
}

const COMPLETED: &[&str] = &["COMPLETED", "SUCCESS", "SUCCESSFUL", "PAID", "TRUE"];
const PARTIAL: &[&str] = &["PARTIALLY_PAID", "PARTIAL"];
const FAILED: &[&str] = &[
    "FAILED",
    "EXPIRED",
    "CANCELLED",
    "CANCELED",
    "REJECTED",
    "REVERSED",
];

fn is_one_of(word: &str, words: &[&str]) -> bool {
    words.iter().any(|known| known.eq_ignore_ascii_case(word))
}

impl WebhookEvent {
    /// What the event claims happened: see [`Classification`].
    pub fn classify(&self) -> Classification {
        classify(self, &StatusWords::default())
    }

    /// [`classify`](WebhookEvent::classify), reading the caller's `words`
    /// before the SDK's own.
    pub fn classify_with(&self, words: &StatusWords) -> Classification {
        classify(self, words)
    }
}

fn classify(event: &WebhookEvent, words: &StatusWords) -> Classification {
    let remaining = event.remaining();
    let reason = event
        .message
        .as_deref()
        .map(str::trim)
        .filter(|reason| !reason.is_empty());
    let completed = || match remaining {
        Some(left) if left > Decimal::ZERO => Classification::Unknown,
        Some(left) if left < Decimal::ZERO => Classification::Completed {
            overpaid: Some(-left),
        },
        _ => Classification::Completed { overpaid: None },
    };
    let falsy = || {
        let paid = event.paid_amount.is_some_and(|paid| paid > Decimal::ZERO);
        let left = remaining.is_some_and(|left| left > Decimal::ZERO);
        if paid && left {
            Classification::PartiallyPaid
        } else if let Some(reason) = reason {
            Classification::Failed {
                reason: reason.to_owned(),
            }
        } else {
            Classification::Unknown
        }
    };
    match &event.status {
        EventStatus::Flag(true) => completed(),
        EventStatus::Flag(false) => falsy(),
        EventStatus::Text(text) => {
            let word = text.trim();
            let failed = || Classification::Failed {
                reason: reason.unwrap_or(word).to_owned(),
            };
            match words.meaning(word) {
                Some(StatusMeaning::Completed) => return completed(),
                Some(StatusMeaning::PartiallyPaid) => return Classification::PartiallyPaid,
                Some(StatusMeaning::Failed) => return failed(),
                None => {}
            }
            if is_one_of(word, COMPLETED) {
                completed()
            } else if word.eq_ignore_ascii_case("false") {
                falsy()
            } else if is_one_of(word, PARTIAL) {
                Classification::PartiallyPaid
            } else if is_one_of(word, FAILED) {
                failed()
            } else {
                by_amounts(event.paid_amount, remaining)
            }
        }
    }
}

/// The claim of a status word nobody knows, read from the amounts the event
/// sends (ASSUMPTIONS.md B70): something paid and nothing left is
/// completed (overpaid when the remainder is negative), something paid and
/// something left is partially paid; anything else says nothing.
fn by_amounts(paid: Option<Decimal>, remaining: Option<Decimal>) -> Classification {
    match (paid, remaining) {
        (Some(paid), Some(left)) if paid > Decimal::ZERO => {
            if left > Decimal::ZERO {
                Classification::PartiallyPaid
            } else if left < Decimal::ZERO {
                Classification::Completed {
                    overpaid: Some(-left),
                }
            } else {
                Classification::Completed { overpaid: None }
            }
        }
        _ => Classification::Unknown,
    }
}
