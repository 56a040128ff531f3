//! What an event claims: completed, partially paid, failed, or unknown.
//!
//! The spec says a falsy status "with a reason in message means failure",
//! and that `paidAmount` below `amount` means a partial payment. A falsy
//! status on a partial payment reads as [`Classification::PartiallyPaid`]:
//! the collection is still open and its message only reports the payment
//! (ASSUMPTIONS.md A26). A status word is taken at its word.

use rust_decimal::Decimal;

use super::event::{EventStatus, WebhookEvent};

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
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Classification {
    /// Fully paid: `status` is `true` or a completed word (`COMPLETED`,
    /// `SUCCESS`, `SUCCESSFUL`, `PAID`, `true`), and nothing is left to pay
    /// (or the event does not say).
    Completed,
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
    /// Anything else: another status word (such as `PENDING`), a falsy
    /// status without a reason, or a claim that contradicts itself (a
    /// completed status with something left to pay).
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

pub(super) fn classify(event: &WebhookEvent) -> Classification {
    let remaining = event.remaining();
    let reason = event
        .message
        .as_deref()
        .map(str::trim)
        .filter(|reason| !reason.is_empty());
    let completed = || match remaining {
        Some(left) if left > Decimal::ZERO => Classification::Unknown,
        _ => Classification::Completed,
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
            if is_one_of(word, COMPLETED) {
                completed()
            } else if word.eq_ignore_ascii_case("false") {
                falsy()
            } else if is_one_of(word, PARTIAL) {
                Classification::PartiallyPaid
            } else if is_one_of(word, FAILED) {
                Classification::Failed {
                    reason: reason.unwrap_or(word).to_owned(),
                }
            } else {
                Classification::Unknown
            }
        }
    }
}
