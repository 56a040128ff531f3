//! Creating a collection.

use crossborder_core::collection::{validate_collection, CollectionFields};
use rust_decimal::Decimal;

use crate::Currency;

/// A collection (inbound payment) to create with `POST /api/initiate-payment`.
///
/// ```
/// use crossborder::{Currency, Decimal, types::CollectionRequest};
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

impl CollectionRequest {
    /// Checks what the API documents for a collection and returns all
    /// violations at once, with the rules of `crossborder-core`
    /// ([`validate_collection`](crate::rules::collection::validate_collection)):
    /// a positive amount within `from_currency`'s minor unit, a
    /// `paymentReference` of 1 to 100 characters, and a `rateKey` when the
    /// currencies differ.
    pub fn validate(&self) -> Result<(), crate::error::Violations> {
        let amount = self.amount.to_string();
        let fields = CollectionFields {
            amount: Some(&amount),
            from_currency: Some(self.from_currency.code()),
            to_currency: Some(self.to_currency.code()),
            payment_reference: Some(&self.payment_reference),
            rate_key: self.rate_key.as_deref(),
            network: self.network.as_deref(),
        };
        validate_collection(&fields).map(|_| ())
    }
}
