//! Checks of amounts outside payouts (quotes, collections, funding), with
//! the same wording as the payout rules of `crossborder-core`.

use crossborder_core::{decimal_places, Currency, Rule, Violation};
use rust_decimal::Decimal;

/// The largest amount the sandbox accepts anywhere: 1,000,000,000,000,000
/// (a sandbox limit, so that no arithmetic can overflow).
pub const MAX_AMOUNT: Decimal = Decimal::from_parts(2_764_472_320, 232_830, 0, false, 0);

/// Checks that `amount` (of the field `field`, in `currency` when known) is
/// greater than zero, at most [`MAX_AMOUNT`] and has no more decimal places
/// than the currency's minor unit.
pub(crate) fn check_amount(
    field: &str,
    amount: Decimal,
    currency: Option<Currency>,
) -> Result<Decimal, Violation> {
    if amount <= Decimal::ZERO {
        return Err(Violation::new(
            field.to_owned(),
            Rule::NotPositive,
            "must be greater than zero",
        ));
    }
    if amount > MAX_AMOUNT {
        return Err(Violation::new(
            field.to_owned(),
            Rule::OutOfRange,
            format!("must be at most {MAX_AMOUNT}"),
        ));
    }
    if let Some(currency) = currency {
        let exponent = currency.minor_unit_exponent();
        if decimal_places(amount) > exponent {
            return Err(Violation::new(
                field.to_owned(),
                Rule::TooPrecise,
                format!("has more decimal places than {currency} allows ({exponent})"),
            ));
        }
    }
    Ok(amount)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_amount_is_one_quadrillion() {
        assert_eq!(MAX_AMOUNT.to_string(), "1000000000000000");
    }

    #[test]
    fn amounts_are_checked() {
        let check = |text: &str, currency| {
            check_amount("amount", Decimal::from_str_exact(text).unwrap(), currency)
                .map(|amount| amount.to_string())
                .map_err(|violation| violation.to_string())
        };
        assert_eq!(
            check("100.50", Some(Currency::Ngn)),
            Ok("100.50".to_owned())
        );
        assert_eq!(
            check("0", None),
            Err("amount: must be greater than zero".to_owned())
        );
        assert_eq!(
            check("-1", None),
            Err("amount: must be greater than zero".to_owned())
        );
        assert_eq!(
            check("1.5", Some(Currency::Ugx)),
            Err("amount: has more decimal places than UGX allows (0)".to_owned())
        );
        assert_eq!(
            check("1000000000000000.01", None),
            Err("amount: must be at most 1000000000000000".to_owned())
        );
    }
}
