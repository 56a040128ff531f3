//! The staging-only funding simulation.

use crossborder_core::funding::{validate_simulate_funding, SimulateFundingFields};
use rust_decimal::Decimal;

use crate::Currency;

/// A simulated inbound transfer (`POST /api/simulate-funding`, staging
/// only): behaves as if the payer of a collection had paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulateFundingRequest {
    /// The currency of the wallet to credit (the API's words): the
    /// collection's `toCurrency`, the one wallet a collection credits. For
    /// a converting collection the sandbox refuses its `fromCurrency` (400
    /// `currency: must be <toCurrency>, the wallet collection <ref>
    /// credits ...`, ASSUMPTIONS A14), and the amount, in `toCurrency`,
    /// pays the collection `amount / rate` of its `fromCurrency`.
    pub currency: Currency,
    /// The amount credited, in `currency`.
    pub amount: Decimal,
    /// Must match the `payRefrence` memo of a prior collection.
    pub narration: String,
    /// A unique id for this simulated event.
    pub session_id: String,
}

impl SimulateFundingRequest {
    /// A simulated payment of `amount` credited to the `currency` wallet
    /// (the collection's `toCurrency`) against the collection whose memo is
    /// `narration`.
    pub fn new(
        currency: Currency,
        amount: Decimal,
        narration: impl Into<String>,
        session_id: impl Into<String>,
    ) -> SimulateFundingRequest {
        SimulateFundingRequest {
            currency,
            amount,
            narration: narration.into(),
            session_id: session_id.into(),
        }
    }
}

impl SimulateFundingRequest {
    /// Checks the simulation with the rules of `crossborder-core`
    /// ([`validate_simulate_funding`](crate::rules::funding::validate_simulate_funding))
    /// and returns all violations at once: a positive amount within the
    /// currency's minor unit, a narration, and a `sessionId` of 1 to 100
    /// characters.
    ///
    /// ```
    /// use crossborder::{Currency, Decimal, types::SimulateFundingRequest};
    ///
    /// let request = SimulateFundingRequest::new(Currency::Ngn, Decimal::new(5000, 0), "PAY-7Q2M9XKD", "");
    /// assert_eq!(request.validate().unwrap_err().to_string(), "sessionId: is required");
    /// ```
    pub fn validate(&self) -> Result<(), crate::error::Violations> {
        let amount = self.amount.to_string();
        let fields = SimulateFundingFields {
            currency: Some(self.currency.code()),
            amount: Some(&amount),
            narration: Some(&self.narration),
            session_id: Some(&self.session_id),
        };
        validate_simulate_funding(&fields).map(|_| ())
    }
}
