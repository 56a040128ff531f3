//! Creating a collection.

use rust_decimal::Decimal;

use crate::Currency;

/// A collection (inbound payment) to create with `POST /api/initiate-payment`.
///
/// ```
/// use crossborder::{CollectionRequest, Currency, Decimal};
///
/// let request = CollectionRequest::new("order-10045", Decimal::new(50000, 0), Currency::Ngn, Currency::Ngn);
/// assert_eq!(request.payment_reference, "order-10045");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionRequest {
    /// The caller's own unique reference (1 to 100 characters), used to read
    /// the collection back and echoed in the webhook. Reusing it for a
    /// retry never creates a second collection.
    pub payment_reference: String,
    /// The amount to collect, in `from_currency`.
    pub amount: Decimal,
    /// The currency the payer pays in.
    pub from_currency: Currency,
    /// The currency credited.
    pub to_currency: Currency,
    /// The quote's rate key; required when the currencies differ.
    pub rate_key: Option<String>,
    /// The crypto network the payer sends on, when `from_currency` is crypto.
    pub network: Option<String>,
}

impl CollectionRequest {
    /// A collection of `amount` paid in `from`, credited in `to`.
    pub fn new(
        payment_reference: impl Into<String>,
        amount: Decimal,
        from: Currency,
        to: Currency,
    ) -> CollectionRequest {
        CollectionRequest {
            payment_reference: payment_reference.into(),
            amount,
            from_currency: from,
            to_currency: to,
            rate_key: None,
            network: None,
        }
    }

    /// Sets the quote's rate key (needed when the currencies differ).
    pub fn rate_key(mut self, rate_key: impl Into<String>) -> CollectionRequest {
        self.rate_key = Some(rate_key.into());
        self
    }

    /// Sets the crypto network the payer sends on.
    pub fn network(mut self, network: impl Into<String>) -> CollectionRequest {
        self.network = Some(network.into());
        self
    }
}

/// The longest `paymentReference` the API accepts.
pub const MAX_PAYMENT_REFERENCE_CHARS: usize = 100;

impl CollectionRequest {
    /// Checks what the API documents for a collection and returns all
    /// violations at once: a `paymentReference` of 1 to 100 characters, a
    /// positive amount, and a `rateKey` when the currencies differ.
    pub fn validate(&self) -> Result<(), crate::Violations> {
        use crate::{Rule, Violation};
        let mut violations = Vec::new();
        let reference = self.payment_reference.trim();
        if reference.is_empty() {
            violations.push(Violation::new(
                "paymentReference",
                Rule::Required,
                "is required",
            ));
        } else if self.payment_reference.chars().count() > MAX_PAYMENT_REFERENCE_CHARS {
            violations.push(Violation::new(
                "paymentReference",
                Rule::TooLong,
                format!("must be at most {MAX_PAYMENT_REFERENCE_CHARS} characters"),
            ));
        }
        if self.amount <= Decimal::ZERO {
            violations.push(Violation::new(
                "amount",
                Rule::NotPositive,
                "must be greater than zero",
            ));
        }
        let has_rate_key = self
            .rate_key
            .as_deref()
            .is_some_and(|key| !key.trim().is_empty());
        if self.from_currency != self.to_currency && !has_rate_key {
            violations.push(Violation::new(
                "rateKey",
                Rule::Required,
                format!(
                    "is required when fromCurrency ({}) differs from toCurrency ({})",
                    self.from_currency, self.to_currency
                ),
            ));
        }
        match crate::Violations::from_vec(violations) {
            Some(violations) => Err(violations),
            None => Ok(()),
        }
    }
}
