//! Transactions: the state of a collection, or of a payout read by its
//! session id.

use std::time::SystemTime;

use crossborder_api::types as wire;
use rust_decimal::Decimal;

use crate::types::AmountText;
use crate::Currency;

/// The status of a collection or payout, and whether a transaction is a
/// collection or a payout: open enums declared once in core for the SDK and
/// the sandbox.
pub use crossborder_core::status::{TransactionStatus, TransactionType};

/// How the payer transfers the funds of a collection: everything to hand
/// to the buyer.
///
/// ```
/// # fn show(instruction: &crossborder::types::PaymentInstruction) {
/// use std::time::SystemTime;
///
/// let amount = match instruction.amount_to_transfer {
///     Some(exact) => exact.to_string(),
///     // The service wrote it in another form: show its text as is.
///     None => instruction.amount_to_transfer_text.to_string(),
/// };
/// if instruction.valid_until > SystemTime::now() {
///     println!(
///         "pay {amount} into {} ({}, {}); {}",
///         instruction.account_number, instruction.account_name, instruction.bank_name,
///         instruction.narration
///     );
/// }
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentInstruction {
    /// The service's sentence telling the payer to use the transaction's
    /// memo ([`Transaction::payer_memo`]) as transfer narration.
    pub narration: String,
    /// The account to pay into (a wallet address for a crypto collection).
    pub account_number: String,
    /// The name of that account.
    pub account_name: String,
    /// The bank of that account (the network for a crypto collection).
    pub bank_name: String,
    /// The amount the payer must transfer, exact; `None` only when the
    /// service wrote it in a form that is not a decimal number
    /// (ASSUMPTIONS.md B32), whose text is in
    /// [`amount_to_transfer_text`](PaymentInstruction::amount_to_transfer_text).
    pub amount_to_transfer: Option<Decimal>,
    /// The amount to transfer as the service wrote it (the API documents a
    /// plain string).
    pub amount_to_transfer_text: AmountText,
    /// Until when the instruction is valid, on the same clock as
    /// [`Quote::valid_until`](crate::types::Quote::valid_until).
    pub valid_until: SystemTime,
}

impl From<wire::PaymentInstruction> for PaymentInstruction {
    fn from(value: wire::PaymentInstruction) -> Self {
        let text = AmountText::from(value.amount_to_transfer);
        PaymentInstruction {
            narration: value.narration,
            account_number: value.account_number,
            account_name: value.account_name,
            bank_name: value.bank_name,
            amount_to_transfer: text.decimal().ok(),
            amount_to_transfer_text: text,
            valid_until: value.valid_until.time(),
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
    /// The memo the payer must write as the transfer's narration, generated
    /// by the service for a collection (wire name `payRefrence`, spelled so
    /// by the service); read it with [`payer_memo`](Transaction::payer_memo).
    /// Not the caller's reference: that is
    /// [`payment_reference`](Transaction::payment_reference).
    pub pay_reference: Option<String>,
    /// The caller's own reference: the order id given to
    /// `collections().create`, or a payout's session id.
    pub payment_reference: String,
    /// The amount, exact, in `from_currency`.
    pub amount: Decimal,
    /// The amount in `to_currency`.
    pub to_amount: Decimal,
    /// The amount plus the fee, in `from_currency`.
    pub total_amount: Decimal,
    /// The amount paid so far, when the server says (collections; an
    /// optional field the API document does not list, ASSUMPTIONS.md B8).
    pub paid_amount: Option<Decimal>,
    /// The exchange rate applied (1 without conversion).
    pub rate: Decimal,
    /// The status.
    pub status: TransactionStatus,
    /// The fee, in `from_currency` (0 without one).
    pub fee: Decimal,
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
    /// How the payer transfers the funds (collections).
    pub payment_instructions: Vec<PaymentInstruction>,
}

impl Transaction {
    /// The memo the payer must write as the narration of their transfer, so
    /// the payment reconciles to this collection (`payRefrence`, generated
    /// by the service). Hand it to the buyer with the
    /// [`payment_instructions`](Transaction::payment_instructions); it is
    /// not your order id ([`payment_reference`](Transaction::payment_reference)).
    /// `None` for a payout.
    pub fn payer_memo(&self) -> Option<&str> {
        self.pay_reference.as_deref()
    }

    /// What is left to pay, `amount - paid_amount`, when the server sent
    /// `paid_amount`; zero means fully paid.
    ///
    /// Negative on an overpayment, as the API description defines the
    /// remaining amount and the webhook's `remainingAmount` says
    /// (ASSUMPTIONS.md B71). `None` also when the subtraction would
    /// overflow, so no value the server sends can make it panic.
    ///
    /// ```
    /// # fn check(mut transaction: crossborder::types::Transaction) {
    /// use crossborder::Decimal;
    ///
    /// transaction.amount = Decimal::new(100, 0);
    /// transaction.paid_amount = Some(Decimal::new(120, 0));
    /// assert_eq!(transaction.remaining_amount(), Some(Decimal::new(-20, 0)));
    /// # }
    /// ```
    pub fn remaining_amount(&self) -> Option<Decimal> {
        self.paid_amount
            .and_then(|paid| self.amount.checked_sub(paid))
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
            to_amount: value.to_amount.get(),
            total_amount: value.total_amount.get(),
            paid_amount: value.paid_amount.map(|v| v.get()),
            rate: value.rate.get(),
            status: match value.status.0.parse() {
                Ok(status) => status,
                Err(never) => match never {},
            },
            fee: value.fee.get(),
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
            to_amount: amount,
            total_amount: amount,
            paid_amount: paid,
            rate: Decimal::ONE,
            status: TransactionStatus::PartiallyPaid,
            fee: Decimal::ZERO,
            rate_key: None,
            from_currency: Currency::Ngn,
            to_currency: Currency::Ngn,
            address: None,
            network: None,
            payment_instructions: Vec::new(),
        }
    }

    #[test]
    fn remaining_amount_is_negative_on_an_overpayment_and_never_panics() {
        let d = |text| Decimal::from_str_exact(text).unwrap();
        assert_eq!(
            transaction(d("50000"), Some(d("20000.5"))).remaining_amount(),
            Some(d("29999.5"))
        );
        assert_eq!(transaction(d("50000"), None).remaining_amount(), None);
        assert_eq!(
            transaction(d("100"), Some(d("120"))).remaining_amount(),
            Some(d("-20"))
        );
        assert_eq!(
            transaction(Decimal::MAX, Some(-Decimal::MAX)).remaining_amount(),
            None
        );
        assert_eq!(
            transaction(-Decimal::MAX, Some(Decimal::MAX)).remaining_amount(),
            None
        );
    }
}
