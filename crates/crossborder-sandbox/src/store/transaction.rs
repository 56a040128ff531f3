//! Transactions: collections and payouts as `GET /api/transaction/{ref}`
//! returns them.

use std::time::SystemTime;

use crossborder_api::types;
use crossborder_core::Currency;
use rust_decimal::Decimal;

use crate::wire;

/// Whether a transaction is a collection (inbound) or a payout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TransactionKind {
    /// Created by `POST /api/initiate-payment`.
    Collection,
    /// Created by `POST /api/payout`.
    Payout,
}

impl TransactionKind {
    fn wire(self) -> &'static str {
        match self {
            TransactionKind::Collection => "COLLECTION",
            TransactionKind::Payout => "PAYOUT",
        }
    }
}

/// The states the sandbox uses.
///
/// Collections: `PENDING` -> `PARTIALLY_PAID` -> `COMPLETED`, or `EXPIRED`
/// when the payment instruction lapses before the collection is fully paid.
/// Payouts are settled at once: `COMPLETED`, or `FAILED` (refunded) for the failure
/// trigger.
///
/// The status words are core's open enum, shared with the SDK; the sandbox
/// never sets `PROCESSING` or an unknown word.
pub(crate) use crossborder_core::status::TransactionStatus;

/// The account payers of fiat collections pay into.
pub const COLLECTION_ACCOUNT_NUMBER: &str = "9930001234";
/// The name of that account.
pub const COLLECTION_ACCOUNT_NAME: &str = "Crossborder Collections";
/// The bank of that account.
pub const COLLECTION_BANK_NAME: &str = "Sandbox Bank";

/// A collection or a payout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TransactionRecord {
    pub(crate) transaction_id: String,
    pub(crate) kind: TransactionKind,
    /// The memo of a collection (`payRefrence`).
    pub(crate) pay_refrence: Option<String>,
    /// The caller's reference of a collection, or the sessionId of a payout.
    pub(crate) payment_reference: String,
    pub(crate) amount: Decimal,
    pub(crate) to_amount: Decimal,
    pub(crate) total_amount: Decimal,
    /// What has been paid so far (collections only).
    pub(crate) paid_amount: Option<Decimal>,
    pub(crate) rate: Decimal,
    pub(crate) fee: Decimal,
    pub(crate) status: TransactionStatus,
    pub(crate) rate_key: Option<String>,
    pub(crate) from: Currency,
    pub(crate) to: Currency,
    pub(crate) address: Option<String>,
    pub(crate) network: Option<String>,
    /// Until when a collection's one payment instruction is valid (`None`
    /// for a payout). The instruction's other fields follow from the
    /// record (see [`TransactionRecord::instruction`]), so a stored
    /// collection keeps no copy of them: the sandbox holds 100,000s.
    pub(crate) instruction_valid_until: Option<SystemTime>,
}

impl TransactionRecord {
    /// Marks a collection that is not fully paid (`PENDING` or
    /// `PARTIALLY_PAID`) `EXPIRED` once its instructions lapsed
    /// (ASSUMPTIONS.md A2); what was paid is kept. Returns true when this
    /// call expired it, so the change is announced once.
    #[must_use]
    pub(crate) fn refresh(&mut self, now: SystemTime) -> bool {
        let lapsed = self
            .instruction_valid_until
            .is_some_and(|valid_until| valid_until < now);
        let open = matches!(
            self.status,
            TransactionStatus::Pending | TransactionStatus::PartiallyPaid
        );
        if open && lapsed {
            self.status = TransactionStatus::Expired;
            return true;
        }
        false
    }

