//! What an account remembers of each payout and collection: the request
//! and first response (replayed for an identical repeat) and the
//! transaction that tracks it.

use crossborder_api::types::{PayoutResponse, Transaction};

use crate::http::error::ApiError;
use crate::store::idempotency::{repeats, IdempotentRequest, WireFields};
use crate::store::transaction::TransactionRecord;

/// A payout as remembered for idempotency and tracking.
#[derive(Debug, Clone)]
pub(crate) struct PayoutRecord {
    /// The payout fields as sent and the first response, replayed for an
    /// identical retry.
    pub(crate) request: IdempotentRequest<PayoutResponse>,
    /// The transaction read by `GET /api/transaction/{sessionId}`.
    pub(crate) transaction: TransactionRecord,
}

/// A collection as remembered for idempotency and tracking.
///
/// Its first response is not stored: it is the transaction as created
/// ([`TransactionRecord::as_created`]), rebuilt for a repeat, which keeps a
/// stored collection small.
#[derive(Debug, Clone)]
pub(crate) struct CollectionRecord {
    /// The creation's fields as sent, to tell a repeat from a conflict.
    pub(crate) request: WireFields,
    /// The transaction read by `GET /api/transaction/{paymentReference}`
    /// and paid by simulated fundings.
    pub(crate) transaction: TransactionRecord,
}

impl CollectionRecord {
    /// The transaction as first answered when `request` repeats the
    /// creation; otherwise 409 with the message `conflict` gives.
    pub(crate) fn replay(
        &self,
        request: &WireFields,
        conflict: impl FnOnce() -> String,
    ) -> Result<Transaction, ApiError> {
        repeats(&self.request, request, conflict).map(|()| self.transaction.as_created().to_wire())
    }
}
