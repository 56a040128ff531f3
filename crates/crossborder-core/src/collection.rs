//! Collections: the wire view of `POST /api/initiate-payment` and the API's
//! rules for it, used by the SDK (before sending) and the sandbox (to answer
//! like the API).

use rust_decimal::Decimal;

use crate::amount::AmountWire;
use crate::currency::Currency;
use crate::field_rules::{check_amount, known, parse_currency, report_currency, require_max_chars};
use crate::money::Money;
pub use crate::views::CollectionFields;
use crate::violation::{Collector, Rule, Violations};

/// The longest `paymentReference` accepted, in characters.
pub const MAX_PAYMENT_REFERENCE_CHARS: usize = 100;

/// A collection request that passed [`validate_collection`], with its
/// parsed parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidatedCollection {
    /// The amount, in `from`, exact and greater than zero.
    pub amount: Decimal,
    /// The currency the payer pays in (`fromCurrency`).
    pub from: Currency,
    /// The currency credited (`toCurrency`).
    pub to: Currency,
}

impl ValidatedCollection {
    /// The amount with its currency.
    pub fn money(&self) -> Money {
        Money::from_checked(self.amount, self.from)
    }
}

/// Checks a collection request and reports every violation at once, in
/// wire order (`amount`, `fromCurrency`, `toCurrency`, `paymentReference`,
/// `rateKey`): `amount` greater than zero within `fromCurrency`'s minor
/// unit, both currencies supported, a `paymentReference` of 1 to 100
/// characters, and a `rateKey` when the currencies differ.
///
/// ```
/// use crossborder_core::collection::{validate_collection, CollectionFields};
///
/// let fields = CollectionFields {
///     amount: Some("0"),
///     from_currency: Some("USD"),
///     to_currency: Some("NGN"),
///     payment_reference: Some(""),
///     ..CollectionFields::default()
/// };
/// assert_eq!(
///     validate_collection(&fields).unwrap_err().to_string(),
///     "amount: must be greater than zero; paymentReference: is required; \
///      rateKey: is required when fromCurrency (USD) differs from toCurrency (NGN)"
/// );
///
/// let fields = CollectionFields {
///     amount: Some("100.50"),
///     payment_reference: Some("order-10045"),
///     rate_key: Some("rk_1"),
///     ..fields
/// };
/// assert_eq!(validate_collection(&fields).unwrap().money().to_string(), "100.50 USD");
/// ```
pub fn validate_collection(
    fields: &CollectionFields<'_>,
) -> Result<ValidatedCollection, Violations> {
    let mut collector = Collector::default();
    let from = parse_currency(fields.from_currency);
    let to = parse_currency(fields.to_currency);
    let (known_from, known_to) = (known(&from), known(&to));

    let amount = check_amount(
        &mut collector,
        CollectionFields::AMOUNT,
        fields.amount,
        known_from,
        AmountWire::Number,
    );
    report_currency(&mut collector, CollectionFields::FROM_CURRENCY, &from);
    report_currency(&mut collector, CollectionFields::TO_CURRENCY, &to);
    require_max_chars(
        &mut collector,
        CollectionFields::PAYMENT_REFERENCE,
        fields.payment_reference,
        MAX_PAYMENT_REFERENCE_CHARS,
    );
    // Optional fields are never blank when sent (the spec's minLength 1).
    let rate_key = collector.optional(CollectionFields::RATE_KEY, fields.rate_key);
    collector.optional(CollectionFields::NETWORK, fields.network);
    if let (Some(from), Some(to)) = (known_from, known_to) {
        if from != to && rate_key.is_none() && fields.rate_key.is_none() {
            collector.push(
                CollectionFields::RATE_KEY,
                Rule::Required,
                format!("is required when fromCurrency ({from}) differs from toCurrency ({to})"),
            );
        }
    }

    match (amount, known_from, known_to) {
        (Some(amount), Some(from), Some(to)) => {
            collector.finish(|| ValidatedCollection { amount, from, to })
        }
        _ => Err(collector.into_violations()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support;

    fn ngn() -> CollectionFields<'static> {
        CollectionFields {
            amount: Some("50000.10"),
            from_currency: Some("NGN"),
            to_currency: Some("NGN"),
            payment_reference: Some("order-10045"),
            ..CollectionFields::default()
        }
    }

    fn rules(fields: &CollectionFields<'_>) -> Vec<(String, Rule, String)> {
        test_support::violations(validate_collection(fields))
    }

    #[test]
    fn a_same_currency_collection_is_valid() {
        let valid = validate_collection(&ngn()).unwrap();
        assert_eq!(valid.amount.to_string(), "50000.10");
        assert_eq!((valid.from, valid.to), (Currency::Ngn, Currency::Ngn));
    }

    #[test]
    fn amount_rules() {
        for (amount, rule, message) in [
            (None, Rule::Required, "is required"),
            (Some(" "), Rule::Required, "is required"),
            (Some("0"), Rule::NotPositive, "must be greater than zero"),
            (Some("-5"), Rule::NotPositive, "must be greater than zero"),
            (
                Some("abc"),
                Rule::InvalidFormat,
                "must be a decimal number such as 1500.50",
            ),
            (
                Some("1.001"),
                Rule::TooPrecise,
                "has more decimal places than NGN allows (2)",
            ),
        ] {
            let fields = CollectionFields { amount, ..ngn() };
            assert_eq!(
                rules(&fields),
                [("amount".to_owned(), rule, message.to_owned())],
                "{amount:?}"
            );
        }
        let ugx = CollectionFields {
            amount: Some("10.5"),
            from_currency: Some("UGX"),
            to_currency: Some("UGX"),
            ..ngn()
        };
        assert_eq!(rules(&ugx)[0].1, Rule::TooPrecise);
    }

    #[test]
    fn payment_reference_is_1_to_100_characters() {
        let long = "é".repeat(MAX_PAYMENT_REFERENCE_CHARS);
        let fields = CollectionFields {
            payment_reference: Some(&long),
            ..ngn()
        };
        assert!(validate_collection(&fields).is_ok());
        let longer = format!("{long}x");
        let fields = CollectionFields {
            payment_reference: Some(&longer),
            ..ngn()
        };
        assert_eq!(
            rules(&fields),
            [(
                "paymentReference".to_owned(),
                Rule::TooLong,
                "must be at most 100 characters".to_owned()
            )]
        );
        let fields = CollectionFields {
            payment_reference: None,
            ..ngn()
        };
        assert_eq!(rules(&fields)[0].1, Rule::Required);
    }

    #[test]
    fn rate_key_only_when_currencies_differ() {
        let usd = CollectionFields {
            from_currency: Some("USD"),
            ..ngn()
        };
        assert_eq!(rules(&usd)[0].0, "rateKey");
        let blank = CollectionFields {
            rate_key: Some("  "),
            ..usd
        };
        assert_eq!(
            rules(&blank),
            [(
                "rateKey".to_owned(),
                Rule::Empty,
                "must not be empty".to_owned()
            )]
        );
        let keyed = CollectionFields {
            rate_key: Some("rk_1"),
            ..usd
        };
        assert!(validate_collection(&keyed).is_ok());
    }

    #[test]
    fn optional_fields_are_never_blank_when_sent() {
        let fields = CollectionFields {
            rate_key: Some(""),
            network: Some(" "),
            ..ngn()
        };
        let violations = validate_collection(&fields).unwrap_err();
        assert_eq!(
            violations.to_string(),
            "rateKey: must not be empty; network: must not be empty"
        );
    }

    #[test]
    fn an_unknown_currency_gives_one_violation() {
        let fields = CollectionFields {
            to_currency: Some("XYZ"),
            ..ngn()
        };
        let found = rules(&fields);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "toCurrency");
        assert_eq!(found[0].1, Rule::UnknownCurrency);
    }
}
