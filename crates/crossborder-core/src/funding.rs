//! The staging-only funding simulation: the wire view of
//! `POST /api/simulate-funding` and its rules, used by the SDK (before
//! sending) and the sandbox (to answer like the API).

use rust_decimal::Decimal;

use crate::amount::AmountWire;
use crate::currency::Currency;
use crate::field_rules::{check_amount, known, parse_currency, report_currency, require_max_chars};
use crate::money::Money;
pub use crate::views::SimulateFundingFields;
use crate::violation::{Collector, Violations};

/// The longest simulation `sessionId` accepted, in characters.
pub const MAX_FUNDING_SESSION_ID_CHARS: usize = 100;

/// A funding simulation that passed [`validate_simulate_funding`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidatedFunding {
    /// The currency of the simulated transfer.
    pub currency: Currency,
    /// The amount paid, exact and greater than zero.
    pub amount: Decimal,
}

impl ValidatedFunding {
    /// The amount with its currency.
    pub fn money(&self) -> Money {
        Money::from_checked(self.amount, self.currency)
    }
}

/// Checks a funding simulation and reports every violation at once, in wire
/// order: a supported `currency`, an `amount` greater than zero within the
/// currency's minor unit, a `narration`, and a `sessionId` of 1 to 100
/// characters. Whether the narration matches a collection is the server's
/// to say.
///
/// ```
/// use crossborder_core::funding::{validate_simulate_funding, SimulateFundingFields};
///
/// let fields = SimulateFundingFields {
///     currency: Some("NGN"),
///     amount: Some("5000.555"),
///     narration: Some("PAY-7Q2M9XKD"),
///     session_id: None,
/// };
/// assert_eq!(
///     validate_simulate_funding(&fields).unwrap_err().to_string(),
///     "amount: has more decimal places than NGN allows (2); sessionId: is required"
/// );
/// ```
pub fn validate_simulate_funding(
    fields: &SimulateFundingFields<'_>,
) -> Result<ValidatedFunding, Violations> {
    let mut collector = Collector::default();
    let currency = parse_currency(fields.currency);
    let known_currency = known(&currency);
    report_currency(&mut collector, SimulateFundingFields::CURRENCY, &currency);
    let amount = check_amount(
        &mut collector,
        SimulateFundingFields::AMOUNT,
        fields.amount,
        known_currency,
        AmountWire::Number,
    );
    collector.require(SimulateFundingFields::NARRATION, fields.narration);
    require_max_chars(
        &mut collector,
        SimulateFundingFields::SESSION_ID,
        fields.session_id,
        MAX_FUNDING_SESSION_ID_CHARS,
    );
    match (known_currency, amount) {
        (Some(currency), Some(amount)) => {
            collector.finish(|| ValidatedFunding { currency, amount })
        }
        _ => Err(collector.into_violations()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rule;

    fn valid() -> SimulateFundingFields<'static> {
        SimulateFundingFields {
            currency: Some("NGN"),
            amount: Some("5000"),
            narration: Some("PAY-7Q2M9XKD"),
            session_id: Some("sim-0001"),
        }
    }

    #[test]
    fn a_complete_simulation_is_valid() {
        let funding = validate_simulate_funding(&valid()).unwrap();
        assert_eq!(funding.money().to_string(), "5000.00 NGN");
    }

    #[test]
    fn every_violation_at_once() {
        let violations = validate_simulate_funding(&SimulateFundingFields::default()).unwrap_err();
        assert_eq!(
            violations.fields().collect::<Vec<_>>(),
            ["currency", "amount", "narration", "sessionId"]
        );
        assert!(violations.iter().all(|v| v.rule == Rule::Required));
    }

    #[test]
    fn field_rules() {
        let fields = SimulateFundingFields {
            currency: Some("ABC"),
            ..valid()
        };
        assert_eq!(
            validate_simulate_funding(&fields).unwrap_err().to_string(),
            "currency: Invalid currency: ABC"
        );
        let fields = SimulateFundingFields {
            amount: Some("-1"),
            ..valid()
        };
        assert_eq!(
            validate_simulate_funding(&fields).unwrap_err()[0].rule,
            Rule::NotPositive
        );
        let long = "s".repeat(MAX_FUNDING_SESSION_ID_CHARS + 1);
        let fields = SimulateFundingFields {
            session_id: Some(&long),
            ..valid()
        };
        assert_eq!(
            validate_simulate_funding(&fields).unwrap_err().to_string(),
            "sessionId: must be at most 100 characters"
        );
    }
}
