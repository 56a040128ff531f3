//! Confirming an event against the source of truth,
//! `GET /api/transaction/{paymentReference}`.

use rust_decimal::Decimal;

use crate::resources::get_transaction;
use crate::{Client, Error, Transaction, TransactionStatus, TransactionType};

use super::classify::Classification;
use super::event::{EventStatus, WebhookEvent};

/// Why the service does not confirm an event. Every variant but
/// [`VerifyError::UnknownReference`] and [`VerifyError::Request`] carries
/// the transaction as the service has it now ([`VerifyError::transaction`]),
/// which is the truth to act on: a mismatch may be a forgery, or an event
/// overtaken by a later change.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The service knows no transaction with the event's reference (HTTP
    /// 404 with the API's error body): the event is forged, or meant for
    /// another account. A 404 whose body is not the API's (a proxy's page
    /// for a wrong base URL) says nothing about the reference: it is
    /// [`VerifyError::Request`].
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
    /// The event's status is not the transaction's.
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
    /// The event's `paidAmount` is not the transaction's.
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
    /// The transaction could not be read (transport, authentication, an
    /// undecodable answer): nothing is confirmed either way.
    #[error("could not read the transaction: {0}")]
    Request(#[source] Error),
}

impl VerifyError {
    /// The transaction as the service has it now, when it was read.
    pub fn transaction(&self) -> Option<&Transaction> {
        match self {
            VerifyError::NotACollection { transaction }
            | VerifyError::StatusMismatch { transaction, .. }
            | VerifyError::PaidAmountMismatch { transaction, .. } => Some(transaction),
            VerifyError::UnknownReference { .. } | VerifyError::Request(_) => None,
        }
    }
}

/// Re-reads the event's collection with `GET /api/transaction/{reference}`
/// (the spec's source of truth) and returns it when it confirms the event:
/// it is a collection, its status is the one the event claims, and its
/// `paidAmount` is the event's (when the event sends one and the service
/// returns one; compared as numbers). Otherwise a [`VerifyError`] says
/// what differs.
///
/// The event is unsigned (ASSUMPTIONS.md A27), so this is what stops a
/// forged event from marking an order paid: act on the returned
/// transaction, never on the event.
///
/// A claim matches a status as follows: completed ↔ `COMPLETED`,
/// partially paid ↔ `PARTIALLY_PAID`, failed ↔ `FAILED` or `EXPIRED`, and
/// an unknown claim only when its status word is the transaction's status,
/// in any case (`PENDING` or `pending` ↔ `PENDING`).
///
/// ```no_run
/// use crossborder::webhook::{self, VerifyError, WebhookEvent};
/// use crossborder::{Client, types::TransactionStatus};
///
/// # async fn run(client: Client, body: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
/// let event = WebhookEvent::parse(body)?;
/// match webhook::verify(&client, &event).await {
///     Ok(transaction) if transaction.status == TransactionStatus::Completed => {
///         println!("order {} is paid", transaction.payment_reference);
///     }
///     Ok(transaction) => println!("order {}: {}", transaction.payment_reference, transaction.status),
///     Err(VerifyError::UnknownReference { reference }) => eprintln!("forged event for {reference}"),
///     Err(error) => eprintln!("not confirmed: {error}"),
/// }
/// # Ok(()) }
/// ```
pub async fn verify(client: &Client, event: &WebhookEvent) -> Result<Transaction, VerifyError> {
    let transaction = match get_transaction(client, &event.reference).await {
        Ok(transaction) => transaction,
        // Only the API's own 404 denies the reference; a 404 page from
        // anything else in the way (a wrong base URL) must not make every
        // event look forged.
        Err(Error::Api { status: 404, .. }) => {
            return Err(VerifyError::UnknownReference {
                reference: event.reference.clone(),
            })
        }
        Err(error) => return Err(VerifyError::Request(error)),
    };
    if matches!(transaction.kind, Some(TransactionType::Payout)) {
        return Err(VerifyError::NotACollection {
            transaction: Box::new(transaction),
        });
    }
    let claim = event.classify();
    if !claim_matches(&claim, &event.status, &transaction.status) {
        return Err(VerifyError::StatusMismatch {
            event_status: event.status.clone(),
            claim,
            transaction: Box::new(transaction),
        });
    }
    if let (Some(event_paid), Some(paid)) = (event.paid_amount, transaction.paid_amount) {
        if event_paid != paid {
            return Err(VerifyError::PaidAmountMismatch {
                event_paid,
                transaction: Box::new(transaction),
            });
        }
    }
    Ok(transaction)
}

fn claim_matches(claim: &Classification, sent: &EventStatus, status: &TransactionStatus) -> bool {
    match claim {
        Classification::Completed => *status == TransactionStatus::Completed,
        Classification::PartiallyPaid => *status == TransactionStatus::PartiallyPaid,
        Classification::Failed { .. } => {
            matches!(
                status,
                TransactionStatus::Failed | TransactionStatus::Expired
            )
        }
        Classification::Unknown => match sent {
            EventStatus::Text(word) => status.as_str().eq_ignore_ascii_case(word.trim()),
            EventStatus::Flag(_) => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of [`verify`]'s docs, including the statuses the sandbox
    /// never gives a collection (`FAILED`, a status this SDK does not know).
    #[test]
    fn each_claim_matches_only_its_statuses() {
        use TransactionStatus::*;
        let failed = Classification::Failed { reason: "x".into() };
        let statuses = [
            Pending,
            Processing,
            PartiallyPaid,
            Completed,
            Expired,
            Failed,
            Unknown("ON_HOLD".into()),
        ];
        let flag = EventStatus::Flag(true);
        let matching = |claim: &Classification, sent: &EventStatus| -> Vec<TransactionStatus> {
            statuses
                .iter()
                .filter(|status| claim_matches(claim, sent, status))
                .cloned()
                .collect()
        };
        assert_eq!(matching(&Classification::Completed, &flag), [Completed]);
        assert_eq!(
            matching(&Classification::PartiallyPaid, &flag),
            [PartiallyPaid]
        );
        assert_eq!(matching(&failed, &flag), [Expired, Failed]);
        assert!(matching(&Classification::Unknown, &EventStatus::Flag(false)).is_empty());
        let word = |text: &str| EventStatus::Text(text.into());
        assert_eq!(
            matching(&Classification::Unknown, &word(" PENDING ")),
            [Pending]
        );
        assert_eq!(
            matching(&Classification::Unknown, &word("ON_HOLD")),
            [Unknown("ON_HOLD".into())]
        );
        assert_eq!(
            matching(&Classification::Unknown, &word("pending")),
            [Pending]
        );
    }
}
