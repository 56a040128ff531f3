//! What an account remembers of each payout and collection: the request
//! and first response (replayed for an identical repeat) and the
//! transaction that tracks it.

use std::time::SystemTime;

use crossborder_api::types::{PayoutResponse, Transaction};
use rust_decimal::Decimal;

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
    /// When it was accepted, and its creation number in the account.
    pub(crate) created_at: SystemTime,
    pub(crate) sequence: u64,
    /// Where it goes, in one line (`Access Bank 044 0123456789`).
    pub(crate) destination: String,
    /// How it settles when the sandbox settles it on its own (at once or
    /// after the delay): failed for the failing account `0000000000`.
    pub(crate) outcome: Settle,
    /// Why it failed, once `FAILED`.
    pub(crate) reason: Option<String>,
}

/// How a pending payout settles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Settle {
    /// `COMPLETED`.
    Complete,
    /// `FAILED` for this reason, and refunded in full.
    Fail(String),
}

/// One payment into a collection, as the console lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FundingEntry {
    /// What it added to `paidAmount`, in the collection's `fromCurrency`.
    pub(crate) paid: Decimal,
    /// What it credited to the `toCurrency` wallet.
    pub(crate) credited: Decimal,
    /// When (sandbox clock).
    pub(crate) at: SystemTime,
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
    /// When it was created, and its creation number in the account.
    pub(crate) created_at: SystemTime,
    pub(crate) sequence: u64,
    /// Every payment into it, oldest first.
    pub(crate) fundings: Vec<FundingEntry>,
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
