//! The decoded JSON value the reader reads.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use crate::money::parse_scientific_exact;

/// The members of a JSON object, by key.
pub type Object = BTreeMap<String, Json>;

/// A decoded JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, exactly.
    Number(Number),
    /// A string, unescaped.
    Text(String),
    /// An array.
    List(Vec<Json>),
    /// An object.
    Object(Object),
}

/// A JSON number: its value when a [`Decimal`] holds it exactly, and its
/// text without trailing zeros (`1e3` and `1000.00` are `1000`), which is
/// what the validators and the sandbox's idempotency compare.
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    value: Option<Decimal>,
    text: String,
}

impl Number {
    /// Reads the text of a JSON number (already known to be one): exactly,
    /// or as having no exact value (`1e3` reads as 1000; `1e-40`, and 1
    /// followed by 40 decimal places, have none, since exponent notation is
    /// never rounded to fit).
    pub fn from_json_text(text: &str) -> Number {
        let value = if text.contains(['e', 'E']) {
            parse_scientific_exact(text).ok()
        } else {
            Decimal::from_str_exact(text).ok()
        };
        let text = value.map_or_else(|| text.to_owned(), |value| value.normalize().to_string());
        Number { value, text }
    }

    /// The exact value, when a [`Decimal`] can hold it.
    pub fn value(&self) -> Option<Decimal> {
        self.value
    }

    /// The number's text without trailing zeros (or as sent, when it has
    /// no exact value).
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl From<&serde_json::Value> for Json {
    /// The tree of a value already parsed by `serde_json` (its numbers are
    /// read from their text; without `serde_json`'s `arbitrary_precision`,
    /// a fraction has passed through `f64`, which is why the sandbox reads
    /// bodies with [`parse_object`](super::parse_object) instead).
    fn from(value: &serde_json::Value) -> Json {
        use serde_json::Value;
        match value {
            Value::Null => Json::Null,
            Value::Bool(flag) => Json::Bool(*flag),
            Value::Number(number) => Json::Number(Number::from_json_text(&number.to_string())),
            Value::String(text) => Json::Text(text.clone()),
            Value::Array(items) => Json::List(items.iter().map(Json::from).collect()),
            Value::Object(members) => Json::Object(
                members
                    .iter()
                    .map(|(key, value)| (key.clone(), Json::from(value)))
                    .collect(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_exact_and_normalised() {
        for (sent, value, text) in [
            ("1e3", Some("1000"), "1000"),
            ("100.50", Some("100.50"), "100.5"),
            ("-5", Some("-5"), "-5"),
            (
                "1.00000000000000000000000000000001",
                None,
                "1.00000000000000000000000000000001",
            ),
            ("1e-40", None, "1e-40"),
        ] {
            let number = Number::from_json_text(sent);
            assert_eq!(
                number.value().map(|v| v.to_string()).as_deref(),
                value,
                "{sent}"
            );
            assert_eq!(number.text(), text, "{sent}");
        }
    }
}
