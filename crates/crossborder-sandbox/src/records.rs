//! What an account remembers of each payout and collection: the request
//! and first response (replayed for an identical repeat) and the
//! transaction that tracks it.

use crossborder_api::types::{PayoutResponse, TransactionResponse};

use crate::idempotency::IdempotentRequest;
use crate::transaction::TransactionRecord;

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
#[derive(Debug, Clone)]
pub(crate) struct CollectionRecord {
    /// The request and its first response, replayed for an identical repeat.
    pub(crate) request: IdempotentRequest<TransactionResponse>,
    /// The transaction read by `GET /api/transaction/{paymentReference}`
    /// and paid by simulated fundings.
    pub(crate) transaction: TransactionRecord,
}
