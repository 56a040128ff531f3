//! A collection status change as the service POSTs it, read tolerantly.

use std::fmt;

use rust_decimal::Decimal;

use crate::Currency;

/// One collection status change, parsed from the body the service POSTed
/// (ASSUMPTIONS.md A26).
///
/// An event is a hint, not a fact: anyone who can reach the receiver can
/// POST one, and the service never retries a lost one. Act on the
/// transaction of a [`Verdict::Confirmed`](super::Verdict::Confirmed)
/// from [`verify`](super::verify), never on the event alone.
///
/// ```
/// use crossborder::webhook::{Classification, EventStatus, WebhookEvent};
/// use crossborder::Decimal;
///
/// let body = br#"{"paymentReference": "order-1", "payRefrence": "PAY-7KQ2M9XD",
///     "amount": "50000", "paidAmount": 20000.50, "remaining": "29999.50",
///     "currency": "NGN", "status": false, "message": "Partial payment received",
///     "somethingNew": [1, 2]}"#;
/// let event = WebhookEvent::parse(body).unwrap();
/// assert_eq!(event.reference, "order-1");
/// assert_eq!(event.paid_amount, Some(Decimal::new(2000050, 2)));
/// assert_eq!(event.status, EventStatus::Flag(false));
/// assert_eq!(event.classify(), Classification::PartiallyPaid);
/// assert_eq!(event.raw_body(), std::str::from_utf8(body).unwrap());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookEvent {
    /// The caller's `paymentReference` of the collection (wire `reference`,
    /// also read from `paymentReference`). Never empty.
    pub reference: String,
    /// The `payRefrence` memo of the collection (wire `memo`, also read from
    /// `payRefrence`).
    pub memo: Option<String>,
    /// The collection's amount, when sent.
    pub amount: Option<Decimal>,
    /// What has been paid so far (`paidAmount`).
    pub paid_amount: Option<Decimal>,
    /// What is left to pay as sent (`remainingAmount`, also read from
    /// `remaining`); see [`WebhookEvent::remaining`] for the derived value.
    pub remaining_amount: Option<Decimal>,
    /// The currency of the amounts, kept as text when this SDK does not
    /// know it.
    pub currency: Option<EventCurrency>,
    /// The status as sent: a boolean or a string.
    pub status: EventStatus,
    /// The human-readable summary; with a falsy status, the failure reason.
    pub message: Option<String>,
    pub(super) raw: String,
}

// `parse` lives in `parse.rs` and `classify` in `classify.rs`, next to
// what they need: this module is the data alone, so nothing it holds
// imports back from them.
impl WebhookEvent {
    /// The body exactly as received, for an audit log.
    pub fn raw_body(&self) -> &str {
        &self.raw
    }

    /// What is left to pay: `remainingAmount` when sent, else `amount -
    /// paidAmount` when both are sent. Negative on an overpayment, as the
    /// API description defines it (ASSUMPTIONS.md B71); `None` when neither
    /// is known or the subtraction overflows.
    pub fn remaining(&self) -> Option<Decimal> {
        self.remaining_amount.or_else(|| {
            let (amount, paid) = (self.amount?, self.paid_amount?);
            amount.checked_sub(paid)
        })
    }
}

/// The `status` of an event as sent: the spec allows a boolean or a string.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EventStatus {
    /// `true` (completed) or `false` (not completed).
    Flag(bool),
    /// A status word such as `COMPLETED`, kept as sent.
    Text(String),
}

impl fmt::Display for EventStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventStatus::Flag(flag) => write!(f, "{flag}"),
            EventStatus::Text(text) => f.write_str(text),
        }
    }
}

/// The currency of an event: a code this SDK knows, or the text as sent, so
/// that one new code never makes a whole event unreadable.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EventCurrency {
    /// One of the supported codes.
    Known(Currency),
    /// Any other code, as sent.
    Unknown(String),
}

impl EventCurrency {
    /// The code as text.
    pub fn as_str(&self) -> &str {
        match self {
            EventCurrency::Known(currency) => currency.as_str(),
            EventCurrency::Unknown(text) => text,
        }
    }
}

impl From<&str> for EventCurrency {
    fn from(code: &str) -> Self {
        match code.parse() {
            Ok(currency) => EventCurrency::Known(currency),
            Err(_) => EventCurrency::Unknown(code.to_owned()),
        }
    }
}
