//! What the ledger returns: a payout's record, its history, a collection's
//! record.

use std::time::SystemTime;

use crossborder::types::{PaymentInstruction, TransactionStatus};
use crossborder::{Currency, Decimal};
use serde::Serialize;

use crate::quote::{PayoutQuote, PayoutReason};
use crate::state::PayoutState;

/// One payout as the ledger holds it. Serialises (camelCase) as the CLI's
/// `ledger list --json` item: `sessionId`, `state`, `amount` (a decimal
/// string), `fromCurrency`, `toCurrency`, ...
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PayoutRecord {
    /// The payout's session id: its idempotency key at the API.
    pub session_id: String,
    /// Where it stands.
    pub state: PayoutState,
    /// The amount debited, in `from_currency`, exactly as recorded.
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
    /// The wallet debited.
    pub from_currency: Currency,
    /// The currency received.
    pub to_currency: Currency,
    /// The service's transaction id, once it holds the payout.
    pub transaction_id: Option<String>,
    /// The API's refusal (`refused`) or the service's failure (`failed`)
    /// message, or the last error met while the outcome is unknown.
    pub message: Option<String>,
    /// Why it ended unpaid (`refused`) or failed (`failed`), as a type with
    /// a stable [`code`](PayoutReason::code); none otherwise.
    pub reason: Option<PayoutReason>,
    /// The batch it was recorded with and its position there (1-based).
    pub batch: Option<(String, usize)>,
    /// When it was recorded.
    #[serde(with = "crate::time::rfc3339")]
    pub created_at: SystemTime,
    /// When its state last changed.
    #[serde(with = "crate::time::rfc3339")]
    pub updated_at: SystemTime,
}

/// One state change of a payout: "what happened to payout X, and when".
/// An event whose `from` and `to` are the same state changed none: it
/// records a quote (taken again, or turned down by the rate guard).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PayoutEvent {
    /// When.
    #[serde(with = "crate::time::rfc3339")]
    pub at: SystemTime,
    /// The state before (none for the recording itself).
    pub from: Option<PayoutState>,
    /// The state after.
    pub to: PayoutState,
    /// What caused it (the API's message, "read back after a crash", ...).
    pub detail: Option<String>,
    /// The dispatcher that made the change (none for the recording).
    pub dispatcher: Option<String>,
    /// The quote this event used (a converting payout recorded without a
    /// `rateKey`, made `sending` with it or re-quoted), or turned down (the
    /// rate guard; then `from` and `to` are the same state).
    pub quote: Option<PayoutQuote>,
}

/// One collection the ledger expects money for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CollectionRecord {
    /// The caller's payment reference.
    pub payment_reference: String,
    /// The amount asked for, in `from_currency`.
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
    /// The currency the payer pays in.
    pub from_currency: Currency,
    /// The currency credited.
    pub to_currency: Currency,
    /// The last status the service confirmed (`PENDING`, `COMPLETED`, ...),
    /// or `None` while the collection is recorded and not yet created
    /// (serialised as its wire word, or `null`).
    #[serde(serialize_with = "status_word")]
    pub status: Option<TransactionStatus>,
    /// The amount paid so far, as last confirmed.
    #[serde(with = "rust_decimal::serde::str_option")]
    pub paid_amount: Option<Decimal>,
    /// The service's transaction id, once created.
    pub transaction_id: Option<String>,
    /// Whether it still waits for a final status.
    pub open: bool,
}

/// A collection [`Ledger::expect_collection`](crate::Ledger::expect_collection)
/// recorded and created: the ledger's record, and what the payer needs to
/// pay it, as the service created it (the ledger does not store these).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ExpectedCollection {
    /// The collection as the ledger now records it.
    pub record: CollectionRecord,
    /// The memo the payer must use as the transfer's narration
    /// (`payRefrence`), when the service sent one.
    pub pay_reference: Option<String>,
    /// How the payer transfers the funds (account, bank, amount, valid
    /// until).
    pub payment_instructions: Vec<PaymentInstruction>,
}

/// What a dispatcher's run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DispatchReport {
    /// Payouts sent (each at most once per session id at the service).
    pub sent: usize,
    /// Payouts in flight when a run stopped, settled by reading them.
    pub resolved_by_reading: usize,
    /// Payouts that became `accepted`.
    pub accepted: usize,
    /// Payouts the API refused.
    pub refused: usize,
    /// Payouts that reached `completed`.
    pub completed: usize,
    /// Payouts that reached `failed`.
    pub failed: usize,
}

/// A collection's status as its wire word (an unknown one as sent).
fn status_word<S: serde::Serializer>(
    status: &Option<TransactionStatus>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match status {
        Some(status) => serializer.serialize_some(status.as_str()),
        None => serializer.serialize_none(),
    }
}
