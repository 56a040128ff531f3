//! What the source of truth says about an event, as the three things a
//! handler can do with it: act, ignore, or refuse.

use rust_decimal::Decimal;

use crate::types::Transaction;
use crate::Error;

use super::classify::Classification;
use super::event::EventStatus;

/// What [`verify`](super::verify) found, and so what to do with the event.
/// A `Receiver` hands it over as `Delivery::verdict`.
///
/// | variant | meaning | what to do |
/// |---|---|---|
/// | [`Confirmed`](Verdict::Confirmed) | the service's transaction confirms the change the event announced | act on [`Confirmed::transaction`] (never on the event) |
/// | [`Superseded`](Verdict::Superseded) | true once, but the collection has moved on since (more was paid, or it reached a later status) | ignore it: the newer state is announced by its own event, or found by a [`Reconciler`](super::Reconciler) |
/// | [`Unconfirmed`](Verdict::Unconfirmed) | forged, or not confirmable now (see [`Unconfirmed`]) | do not act; log it |
///
/// ```
/// use crossborder::webhook::{Classification, Verdict};
///
/// fn handle(verdict: Verdict) {
///     match verdict {
///         Verdict::Confirmed(confirmed) => match confirmed.change {
///             Classification::Completed { overpaid } => {
///                 println!("order {} is paid", confirmed.transaction.payment_reference);
///                 if let Some(extra) = overpaid {
///                     println!("  and overpaid by {extra}");
///                 }
///             }
///             other => println!("order {}: {other:?}", confirmed.transaction.payment_reference),
///         },
///         Verdict::Superseded(_) => {} // a later change supersedes it
///         Verdict::Unconfirmed(why) => eprintln!("not acted on: {why}"),
///     }
/// }
/// ```
#[derive(Debug)]
#[must_use = "a verdict says whether to act on the event"]
pub enum Verdict {
    /// Act on it: the transaction read back confirms the change.
    Confirmed(Confirmed),
    /// Ignore it: a later change of the collection supersedes the event.
    Superseded(Superseded),
    /// Do not act on it: the event is forged, or cannot be confirmed now.
    Unconfirmed(Unconfirmed),
}

impl Verdict {
    /// The transaction as the service has it now, whenever it was read
    /// (every verdict but an unknown reference or a failed read).
    pub fn transaction(&self) -> Option<&Transaction> {
        match self {
            Verdict::Confirmed(confirmed) => Some(&confirmed.transaction),
            Verdict::Superseded(superseded) => Some(&superseded.transaction),
            Verdict::Unconfirmed(unconfirmed) => unconfirmed.transaction(),
        }
    }

    /// The confirmed change, if the event was confirmed.
    pub fn confirmed(&self) -> Option<&Confirmed> {
        match self {
            Verdict::Confirmed(confirmed) => Some(confirmed),
            Verdict::Superseded(_) | Verdict::Unconfirmed(_) => None,
        }
    }
}

/// A change the service confirms: the one thing a handler acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirmed {
    /// The transaction as the service has it now: the truth to act on. Its
    /// `paidAmount` may be above the event's when a terminal change was
    /// paid again since (an overpayment after completion posts no event of
    /// its own).
    pub transaction: Transaction,
    /// What changed, as the transaction confirms it: for a completion, its
    /// `overpaid` is taken from the transaction (`paidAmount - amount`,
    /// when positive), not from the event.
    pub change: Classification,
}

impl Confirmed {
    /// How much more than the amount the transaction has been paid, for a
    /// confirmed completion; `None` otherwise.
    pub fn overpaid(&self) -> Option<Decimal> {
        match self.change {
            Classification::Completed { overpaid } => overpaid,
            _ => None,
        }
    }
}

/// An event the service's state has moved past: what it claims was true
/// of an earlier state (or is a forgery of one), and acting on it would go
/// back in time. A partial-payment event that arrives after the next
/// funding completed the collection is the usual case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Superseded {
    /// What the event claimed.
    pub claim: Classification,
    /// The transaction as the service has it now, for information; its own
    /// change reaches the handler by its own event (or a
    /// [`Reconciler`](super::Reconciler)).
    pub transaction: Transaction,
}

/// Why the service does not confirm an event: forged, meant for another
/// account, or not confirmable now. Never act on such an event; every
/// variant but [`Unconfirmed::UnknownReference`] and
/// [`Unconfirmed::Request`] carries the transaction as it was read
/// ([`Unconfirmed::transaction`]), for the log.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Unconfirmed {
    /// The service knows no transaction with the event's reference (HTTP
    /// 404 with the API's error body): the event is forged, or meant for
    /// another account. A 404 whose body is not the API's (a proxy's page
    /// for a wrong base URL) says nothing about the reference: it is
    /// [`Unconfirmed::Request`].
    #[error("no transaction has the event's reference {reference}")]
    UnknownReference {
        /// The event's reference.
        reference: String,
    },
    /// The reference is a payout's, not a collection's; webhooks announce
    /// collections only.
    #[error("transaction {} is not a collection", transaction.payment_reference)]
    NotACollection {
        /// The transaction read.
        transaction: Box<Transaction>,
    },
    /// The event claims a status the transaction does not have, and has
    /// not had before its current one: a forgery, or an event ahead of the
    /// service.
    #[error(
        "the event says {event_status} but transaction {} is {}",
        transaction.payment_reference,
        transaction.status
    )]
    StatusMismatch {
        /// The event's status as sent.
        event_status: EventStatus,
        /// What the event claims.
        claim: Classification,
        /// The transaction read.
        transaction: Box<Transaction>,
    },
    /// The event says more was paid than the transaction has: never true of
    /// a genuine event, since `paidAmount` only grows.
    #[error(
        "the event says {event_paid} paid but transaction {} has {}",
        transaction.payment_reference,
        transaction.paid_amount.map_or_else(|| "no paid amount".to_owned(), |paid| format!("{paid} paid"))
    )]
    PaidAmountMismatch {
        /// The event's `paidAmount`.
        event_paid: Decimal,
        /// The transaction read.
        transaction: Box<Transaction>,
    },
    /// The transaction's status is a word this SDK does not know and the
    /// caller's [`StatusWords`](super::StatusWords) do not map, and its
    /// amounts cannot confirm the claim (nothing paid yet, or a failure,
    /// which amounts cannot show). Map the word once you know it
    /// (ASSUMPTIONS.md B70).
    #[error(
        "transaction {} has the status {:?}, which this SDK does not know, and its amounts do not confirm the event",
        transaction.payment_reference,
        transaction.status.as_str()
    )]
    UnknownStatus {
        /// What the event claims.
        claim: Classification,
        /// The transaction read.
        transaction: Box<Transaction>,
    },
    /// The transaction could not be read (transport, authentication, an
    /// undecodable answer): nothing is confirmed either way. A
    /// [`Reconciler`](super::Reconciler) reads it again later.
    #[error("could not read the transaction: {0}")]
    Request(#[source] Error),
}

impl Unconfirmed {
    /// The transaction as the service has it now, when it was read.
    pub fn transaction(&self) -> Option<&Transaction> {
        match self {
            Unconfirmed::NotACollection { transaction }
            | Unconfirmed::StatusMismatch { transaction, .. }
            | Unconfirmed::PaidAmountMismatch { transaction, .. }
            | Unconfirmed::UnknownStatus { transaction, .. } => Some(transaction),
            Unconfirmed::UnknownReference { .. } | Unconfirmed::Request(_) => None,
        }
    }
}
