//! Transactions: the state of a collection, or of a payout read by its
//! session id.

use std::convert::Infallible;
use std::fmt;
use std::str::FromStr;

use crossborder_api::types as wire;
use rust_decimal::Decimal;

use crate::{AmountText, Currency};

/// The status of a collection or payout, an open enum declared once in core
/// for the SDK and the sandbox.
pub use crossborder_core::status::TransactionStatus;

/// Whether a transaction is a collection or a payout. The set is open.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TransactionType {
    /// `COLLECTION`: an inbound payment.
    Collection,
    /// `PAYOUT`: an outbound payment.
    Payout,
    /// A type this SDK does not know, as sent.
    Unknown(String),
}

impl TransactionType {
    /// The wire value (`COLLECTION`, `PAYOUT`, or an unknown one as sent).
    pub fn as_str(&self) -> &str {
        match self {
            TransactionType::Collection => "COLLECTION",
            TransactionType::Payout => "PAYOUT",
            TransactionType::Unknown(text) => text,
        }
    }
}

impl fmt::Display for TransactionType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TransactionType {
    type Err = Infallible;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match text {
            "COLLECTION" => TransactionType::Collection,
            "PAYOUT" => TransactionType::Payout,
            other => TransactionType::Unknown(other.to_owned()),
        })
    }
}

/// How the payer transfers the funds of a collection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentInstruction {
    /// Tells the payer to use the `payRefrence` memo as transfer narration.
    pub narration: Option<String>,
    /// The account to pay into.
    pub account_number: Option<String>,
    /// The name of that account.
    pub account_name: Option<String>,
    /// The bank of that account.
    pub bank_name: Option<String>,
    /// The amount the payer must transfer, as the service wrote it (the API
    /// documents a plain string): [`AmountText::decimal`] reads it exactly.
    /// Text that is not a decimal number leaves the rest of the transaction
    /// readable.
    pub amount_to_transfer: Option<AmountText>,
    /// Until when the instruction is valid (ISO 8601).
    pub valid_until: Option<String>,
}

impl From<wire::PaymentInstruction> for PaymentInstruction {
    fn from(value: wire::PaymentInstruction) -> Self {
        PaymentInstruction {
            narration: value.narration,
            account_number: value.account_number,
            account_name: value.account_name,
            bank_name: value.bank_name,
            amount_to_transfer: value.amount_to_transfer.map(AmountText::from),
            valid_until: value.valid_until,
        }
    }
}

/// A collection, or a payout read by its session id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transaction {
    /// The service's id.
    pub transaction_id: String,
    /// Collection or payout, when the server says.
    pub kind: Option<TransactionType>,
    /// The service-generated memo the payer must use as transfer narration
    /// (wire name `payRefrence`, spelled so by the service).
    pub pay_reference: Option<String>,
    /// The caller's reference (a payout's session id for payouts).
    pub payment_reference: String,
    /// The amount, exact.
    pub amount: Decimal,
    /// The amount in `to_currency`.
    pub to_amount: Option<Decimal>,
    /// The amount plus fees.
    pub total_amount: Option<Decimal>,
    /// The amount paid so far.
    pub paid_amount: Option<Decimal>,
    /// The exchange rate applied.
    pub rate: Option<Decimal>,
    /// The status.
    pub status: TransactionStatus,
    /// The fee.
    pub fee: Option<Decimal>,
    /// The rate key used.
    pub rate_key: Option<String>,
    /// The source currency.
    pub from_currency: Currency,
    /// The destination currency.
    pub to_currency: Currency,
    /// The wallet address (crypto destinations).
    pub address: Option<String>,
    /// The crypto network.
    pub network: Option<String>,
    /// How the payer transfers the funds.
    pub payment_instructions: Vec<PaymentInstruction>,
}

impl Transaction {
    /// What is left to pay, `amount - paid_amount`, when the server sent
    /// `paid_amount`; zero means fully paid.
    ///
    /// Never negative: an overpaid transaction has zero left, as the
    /// webhook's `remainingAmount` says. The subtraction saturates, so no
    /// value the server sends can make it panic.
    ///
    /// ```
    /// # fn check(mut transaction: crossborder::types::Transaction) {
    /// use crossborder::Decimal;
    ///
    /// transaction.amount = Decimal::new(100, 0);
    /// transaction.paid_amount = Some(Decimal::new(120, 0));
    /// assert_eq!(transaction.remaining_amount(), Some(Decimal::ZERO));
    /// # }
    /// ```
    pub fn remaining_amount(&self) -> Option<Decimal> {
        self.paid_amount
            .map(|paid| self.amount.saturating_sub(paid).max(Decimal::ZERO))
    }
}

impl From<wire::Transaction> for Transaction {
    fn from(value: wire::Transaction) -> Self {
        Transaction {
            transaction_id: value.transaction_id,
            kind: value.type_.map(|kind| match kind.0.parse() {
                Ok(kind) => kind,
                Err(never) => match never {},
            }),
            pay_reference: value.pay_refrence,
            payment_reference: value.payment_reference,
            amount: value.amount.get(),
            to_amount: value.to_amount.map(|v| v.get()),
            total_amount: value.total_amount.map(|v| v.get()),
            paid_amount: value.paid_amount.map(|v| v.get()),
            rate: value.rate.map(|v| v.get()),
            status: match value.status.0.parse() {
                Ok(status) => status,
                Err(never) => match never {},
            },
            fee: value.fee.map(|v| v.get()),
            rate_key: value.rate_key,
            from_currency: value.from_currency,
            to_currency: value.to_currency,
            address: value.address,
            network: value.network,
            payment_instructions: value
                .payment_instruction
                .into_iter()
                .map(PaymentInstruction::from)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transaction(amount: Decimal, paid: Option<Decimal>) -> Transaction {
        Transaction {
            transaction_id: "txn_1".into(),
            kind: None,
            pay_reference: None,
            payment_reference: "order-1".into(),
            amount,
            to_amount: None,
            total_amount: None,
            paid_amount: paid,
            rate: None,
            status: TransactionStatus::PartiallyPaid,
            fee: None,
            rate_key: None,
            from_currency: Currency::Ngn,
            to_currency: Currency::Ngn,
            address: None,
            network: None,
            payment_instructions: Vec::new(),
        }
    }

    #[test]
    fn remaining_amount_is_never_negative_and_never_panics() {
        let d = |text| Decimal::from_str_exact(text).unwrap();
        assert_eq!(
            transaction(d("50000"), Some(d("20000.5"))).remaining_amount(),
            Some(d("29999.5"))
        );
        assert_eq!(transaction(d("50000"), None).remaining_amount(), None);
        assert_eq!(
            transaction(d("100"), Some(d("120"))).remaining_amount(),
            Some(Decimal::ZERO)
        );
        assert_eq!(
            transaction(Decimal::MAX, Some(-Decimal::MAX)).remaining_amount(),
            Some(Decimal::MAX)
        );
        assert_eq!(
            transaction(-Decimal::MAX, Some(Decimal::MAX)).remaining_amount(),
            Some(Decimal::ZERO)
        );
    }
}
