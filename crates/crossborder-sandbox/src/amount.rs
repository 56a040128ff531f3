//! The sandbox's own limit on amounts, on top of the API's amount rule
//! (`crossborder_core::validate_amount`), and the text idempotency compares
//! amounts by.

use crossborder_core::{Rule, Violation};
use rust_decimal::Decimal;

/// The largest amount the sandbox accepts in a quote, a collection or a
/// simulated funding: 1,000,000,000,000,000 (a sandbox limit, so that no
/// arithmetic can overflow; the API assumes no maximum).
pub const MAX_AMOUNT: Decimal = Decimal::from_parts(2_764_472_320, 232_830, 0, false, 0);

/// Refuses an amount above [`MAX_AMOUNT`].
pub(crate) fn check_max_amount(field: &str, amount: Decimal) -> Result<Decimal, Violation> {
    if amount > MAX_AMOUNT {
        return Err(Violation::new(
            field.to_owned(),
            Rule::OutOfRange,
            format!("must be at most {MAX_AMOUNT}"),
        ));
    }
    Ok(amount)
}

/// An amount as idempotency compares it: exact decimal text without
/// trailing zeros (`100`, `100.0` and `100.00` all give `100`), so that a
/// repeat is judged on the value, not on how it was written.
pub(crate) fn amount_key(amount: Decimal) -> String {
    amount.normalize().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_amount_is_one_quadrillion() {
        assert_eq!(MAX_AMOUNT.to_string(), "1000000000000000");
        assert!(check_max_amount("amount", MAX_AMOUNT).is_ok());
    }
}