    /// The webhook event announcing a collection's current status
    /// (ASSUMPTIONS.md A26, B9), or `None` for a status that is never
    /// announced (`PENDING`, which only creation gives, and payouts'
    /// `FAILED`). `status` is `true` when completed, `false` on a partial
    /// payment, and the word `EXPIRED` when the collection lapsed: a boolean
    /// could not tell a lapsed, partly paid collection from an open one.
    /// Amounts are the payer's side, in `fromCurrency`; `remainingAmount` is
    /// `amount - paidAmount`, negative on an over-payment.
    pub(crate) fn status_event(&self) -> Option<types::WebhookEvent> {
        let (status, message) = match self.status {
            TransactionStatus::Completed => {
                (types::WebhookStatus::Boolean(true), "Payment completed")
            }
            TransactionStatus::PartiallyPaid => (
                types::WebhookStatus::Boolean(false),
                "Partial payment received",
            ),
            TransactionStatus::Expired => (
                types::WebhookStatus::String("EXPIRED".to_owned()),
                "Collection expired",
            ),
            TransactionStatus::Pending
            | TransactionStatus::Processing
            | TransactionStatus::Failed
            | TransactionStatus::Unknown(_) => return None,
        };
        let paid = self.paid_amount.unwrap_or_default();
        Some(types::WebhookEvent {
            reference: self.payment_reference.clone(),
            memo: self.pay_refrence.clone(),
            amount: Some(wire::amount(self.amount)),
            paid_amount: Some(wire::amount(paid)),
            // The spec's "amount minus paidAmount", as written: negative
            // on an over-payment, so the receiver sees it.
            remaining_amount: Some(wire::amount(self.amount.saturating_sub(paid))),
            currency: Some(self.from),
            status,
            message: Some(message.to_owned()),
        })
    }

    /// The wire shape.
    pub(crate) fn to_wire(&self) -> types::Transaction {
        types::Transaction {
            transaction_id: self.transaction_id.clone(),
            type_: Some(types::TransactionType(self.kind.wire().to_owned())),
            pay_refrence: self.pay_refrence.clone(),
            payment_reference: self.payment_reference.clone(),
            amount: wire::amount(self.amount),
            to_amount: wire::amount(self.to_amount),
            total_amount: wire::amount(self.total_amount),
            paid_amount: self.paid_amount.map(wire::amount),
            rate: wire::amount(self.rate),
            status: types::TransactionStatus(self.status.as_str().to_owned()),
            fee: wire::amount(self.fee),
            rate_key: self.rate_key.clone(),
            from_currency: self.from,
            to_currency: self.to,
            address: self.address.clone(),
            network: self.network.clone(),
            payment_instruction: self.instruction().into_iter().collect(),
        }
    }

    /// The collection as its creation answered it: nothing paid yet. An
    /// identical repeat of the creation replays this (ASSUMPTIONS.md B3);
    /// every other field is fixed at creation.
    pub(crate) fn as_created(&self) -> TransactionRecord {
        TransactionRecord {
            status: TransactionStatus::Pending,
            paid_amount: self.paid_amount.map(|_| Decimal::ZERO),
            ..self.clone()
        }
    }

    /// How the payer pays a collection: the whole amount, with the memo as
    /// narration, into the sandbox's bank account (fiat) or to the
    /// collection's deposit address (crypto).
    fn instruction(&self) -> Option<types::PaymentInstruction> {
        let valid_until = self.instruction_valid_until?;
        let memo = self.pay_refrence.as_deref().unwrap_or_default();
        let (narration, account_number, bank_name) = match (&self.address, &self.network) {
            (Some(address), Some(network)) => (
                format!(
                    "Send {} {} on {network} to {address} with memo {memo}",
                    self.amount, self.from
                ),
                address.clone(),
                network.clone(),
            ),
            _ => (
                format!("Use {memo} as the transfer narration"),
                COLLECTION_ACCOUNT_NUMBER.to_owned(),
                COLLECTION_BANK_NAME.to_owned(),
            ),
        };
        Some(types::PaymentInstruction {
            narration,
            account_number,
            account_name: COLLECTION_ACCOUNT_NAME.to_owned(),
            bank_name,
            amount_to_transfer: wire::decimal_text(self.amount),
            valid_until: crossborder_api::timestamp::Timestamp::from(valid_until),
        })
    }
}
