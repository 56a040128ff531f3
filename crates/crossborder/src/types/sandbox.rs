//! The staging-only funding simulation.

use rust_decimal::Decimal;

use crate::Currency;

/// A simulated inbound transfer (`POST /api/simulate-funding`, staging
/// only): behaves as if the payer of a collection had paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulateFundingRequest {
    /// The wallet credited.
    pub currency: Currency,
    /// The amount paid.
    pub amount: Decimal,
    /// Must match the `payRefrence` memo of a prior collection.
    pub narration: String,
    /// A unique id for this simulated event.
    pub session_id: String,
}

impl SimulateFundingRequest {
    /// A simulated payment of `amount` in `currency` against the collection
    /// whose memo is `narration`.
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
