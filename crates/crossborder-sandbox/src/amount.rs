//! The sandbox's own limit on amounts, on top of the API's amount rule
//! (`crossborder_core::validate_amount`), and the reading of `Amount` fields
//! (JSON numbers) for the core validators.

use crossborder_core::{Rule, Violation};
use rust_decimal::Decimal;

use crate::idempotency::WireFields;
use crate::json::Reader;

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

/// Reads the `Amount` field `name` (a JSON number) into `fields` as exact
/// decimal text without trailing zeros (`1e3` and `1000.00` read as
/// `1000`), for a core validator to check. A wrong type or an amount above
/// [`MAX_AMOUNT`] is recorded in `violations`, and the field is then left
/// out.
pub(crate) fn read_amount(
    reader: &Reader<'_>,
    name: &'static str,
    fields: &mut WireFields,
    violations: &mut Vec<Violation>,
) {
    let Some(amount) = reader.number(name, violations) else {
        return;
    };
    match check_max_amount(&reader.path(name), amount) {
        Ok(amount) => {
            fields.insert(name, amount_key(amount));
        }
        Err(violation) => violations.push(violation),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_object;

    #[test]
    fn max_amount_is_one_quadrillion() {
        assert_eq!(MAX_AMOUNT.to_string(), "1000000000000000");
        assert!(check_max_amount("amount", MAX_AMOUNT).is_ok());
    }

    #[test]
    fn amounts_are_read_as_exact_text() {
        let body = parse_object(
            br#"{"a": 1e3, "b": 100.50, "c": -5, "d": "7", "e": 1000000000000000.01}"#,
        )
        .unwrap();
        let reader = Reader::new(&body);
        let mut violations = Vec::new();
        let mut fields = WireFields::new();
        for name in ["a", "b", "c", "d", "e", "absent"] {
            read_amount(&reader, name, &mut fields, &mut violations);
        }
        let read: Vec<(&str, &str)> = fields
            .iter()
            .map(|(name, text)| (*name, text.as_str()))
            .collect();
        assert_eq!(read, [("a", "1000"), ("b", "100.5"), ("c", "-5")]);
        let messages: Vec<String> = violations.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            ["d: must be a number", "e: must be at most 1000000000000000"]
        );
    }
}
